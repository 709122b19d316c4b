import Foundation
import Testing

@testable import Travel411Import

/// Administrative boundaries of admin_level 11 and 12 are read like the coarser ones: Nominatim 5.3's
/// settings/address-levels.json ranks `administrative11` 22 and `administrative12` 24 by default, and a boundary's
/// `place` tag sets a finer rank (`placex_update`). Karachi's Gulistan-e-Johar blocks are admin_level 11 boundaries
/// tagged `place=neighbourhood`; the import kept levels 2-10 only, so no answer named them. The whole 2019 Overpass
/// export (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on it (session 62's compare).
@Suite struct OSMFineAdminLevelTests {
    static let karachi = OSMExtractImportTests.importFixture("pk-karachi-gulistan-e-johar-2019.osm.pbf")

    /// At zooms 14-15 the block itself answers (way 393928461, Nominatim's `_lookup_area_address`); at zoom 18 it is
    /// the neighbourhood of the ways inside it. Before: only the country (and at 18 the street and postcode).
    @Test(
        arguments: [
            (24.906984, 67.135362, 14, "way 393928461", nil), (24.909712, 67.123638, 15, "way 393928461", nil),
            (24.906537, 67.121173, 18, "way 223503263", "Service Lane"),
        ] as [(Double, Double, Int, String, String?)])
    func aBlockOfAdminLevel11NamesItsNeighbourhood(latitude: Double, longitude: Double, zoom: Int, element: String, road: String?) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.karachi.get().path, latitude, longitude, zoom: zoom)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["neighbourhood"] == "Gulistan e Johar Block 18", "\(address)")
        #expect(address["road"] == road, "\(address)")
    }
}
