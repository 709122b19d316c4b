import Foundation
import Testing

@testable import Travel411Import

/// A place node answers with its own address, as Nominatim 5.3's does: its answer is the node's row with the address
/// lines `insert_addresslines` computed at the node's point (lib-sql/functions/placex_triggers.sql), whatever polygon
/// holds the query's point. In an export of Istanbul's Kadıköy the mahalle Caferağa (relation 9441032, admin_level 8,
/// linked to its suburb node) holds the quarters Moda and Bahariye; at zoom 14 points outside every mahalle are answered
/// by a quarter within its reach (`lookup_country`, nominatim_api/reverse.py), which names Caferağa Mahallesi as its
/// suburb. travel411 named the suburb at the query's point, none there. The export itself (Tests/Fixtures/SOURCES.md);
/// the expected answers are Nominatim 5.3.3's on it (sessions 59 and 61).
@Suite struct OSMPlaceNodeOwnSuburbTests {
    static let istanbul = OSMExtractImportTests.importFixture("tr-istanbul-moda-2026.osm.pbf")

    /// Points south of the mahalle (in Fenerbahçe's postcode area) answered by the quarters Bahariye and Moda, with the
    /// postcode of the postal_code polygon covering the quarter (`get_nearest_postcode`: polygons before computed
    /// postcodes). Before: the quarter with no suburb; then (session 59-60) 34714, the nearest computed postcode.
    @Test(arguments: [(40.979871, 29.036029, "node 2491352363", "Bahariye"), (40.979045, 29.030566, "node 251355449", "Moda")])
    func theQuarterNamesItsOwnMahalle(latitude: Double, longitude: Double, element: String, quarter: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.istanbul.get().path, latitude, longitude, zoom: 14)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["quarter"] == quarter, "\(address)")
        #expect(address["suburb"] == "Caferağa Mahallesi", "\(address)")
        #expect(address["postcode"] == "34710", "\(address)")
    }

    /// Inside the mahalle (search rank 16) the quarter Moda (20) inside it answers at zooms 14 and 15, as Nominatim's
    /// area search takes a place node of a higher rank inside the polygon it found (`_lookup_area_address`'s second
    /// query), with the mahalle as its suburb and the postal polygon's 34710. Before: the mahalle itself.
    @Test(arguments: [(40.984642, 29.025454, 14), (40.983721, 29.024219, 15)])
    func insideTheMahalleTheQuarterAnswers(latitude: Double, longitude: Double, zoom: Int) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.istanbul.get().path, latitude, longitude, zoom: zoom)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 251355449", "\(object)")
        #expect(object["place_rank"] as? Int == 20, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["quarter"] == "Moda", "\(address)")
        #expect(address["suburb"] == "Caferağa Mahallesi", "\(address)")
        #expect(address["postcode"] == "34710", "\(address)")
    }
}
