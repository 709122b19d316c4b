import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// A node of an `addr:interpolation` line that has an address of its own takes the line's address tags it lacks:
/// Nominatim 5.3's `placex_indexing_prepare` (lib-sql/functions/placex_triggers.sql) merges `place_interpolation.address`
/// under a rank-30 node's own address, so the numbered end node N1295146753 (`addr:housenumber=189`, no street) of the
/// line W114309491 (`addr:street=Bourke Street`) in Pretoria's Sunnyside is on Bourke Street, not on the nearest street.
/// Real extract: the whole 2020 openstreetmap.org export (Tests/Fixtures/SOURCES.md).
@Suite struct OSMInterpolationNodeAddressTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("za-pretoria-sunnyside-2020.osm.pbf")
    static let extractImport = Result { try OSMExtractImportTests.importExtract(extract, as: "za-pretoria-sunnyside.gpkg") }

    /// Around the node, where Nominatim 5.3.3 answers `189, Bourke Street, 0002` on the same file (session 50's
    /// compare). Before: `189, Kotze Street` (the nearest street, `getNearestRoadPlaceId`'s choice for a node without one).
    @Test(arguments: [(-25.759694, 28.206636), (-25.760020, 28.206437), (-25.759968, 28.206654), (-25.759600, 28.206394)])
    func aNumberedNodeOfALineIsOnTheLinesStreet(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 1_295_146_753, "\(object)")
        #expect(address["house_number"] == "189", "\(address)")
        #expect(address["road"] == "Bourke Street", "\(address)")
        #expect(address["postcode"] == "0002", "\(address)")
    }

    /// The line's other numbered node, N1295146690 (`71;73;75`, its own `addr:street=Bourke Street` and postcode), keeps
    /// its own address: only missing keys come from the line.
    @Test func aNodeKeepsItsOwnAddress() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, -25.7536081, 28.2091442)
        let address = try #require(object["address"] as? [String: String])
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 1_295_146_690, "\(object)")
        #expect(address["road"] == "Bourke Street", "\(address)")
        #expect(address["postcode"] == "0002", "\(address)")
    }
}
