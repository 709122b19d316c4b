import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// Nominatim's fallback keys (`junction`, `historic`, `healthcare`, `tourism=attraction`) make a place only of a named
/// element that no other main tag made one of (`process_tags`, lib-lua/themes/nominatim/init.lua): an unnamed
/// `highway=tertiary` roundabout in Aguascalientes is a street without a name, no POI on the nearest named street
/// (a cut of OSMnx's aguascalientes.osm.bz2). The answers are Nominatim 5.3.3's on the whole extract.
@Suite struct OSMFallbackPOITests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("aguascalientes-roundabouts-2026.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "aguascalientes-roundabouts.gpkg") }

    @Test(arguments: [(21.872372, -102.275065, Int64(75_415_289)), (21.872290, -102.272432, Int64(75_415_272))])
    func anUnnamedRoundaboutIsAStreetOnly(latitude: Double, longitude: Double, way: Int64) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        #expect(object["category"] as? String == "highway", "\(object)")
        #expect(object["type"] as? String == "tertiary", "\(object)")
        #expect(address["road"] == nil, "\(address)")
    }
}
