import Testing
import Travel411Core
import Travel411OSM

/// Points on surfaces: inside the polygon where the centroid is not.
@Suite struct PointOnSurfaceTests {
    private func ring(_ points: [(Double, Double)]) -> Ring { (points + [points[0]]).map { Point2D(x: $0.0, y: $0.1) } }

    @Test func aUShapeWhoseCentroidIsOutside() {
        // A U: the centroid (about x 2, y 1.4) lies in the notch between the arms.
        let u = Shape.polygon(Polygon(exterior: ring([(0, 0), (4, 0), (4, 4), (3, 4), (3, 1), (1, 1), (1, 4), (0, 4)])))
        let point = u.pointOnSurface
        #expect(evenOddContains(rings: u.rings, x: point.x, y: point.y))
    }

    @Test func aSquareWithAHoleInItsMiddle() {
        let shape = Shape.polygon(
            Polygon(exterior: ring([(0, 0), (10, 0), (10, 10), (0, 10)]), holes: [ring([(2, 2), (8, 2), (8, 8), (2, 8)])]))
        let point = shape.pointOnSurface
        #expect(evenOddContains(rings: shape.rings, x: point.x, y: point.y))
        #expect(!(point.x > 2 && point.x < 8 && point.y > 2 && point.y < 8))
    }

    @Test func theLargestPartOfAMultiPolygon() {
        let small = Polygon(exterior: ring([(20, 20), (21, 20), (21, 21), (20, 21)]))
        let large = Polygon(exterior: ring([(0, 0), (10, 0), (10, 10), (0, 10)]))
        let point = Shape.multiPolygon([small, large]).pointOnSurface
        #expect(evenOddContains(rings: Shape.polygon(large).rings, x: point.x, y: point.y))
    }

    @Test func halfwayAlongALine() {
        let line = Shape.lineString([Point2D(x: 0, y: 0), Point2D(x: 1, y: 0), Point2D(x: 1, y: 3)])
        #expect(line.pointOnSurface == Point2D(x: 1, y: 1))
    }

    @Test func degenerateShapesDoNotTrap() {
        #expect(Shape.lineString([]).pointOnSurface == Point2D(x: 0, y: 0))
        #expect(Shape.polygon(Polygon(exterior: [])).pointOnSurface == Point2D(x: 0, y: 0))
        let flat = Shape.polygon(Polygon(exterior: ring([(0, 0), (1, 0), (2, 0)])))
        #expect(flat.pointOnSurface == Point2D(x: 0, y: 0))
    }
}
