import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// A municipality's postcode from any of Nominatim's address postcode keys (`ADDRESS_TAGS.core.postcode`,
/// lib-lua/themes/nominatim/presets.lua), not only `postal_code`: Melun's and Livry-sur-Seine's boundaries carry
/// `addr:postcode=77000`, which Nominatim 5.3.3 gives their answers (mimirsbrunn's three_cities.osm.pbf, whole).
@Suite struct OSMBoundaryPostcodeKeyTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("melun-three-cities-2016.osm.pbf")
    static let extractImport = Result { try OSMExtractImportTests.importExtract(extract, as: "melun-three-cities.gpkg") }

    /// No street within reach: the commune answers, with its own postcode, at zoom 18 and at zoom 10.
    @Test(arguments: [(48.555766, 2.652722, 18, Int64(80071), "Melun"), (48.502634, 2.690825, 10, Int64(215_390), "Livry-sur-Seine")])
    func aBoundarysAddrPostcodeIsItsOwn(latitude: Double, longitude: Double, zoom: Int, relation: Int64, name: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude, zoom: zoom)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "relation", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == relation, "\(object)")
        #expect(object["name"] as? String == name, "\(object)")
        #expect(address["postcode"] == "77000", "\(address)")
    }
}
