import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// A municipality boundary answers below street level only where the zoom's highest rank reaches its search rank,
/// its `admin_level`'s: Nominatim 5.3's `_lookup_area_address` (nominatim_api/reverse.py) takes polygons of
/// `rank_search` up to the zoom's (16 at zoom 10). Karachi's Gulshan Town (way 521991332, admin_level 9: search rank
/// 18; `place=town`: address rank 16) names the town at zoom 18 and nothing at zoom 10. Real extract: the whole 2019
/// Overpass export (Tests/Fixtures/SOURCES.md).
@Suite struct OSMCityBoundaryZoomTests {
    static let extractImport = OSMBoundaryPostcodePointTests.extractImport

    /// Inside the town at zoom 10, where Nominatim 5.3.3 answers the country alone on the same file (session 52's
    /// compare). Before: the town and its postcode, 75300.
    @Test(arguments: [(24.918961, 67.124392), (24.924140, 67.133743), (24.915583, 67.116698)])
    func atZoom10TheTownBoundaryDoesNotAnswer(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude, zoom: 10)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["town"] == nil, "\(address)")
        #expect(address["postcode"] == nil, "\(address)")
        #expect(address["country_code"] == "pk", "\(address)")
    }

    /// At zoom 18 the same points name the town in the answer's address.
    @Test func atZoom18TheTownIsInTheAddress() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, 24.918961, 67.124392)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["town"] == "Gulshan Town", "\(address)")
    }
}
