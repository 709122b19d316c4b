import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// A street mapped as an area (a pedestrian square) is at distance 0 from a point inside it: Nominatim's
/// `_find_closest_street_or_pois` (nominatim_api/reverse.py 5.3) orders its candidates by `ST_Distance` to their
/// geometry, 0 inside a polygon, and answers the first when it is a street (rank 26 or 27), so that no point of
/// interest near the point but outside the square's outline answers.
@Suite struct OSMStreetAreaTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("by-minsk-independence-square-2024.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "by-minsk-independence-square.gpkg") }

    /// Inside Minsk's Independence Square (relation 278745, `highway=pedestrian`, a multipolygon), beside the library
    /// node, the Lenin memorial and the post office, as Nominatim 5.3.3 answers on the cut and on the whole export
    /// (session 47's compare): the square, at zoom 18, 17 and 16. Before: the nearest of those POIs at zoom 18 and, at
    /// one point, Савецкая вуліца (a line 25 m away, nearer than the square's outline) at zoom 16-17.
    @Test(arguments: [(53.895738, 27.546456), (53.895649, 27.545412), (53.895970, 27.545242), (53.895947, 27.546734)])
    func aPointInsideAPedestrianSquareAnswersTheSquare(latitude: Double, longitude: Double) throws {
        for zoom in [18, 17, 16] {
            let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude, zoom: zoom)
            let address = try #require(object["address"] as? [String: String])
            #expect(object["osm_type"] as? String == "relation", "zoom \(zoom): \(object)")
            #expect((object["osm_id"] as? NSNumber)?.int64Value == 278_745, "zoom \(zoom): \(object)")
            #expect(object["place_rank"] as? Int == 26, "zoom \(zoom): \(object)")
            #expect(address["road"] == "плошча Незалежнасці", "zoom \(zoom): \(address)")
            #expect(address["house_number"] == nil, "zoom \(zoom): \(address)")
            #expect(address["postcode"] == "220010", "zoom \(zoom): \(address)")
        }
    }

    /// Just outside the square's outline, north of it on Савецкая вуліца's side, the nearest object still answers: the
    /// rule is the polygon's, not a reach around it.
    @Test func aPointOutsideTheSquareAnswersWhatIsNearest() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, 53.896080, 27.546600)
        #expect(!(object["osm_type"] as? String == "relation" && (object["osm_id"] as? NSNumber)?.int64Value == 278_745), "\(object)")
    }
}
