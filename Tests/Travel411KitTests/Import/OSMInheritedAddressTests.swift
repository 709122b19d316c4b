import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// Two address rules of Nominatim 5.3 that London's dense City shows, on real data cut from valhalla's london.osm.pbf:
/// a POI node without an address carries the address of the building around it (`placex_indexing_prepare`,
/// placex_triggers.sql: `InheritedBuildingAddress`), and a building named only by `addr:housename` is an address point
/// (`IsAddressPoint`, nominatim_api/sql/sqlalchemy_functions.py). Each answer is Nominatim 5.3.3's on the whole
/// extract, postcode included.
@Suite struct OSMInheritedAddressTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("london-ludgate-hatton-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "london-ludgate-hatton.gpkg") }

    static func answer(_ latitude: Double, _ longitude: Double) throws -> [String: Any] {
        try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
    }

    /// Inside 100 Ludgate Hill (an office block with no postcode) the tanning salon's node, 0.0006° away, answers
    /// in the building's place with its number; its postcode is that of the Ludgate Hill way nearest the node. The
    /// lift at 55 Ludgate Hill likewise. Before, the building answered (the node's number was not the building's).
    @Test(arguments: [
        (51.514436, -0.103669, Int64(4_569_700_105), "100", "EC4M 7LQ"), (51.513901, -0.104148, Int64(7_613_626_045), "55", "EC4M 7LW"),
    ])
    func aNodeWithoutAnAddressCarriesItsBuildings(latitude: Double, longitude: Double, node: Int64, number: String, postcode: String)
        throws
    {
        let object = try Self.answer(latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == node, "\(object)")
        #expect(address["house_number"] == number, "\(address)")
        #expect(address["road"] == "Ludgate Hill", "\(address)")
        #expect(address["postcode"] == postcode, "\(address)")
    }

    /// The point lies in The Johnson Building, tagged `addr:housename` and no number: Nominatim answers the building
    /// by that name, on Hatton Garden (its nearest street), not the café 0.00016° away.
    @Test func aBuildingNamedOnlyByItsHouseNameAnswers() throws {
        let object = try Self.answer(51.520297, -0.108808)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 53_759_120, "\(object)")
        #expect(object["name"] as? String == "The Johnson Building", "\(object)")
        #expect(address["road"] == "Hatton Garden", "\(address)")
        #expect(address["house_number"] == nil, "\(address)")
        #expect(address["postcode"] == "EC1N 8DX", "\(address)")
    }
}
