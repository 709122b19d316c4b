import Foundation
import Testing

@testable import Travel411Import

/// An object whose `addr:street` names no street near and whose `addr:place` names a place near is parented by that
/// place, as Nominatim 5.3's `find_parent_for_address` (lib-sql/functions/utils.sql) looks for the place
/// (`getNearestNamedPlacePlaceId`) before `find_parent_for_poi` takes the nearest street: its address has no road.
/// Bishkek's blocks are tagged `addr:street=Кок-Джар микрорайон` (or `Улан-2 микрорайон`) with `addr:place` naming the
/// microdistrict, whose polygon is a `place=neighbourhood`; travel411 answered the nearest street. The export itself
/// (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on it (session 59).
@Suite struct OSMAddressPlaceParentTests {
    static let bishkek = OSMExtractImportTests.importFixture("kg-bishkek-kok-zhar-2025.osm.pbf")

    /// Before: the road Жуная Мавлянова улица, then 7 Апреля улица.
    @Test(arguments: [
        (42.849794, 74.630591, "way 50831947", "19", "Кок-Жар микрорайон"),
        (42.845826, 74.632530, "way 314532813", "2/20", "Улан-2 микрорайон"),
    ])
    func noRoad(latitude: Double, longitude: Double, element: String, number: String, place: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.bishkek.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == nil, "\(address)")
        #expect(address["house_number"] == number, "\(address)")
        #expect(address["neighbourhood"] == place, "\(address)")
        #expect(address["suburb"] == "Кок-Жар", "\(address)")
    }

    /// A block on the same `addr:street` without `addr:place` keeps its nearest street, Куйручук улица, and answers as
    /// 38/1 there; before, the block 38 beside it (with `addr:place`), then a house number of that street, answered.
    @Test func withoutAPlaceTheNearestStreetStays() throws {
        let address = try ExtractAnswer.address(in: try Self.bishkek.get().path, 42.852153, 74.632573)
        #expect(address["road"] == "Куйручук улица", "\(address)")
        #expect(address["house_number"] == "38/1", "\(address)")
    }
}
