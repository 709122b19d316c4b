import Testing
import Travel411Core
import Travel411OSM

/// Area centroids as osm2pgsql's `centroid()` gives them: weighted by area, holes taken out, either winding.
@Suite struct AreaCentroidTests {
    private func ring(_ points: [(Double, Double)]) -> Ring { (points + [points[0]]).map { Point2D(x: $0.0, y: $0.1) } }

    @Test func aUShapeWhoseCentroidIsOutside() throws {
        let u = Shape.polygon(Polygon(exterior: ring([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (1, 1), (1, 4), (0, 4)])))
        let centroid = try #require(u.areaCentroid)
        // Three parts: the base 4 × 1 at y 0.5 and two arms 1 × 3 at y 2.5: (4 × 0.5 + 6 × 2.5) / 10.
        #expect(abs(centroid.x - 2) < 1e-12 && abs(centroid.y - 1.7) < 1e-12)
    }

    @Test func aHoleAndAClockwiseRingCountAsArea() throws {
        let square = ring([(0, 0), (0, 10), (10, 10), (10, 0)])  // clockwise
        let hole = ring([(0, 0), (5, 0), (5, 5), (0, 5)])
        let centroid = try #require(Shape.polygon(Polygon(exterior: square, holes: [hole])).areaCentroid)
        // 100 at (5, 5) less 25 at (2.5, 2.5): (500 - 62.5) / 75.
        #expect(abs(centroid.x - 437.5 / 75) < 1e-12 && abs(centroid.y - 437.5 / 75) < 1e-12)
    }

    @Test func thePartsOfAMultiPolygonByTheirArea() throws {
        let large = Polygon(exterior: ring([(0, 0), (3, 0), (3, 3), (0, 3)]))
        let small = Polygon(exterior: ring([(10, 0), (11, 0), (11, 1), (10, 1)]))
        let centroid = try #require(Shape.multiPolygon([large, small]).areaCentroid)
        #expect(abs(centroid.x - (9 * 1.5 + 10.5) / 10) < 1e-12 && abs(centroid.y - (9 * 1.5 + 0.5) / 10) < 1e-12)
        #expect(Shape.lineString([Point2D(x: 0, y: 0), Point2D(x: 1, y: 1)]).areaCentroid == nil)
    }
}
