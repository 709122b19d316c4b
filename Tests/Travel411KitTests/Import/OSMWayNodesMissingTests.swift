import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// A closed way with nodes missing at the extract's edge is an area over the nodes there are, as osm2pgsql (which
/// Nominatim 5.3 imports with) leaves a way's missing nodes out before Nominatim's style assembles its polygon
/// (lib-lua/themes/nominatim/init.lua, `process_way`: `as_polygon()`). Taichung's Tunghai University (way 347094469,
/// `amenity=university`, `addr:housenumber=1727`, `addr:street=臺灣大道四段`) has 74 of its 120 nodes in the export
/// (Tests/Fixtures/SOURCES.md): inside it Nominatim 5.3.3 answers the campus, or a POI node inside it that carries its
/// house number ("POI near closest result area", `lookup_street_poi`, nominatim_api/reverse.py; the node inherits the
/// campus's address, `placex_indexing_prepare`). travel411 took the way for an open line, its address at the line's
/// middle with no outline, and answered the nearest street or building (the expected answers are Nominatim 5.3.3's on
/// the whole export, session 64).
@Suite struct OSMWayNodesMissingTests {
    static let cut = OSMExtractImportTests.importFixture("tw-taichung-tunghai-2025.osm.pbf")

    /// Before: 約農路 (no number), the recycling bins on 科技路, 約農路, 德耀路.
    @Test(arguments: [
        (24.179979, 120.600989, "node 3715912823"), (24.177900, 120.596697, "way 347094469"),
        (24.182432, 120.602568, "node 3540722894"), (24.180162, 120.596893, "node 3719277057"),
    ])
    func insideTheCampusItsNumberAnswers(latitude: Double, longitude: Double, element: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cut.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["house_number"] == "1727", "\(address)")
        #expect(address["road"] == "臺灣大道四段", "\(address)")
    }

    /// The reader hands the way over closed, its outline the ring over the nodes the extract has.
    @Test func theWayIsAnArea() throws {
        let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("tw-taichung-tunghai-2025.osm.pbf")
        let features = try OSMFixtures.readAll(extract.path).features.filter { $0.element == OSMElementID(.way, 347_094_469) }
        let address = try #require(features.first { $0.kind == .address })
        #expect(address.outline.count == 1)
        #expect(address.outline.first?.count == 74, "\(address.outline.map(\.count))")
        #expect(address.outline.first?.first == address.outline.first?.last)
    }
}
