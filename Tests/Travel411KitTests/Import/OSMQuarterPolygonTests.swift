import Foundation
import Testing

@testable import Travel411Import

/// A `place=quarter` polygon answers as Nominatim 5.3 answers it: its area search takes every named polygon of address
/// rank 4-25 (`_lookup_area_address`, nominatim_api/reverse.py), so at zoom 14 it answers the points it holds with its
/// postcode, at zoom 18 where no street or object is in reach too, and the address of what it holds names it as
/// `quarter` (`insert_addresslines`, lib-sql/functions/placex_triggers.sql). In an export of Shah Alam the sections are
/// such polygons (Seksyen 7, way 865889861, also `landuse=residential`); travel411 kept only place polygons of the
/// suburb band and answered the country alone. The export itself (Tests/Fixtures/SOURCES.md); the expected answers are
/// Nominatim 5.3.3's on it (session 58).
@Suite struct OSMQuarterPolygonTests {
    static let shahAlam = OSMExtractImportTests.importFixture("my-shah-alam-seksyen-2022.osm.pbf")

    /// Zoom 14 inside Seksyen 7, and zoom 18 beyond every street. Before: Malaysia alone, no postcode.
    @Test(arguments: [(3.068862, 101.490801, 14), (3.085349, 101.496179, 18)])
    func theQuarterAnswers(latitude: Double, longitude: Double, zoom: Int) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.shahAlam.get().path, latitude, longitude, zoom: zoom)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 865889861", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["quarter"] == "Seksyen 7", "\(address)")
        #expect(address["postcode"] == "40000", "\(address)")
    }

    /// A bank on a street of Seksyen 7 names the quarter above its road. Before: no quarter.
    @Test func anObjectInsideNamesIt() throws {
        let address = try ExtractAnswer.address(in: try Self.shahAlam.get().path, 3.068862, 101.490801)
        #expect(address["road"] == "Jalan Plumbum S7/S", "\(address)")
        #expect(address["quarter"] == "Seksyen 7", "\(address)")
    }
}
