import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// A state's own `addr:postcode`: Saint-Barthélemy's boundary (relation 537967, admin_level 3, Nominatim's state)
/// carries 97133, which Nominatim 5.3.3 gives every answer of that boundary (`placex_update` sets `placex.postcode` to
/// the place's own, `token_get_postcode`; `_finalize_entry` in nominatim_api/results.py prints it). osmose-backend's
/// saint_barthelemy.osm.pbf, sorted.
@Suite struct OSMStatePostcodeTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("saint-barthelemy-2014.osm.pbf")
    static let extractImport = Result { try OSMExtractImportTests.importExtract(extract, as: "saint-barthelemy.gpkg") }

    /// In the island's waters east of it, no street within reach and no municipality: the state answers with its
    /// postcode at zoom 18 and at zoom 10, as Nominatim 5.3.3 does ("Saint-Barthélemy, 97133, France"; before: no
    /// postcode).
    @Test(arguments: [18, 10])
    func aStateAnswersWithItsOwnPostcode(zoom: Int) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, 17.846303, -62.589690, zoom: zoom)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "relation", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 537_967, "\(object)")
        #expect(object["display_name"] as? String == "Saint-Barthélemy, 97133, France", "\(object)")
        #expect(address["state"] == "Saint-Barthélemy", "\(address)")
        #expect(address["postcode"] == "97133", "\(address)")
    }
}
