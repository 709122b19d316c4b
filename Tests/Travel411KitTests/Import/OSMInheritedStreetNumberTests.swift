import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// Beside the nearest street, a POI node that carries its building's house number answers when its point is nearer
/// the street's point than the street's own addresses' (`lookup_street_poi`, nominatim_api/reverse.py, "Housenumber
/// to closest result": its candidates need a house number and that parent street, not to be address points), on real
/// data cut from valhalla's moscow.osm.pbf (Chistoprudny Boulevard). Each answer is Nominatim 5.3.3's on the whole
/// extract.
@Suite struct OSMInheritedStreetNumberTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("moscow-chistoprudny-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "moscow-chistoprudny.gpkg") }

    /// Outside every building, Чистопрудный бульвар nearest: the café Блэкмилк (no address; inside 12 к4) and the
    /// restaurant Кофе Пью (inside 9 с1) lie nearer the boulevard's point than building 10 с1's or 7/2's centre, and
    /// answer; before, those buildings did.
    @Test(arguments: [
        (55.762217, 37.642559, Int64(2_196_651_539), "12 к4"), (55.763003, 37.642989, Int64(2_125_127_402), "9 с1"),
        (55.763279, 37.640960, Int64(4_575_268_910), "8 с1"),
    ])
    func aNodeWithItsBuildingsNumberAnswersBesideTheStreet(latitude: Double, longitude: Double, node: Int64, number: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == node, "\(object)")
        #expect(address["house_number"] == number, "\(address)")
        #expect(address["road"] == "Чистопрудный бульвар", "\(address)")
    }
}
