import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// Which area answers a point inside it, as Nominatim 5.3.3's `_find_closest_street_or_pois` (nominatim_api/reverse.py)
/// takes areas, on real cuts of the Beijing and Nairobi exports compared in docs/osm.md, each point answered as Nominatim
/// answers it on the whole export: an area is a candidate when its centroid lies within 0.007° of the point, however far
/// its box reaches, and of two areas holding the point the smaller polygon answers (`ST_Area`), not the smaller box.
@Suite struct OSMAreaAtThePointTests {
    static let beijing = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("cn-beijing-haidian-2026.osm.pbf"), as: "cn-beijing-haidian.gpkg")
    }
    static let nairobi = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("ke-nairobi-chiromo-2025.osm.pbf"), as: "ke-nairobi-chiromo.gpkg")
    }

    /// Inside the research institute and the university campus, 0.010° wide, whose centroids lie within reach: the area
    /// holds the point, and the POI node inside it near the point answers, else the area (before: a bicycle parking
    /// beside, or a living street, as the areas' boxes reached beyond 0.007° east of the point).
    @Test(
        arguments: [
            (39.998357, 116.349383, "node 5672735859"), (40.003149, 116.348105, "node 1787118713"),
            (39.998537, 116.348834, "way 594899438"),
        ])
    func anAreaWhoseCentroidIsInReachAnswers(latitude: Double, longitude: Double, element: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.beijing.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
    }

    /// In Chiromo both the university college (way 106088773) and the campus school (way 1358685224) hold the point; the
    /// school's box is the smaller (2.80e-5 against 2.97e-5 square degrees), its polygon the larger (1.89e-5 against
    /// 1.30e-5): the college answers (before: the school).
    @Test(arguments: [(-1.272876, 36.807796), (-1.272749, 36.807878)])
    func theSmallerPolygonAnswers(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.nairobi.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 106088773", "\(object)")
    }
}
