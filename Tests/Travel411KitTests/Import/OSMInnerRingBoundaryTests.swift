import Foundation
import Testing

@testable import Travel411Import

/// A relation whose only complete ring carries the role `inner` is a polygon of that ring: libosmium's area assembler
/// decides outer and inner rings by their nesting and reads the roles only to report them (`AssemblerConfig::
/// check_roles`), and osm2pgsql, which Nominatim 5.3 imports with, assembles relations with it. A cut of an
/// openstreetmap.org export of Youssoufia, Morocco (2023): the cercle de El Gantour (relation 5174140, admin_level 6,
/// 19 way members), of which the export holds only the two ways around the town, both `inner`.
@Suite struct OSMInnerRingBoundaryTests {
    static let extractImport = OSMExtractImportTests.importFixture("youssoufia-inner-ring-2022.osm.pbf")

    /// The one boundary is a polygon, of the county level (admin_level 6 is address rank 12 in Morocco).
    @Test func theInnerRingIsThePolygon() throws {
        let (path, summary) = try Self.extractImport.get()
        #expect(OSMExtractImportTests.features(summary)["youssoufia_inner_ring_2022_boundaries"] == 1)
        #expect(try OSMExtractImportTests.count("SELECT count(*) FROM travel411_areas WHERE level = 'district'", in: path) == 1)
    }

    /// Inside the ring (Nominatim's centroid of the cercle in the whole export) the answer is the cercle, named county;
    /// in Nominatim 5.3.3 on the whole export the cercle is an address line of 740 objects in the town.
    @Test(arguments: [(32.2487459, -8.5320107)])
    func aPointInsideTheRingIsInTheCercle(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "relation", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 5_174_140, "\(object)")
        #expect(address["county"] == "cercle de El Gantour", "\(address)")
    }
}
