import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411OSM

/// Two ways osm2pgsql, which Nominatim 5.3 imports with, builds geometries that decide postcodes. A closed way is a
/// polygon whatever its tags (`process_way` in Nominatim's lib-lua/themes/nominatim/init.lua: `as_polygon()` first),
/// so a ring street's centroid is a point on its surface (`get_center_point`), and its postcode is the one nearest
/// that point (`get_nearest_postcode`). A relation cut by the extract is assembled from the member ways the extract
/// has, so a building relation whose closed outer way is there is an object, and its `addr:postcode` is one of the
/// points its postcode's centroid is the mean of. Real data: a cut of OpenTripPlanner's moorgate.osm.pbf.
@Suite struct OSMClosedWaysAndCutRelationsTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("london-moorgate-cut-2024.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "london-moorgate-cut.gpkg") }

    static func address(_ latitude: Double, _ longitude: Double) throws -> [String: String] {
        try ExtractAnswer.address(in: try Self.cutImport.get().path, latitude, longitude)
    }

    /// Nominatim 5.3.3 on the whole extract: Salisbury House, 29 Finsbury Circus, EC2M 7DT, the postcode of the
    /// ring street's point on its surface (before: EC2M 7LS, the postcode nearest the ring's halfway point).
    @Test func aRingStreetsPostcodeIsTheOneNearestAPointOnItsSurface() throws {
        let address = try Self.address(51.517654, -0.087171)
        #expect(address["road"] == "Finsbury Circus", "\(address)")
        #expect(address["house_number"] == "29", "\(address)")
        #expect(address["postcode"] == "EC2M 7DT", "\(address)")
    }

    /// Nominatim 5.3.3: Ben Jonson Place, EC2Y 8BB, the postcode of the school relation whose other outer way the
    /// extract lacks (before: EC2Y 8DS, the school not being assembled, so no point of EC2Y 8BB at all).
    @Test func aRelationCutByTheExtractCarriesItsPostcode() throws {
        let address = try Self.address(51.520873, -0.094450)
        #expect(address["road"] == "Ben Jonson Place", "\(address)")
        #expect(address["postcode"] == "EC2Y 8BB", "\(address)")
    }

    /// The quarter Barbican (a `place=quarter` node, address rank 22) names the streets whose box it reaches, between
    /// the road and the postcode, as in Nominatim 5.3.3's "29, Finsbury Circus, Barbican, EC2M 7DT".
    @Test func aQuarterNodeNamesTheStreetsItsBoxReaches() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, 51.517654, -0.087171)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["quarter"] == "Barbican", "\(address)")
        let displayName = try #require(object["display_name"] as? String)
        #expect(displayName.contains("Finsbury Circus, Barbican, EC2M 7DT"), "\(displayName)")
    }

    /// A closed way whose nodes cross is no polygon, as libosmium's assembler (osm2pgsql's) refuses it; a ring is.
    @Test func aRingIsSimpleAndAFigureEightIsNot() {
        let square = [Point2D(x: 0, y: 0), Point2D(x: 1, y: 0), Point2D(x: 1, y: 1), Point2D(x: 0, y: 1), Point2D(x: 0, y: 0)]
        let bowTie = [Point2D(x: 0, y: 0), Point2D(x: 1, y: 1), Point2D(x: 1, y: 0), Point2D(x: 0, y: 1), Point2D(x: 0, y: 0)]
        let flat = [Point2D(x: 0, y: 0), Point2D(x: 1, y: 0), Point2D(x: 2, y: 0), Point2D(x: 0, y: 0)]
        #expect(SimpleRing.isSimple(square))
        #expect(!SimpleRing.isSimple(bowTie))
        #expect(!SimpleRing.isSimple(flat))
    }
}
