import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// A POI node without an address inherits the address of a rank-30 polygon that covers it (`placex_indexing_prepare`,
/// lib-sql/functions/placex_triggers.sql: `ST_Covers(geometry, p.centroid)`), and `ST_Covers` holds the polygon's
/// outline too: a node that is a vertex of the building's outline inherits as one inside it.
@Suite struct OSMBuildingOutlineAddressTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("by-minsk-valadarskaha-2024.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "by-minsk-valadarskaha.gpkg") }

    /// Around the plaque N9706996518 (`historic=memorial`, no address), a node of the outline of the multipolygon
    /// building R17951141 (`addr:housenumber=2`, вуліца Валадарскага) and of the prison wall, as Nominatim 5.3.3 answers
    /// on the whole export (session 47's compare): the plaque, numbered 2. Before: the plaque without a number (only a
    /// point strictly inside an outline inherited its address).
    @Test(arguments: [(53.899381, 27.548577), (53.898526, 27.549531), (53.898385, 27.548866), (53.899309, 27.548504)])
    func aNodeOnABuildingsOutlineCarriesItsNumber(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 9_706_996_518, "\(object)")
        #expect(address["house_number"] == "2", "\(address)")
        #expect(address["road"] == "вуліца Валадарскага", "\(address)")
        #expect(address["postcode"] == "220030", "\(address)")
    }
}
