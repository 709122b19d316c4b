import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// A named administrative boundary's own postcode (`postal_code`) is a postcode point too, at the boundary's point on
/// its surface: Nominatim 5.3 keeps the tag in the boundary's `address` (`ADDRESS_TAGS.core.postcode`,
/// lib-lua/themes/nominatim/presets.lua) and makes its postcode points from every `placex` row with a postcode
/// (`_update_guessed_postcode`, nominatim_db/tools/postcodes.py), so an object outside the boundary takes it as the
/// nearest postcode within the country's reach (`get_nearest_postcode`, lib-sql/functions/utils.sql). In Karachi's
/// Gulistan-e-Johar the only postcode of the export is Gulshan Town's (way 521991332, admin_level 9, `place=town`,
/// `postal_code=75300`). Real extract: the whole 2019 Overpass export (Tests/Fixtures/SOURCES.md).
@Suite struct OSMBoundaryPostcodePointTests {
    static let extractImport = OSMExtractImportTests.importFixture("pk-karachi-gulistan-e-johar-2019.osm.pbf")

    /// Outside Gulshan Town's outline, where Nominatim 5.3.3 answers these ways with 75300 on the same file (session
    /// 52's compare). Before: no postcode, the boundary naming only what lies inside it.
    @Test(arguments: [
        (24.906984, 67.135362, 223_391_416), (24.905640, 67.112783, 223_403_162), (24.917300, 67.131891, 484_563_087),
    ])
    func anObjectOutsideTheBoundaryTakesItsPostcode(latitude: Double, longitude: Double, way: Int64) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        #expect(address["postcode"] == "75300", "\(address)")
    }

    /// Inside it the boundary still names the town and its postcode (`insert_addresslines`).
    @Test func insideTheBoundaryTheTownAndItsPostcode() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, 24.918961, 67.124392)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["town"] == "Gulshan Town", "\(address)")
        #expect(address["postcode"] == "75300", "\(address)")
    }
}
