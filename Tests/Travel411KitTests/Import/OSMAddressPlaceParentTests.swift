import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

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

    /// A place whose way makes no polygon parents too: the microdistrict `Улан микрорайон` (way 50743267, whose ring
    /// crosses itself) is a line in Nominatim's `placex` (lib-lua/themes/nominatim/init.lua, `process_way`:
    /// `as_polygon()`, else `as_linestring()`), found by its centroid, so the block on `addr:street` and `addr:place`
    /// `Улан микрорайон` has no road. Before: 7 Апреля улица, the nearest street (the way was dropped). Nominatim 5.3.3
    /// (session 63) names the parent as the neighbourhood: `complete_address_details` (nominatim_api/results.py) lists a
    /// rank-30 object's parent as a line of its own, keyed by its `place` value (`get_label_tag`), though no polygon of it
    /// holds the block (`AddressPlaceLine`; before session 64, no neighbourhood).
    @Test(arguments: [(42.840581, 74.634434), (42.840691, 74.634855)])
    func aPlaceOnALineParentsToo(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.bishkek.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 50831928", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == nil, "\(address)")
        #expect(address["house_number"] == "4", "\(address)")
        #expect(address["neighbourhood"] == "Улан микрорайон", "\(address)")
        #expect(address["suburb"] == "Кок-Жар", "\(address)")
        #expect((object["display_name"] as? String)?.hasPrefix("4, Улан микрорайон, Кок-Жар") == true, "\(object)")
    }

    /// The reader hands the way over as a line marked as having made no area, and the place is read from it; a place
    /// way that makes a polygon stays a polygon, once.
    @Test func aPlaceWayWhoseRingCrossesItselfIsALine() throws {
        let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("kg-bishkek-kok-zhar-2025.osm.pbf")
        let places = try OSMFixtures.readAll(extract.path).features.filter { $0.kind == .place }
        let crossing = places.filter { $0.element == OSMElementID(.way, 50_743_267) }
        #expect(crossing.count == 1)
        #expect(crossing.first.map { Self.isLine($0.shape) } == true, "\(crossing)")
        #expect(crossing.first?.place?.type == "neighbourhood")
        let valid = places.filter { $0.element == OSMElementID(.way, 335_554_747) }
        #expect(valid.count == 1)
        #expect(valid.first.map { Self.isLine($0.shape) } == false, "\(valid)")
    }

    private static func isLine(_ shape: Shape) -> Bool {
        if case .lineString = shape { return true }
        return false
    }

    /// A block on the same `addr:street` without `addr:place` keeps its nearest street, Куйручук улица, and answers as
    /// 38/1 there; before, the block 38 beside it (with `addr:place`), then a house number of that street, answered.
    @Test func withoutAPlaceTheNearestStreetStays() throws {
        let address = try ExtractAnswer.address(in: try Self.bishkek.get().path, 42.852153, 74.632573)
        #expect(address["road"] == "Куйручук улица", "\(address)")
        #expect(address["house_number"] == "38/1", "\(address)")
    }
}
