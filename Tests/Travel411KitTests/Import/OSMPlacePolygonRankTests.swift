import Foundation
import Testing

@testable import Travel411Import

/// A place polygon ranks as Nominatim 5.3 ranks it: its `place_rank` is its search rank, its type's in
/// settings/address-levels.json (`compute_place_rank`, lib-sql/functions/ranking.sql: a `place=suburb` area 19), and its
/// area search answers with the polygon of the highest search rank within the zoom's that holds the point
/// (`_lookup_area_address`, nominatim_api/reverse.py; `REVERSE_MAX_RANKS`: 19 at zoom 13). travel411 ranked every place
/// polygon of the suburb level 20, a suburb boundary's rank: at zoom 13 the suburb node Кок-Жар answered inside Bishkek's
/// suburb way Кок-Жар (161847490) with the node's postcode, at zoom 14 the way with rank 20. The export itself
/// (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on it (session 60).
@Suite struct OSMPlacePolygonRankTests {
    static let bishkek = OSMExtractImportTests.importFixture("kg-bishkek-kok-zhar-2025.osm.pbf")

    /// Inside the suburb way at zooms 13 and 14. Before: the node 1738020576 (postcode 720082) at 13, rank 20 at 14.
    @Test(arguments: [13, 14])
    func theSuburbWayAnswersWithItsOwnRank(zoom: Int) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.bishkek.get().path, 42.844461, 74.636974, zoom: zoom)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 161847490", "\(object)")
        #expect(object["place_rank"] as? Int == 19, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == "Кок-Жар", "\(address)")
        #expect(address["postcode"] == "720014", "\(address)")
    }

    /// At zoom 12 (rank 18) the way is beyond the zoom's rank: the country answers, as before.
    @Test func atZoom12TheCountryAnswers() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.bishkek.get().path, 42.844461, 74.636974, zoom: 12)
        #expect(object["osm_id"] == nil, "\(object)")
        #expect(object["place_rank"] as? Int == 4, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == nil, "\(address)")
    }
}
