import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// A boundary relation whose member ways have nodes missing (cut off by the extract's box) is still a polygon, its
/// rings closed over the gaps: osm2pgsql, which Nominatim imports with, builds a way from the nodes it has, and
/// Nominatim 5.3.3 on the whole extract names North Vancouver City at these points (and answers its relation at
/// zoom 10). Real data: North Vancouver City's relation (37 of the 53 nodes of one of its two ways are outside the
/// extract), three of its streets (Grand Boulevard West, near the gap, only so that the cut's streets are those
/// around the points) and the suburb node Keith-Lynn, cut from pelias/openstreetmap's
/// vancouver_canada.osm.pbf.
@Suite struct OSMBoundaryWithNodesMissingTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("north-vancouver-2015.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "north-vancouver.gpkg") }

    @Test(arguments: [(49.315423, -123.071772, "Keith Road"), (49.305310, -123.061527, "Low Level Road")])
    func aBoundaryCutByTheExtractNamesItsStreets(latitude: Double, longitude: Double, road: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == road, "\(address)")
        #expect(address["city"] == "North Vancouver City", "\(address)")
    }
}
