import Foundation
import Testing

@testable import Travel411Import

/// A place polygon ranks as Nominatim 5.3 ranks it: its `place_rank` is its search rank, its type's in
/// settings/address-levels.json (`compute_place_rank`, lib-sql/functions/ranking.sql: a `place=suburb` area 19), and its
/// area search answers with the polygon of the highest search rank within the zoom's that holds the point
/// (`_lookup_area_address`, nominatim_api/reverse.py; `REVERSE_MAX_RANKS`: 19 at zoom 13). travel411 ranked every place
/// polygon of the suburb level 20, a suburb boundary's rank: at zoom 13 the suburb node Кок-Жар answered inside Bishkek's
/// suburb way Кок-Жар (161847490) with the node's postcode, at zoom 14 the way with rank 20. The export itself
/// (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on it (session 60). The same search puts a
/// place node inside the polygon of a higher search rank first: Ho Chi Minh City's suburb node Tân Định (19) inside the
/// admin_level 9 Khu phố 11 (18).
@Suite struct OSMPlacePolygonRankTests {
    static let bishkek = OSMExtractImportTests.importFixture("kg-bishkek-kok-zhar-2025.osm.pbf")
    static let saigon = OSMExtractImportTests.importFixture("vn-ho-chi-minh-city-district-3-2026.osm.pbf")

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

    /// Inside Khu phố 11 (relation 19601371, admin_level 9: 18) the suburb node Tân Định (19) inside it, within its reach,
    /// answers at zooms 14 and 15; at 15 not the neighbourhood node Khu phố 14 (24) outside it. Before: the boundary.
    @Test(arguments: [(10.791189, 106.691718, 14), (10.790274, 106.693824, 15)])
    func aSuburbNodeInsideAnAdminLevel9BoundaryAnswers(latitude: Double, longitude: Double, zoom: Int) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.saigon.get().path, latitude, longitude, zoom: zoom)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 13065358352", "\(object)")
        #expect(object["place_rank"] as? Int == 19, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == "Tân Định", "\(address)")
        #expect(address["postcode"] == "70000", "\(address)")
    }

    /// Inside another Khu phố 11 (relation 19962417, 18), which holds no suburb node, the boundary answers at zoom 13 as at
    /// 12 and 14. Before: the suburb node Tân Định, 0.006° away outside it.
    @Test func anAdminLevel9BoundaryAnswersAtZoom13() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.saigon.get().path, 10.788307, 106.689342, zoom: 13)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "relation 19962417", "\(object)")
        #expect(object["place_rank"] as? Int == 18, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["neighbourhood"] == "Khu phố 11", "\(address)")
        #expect(address["suburb"] == nil, "\(address)")
    }
}
