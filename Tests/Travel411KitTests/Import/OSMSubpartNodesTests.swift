import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// Place nodes below a boundary of their own rank (Nominatim's `placex_update`, "make the node a subpart") and
/// town nodes inside a coarser municipality, as München's suburb nodes inside the Bezirksteil boundaries and
/// Andorra's villages inside the parishes: each node's box cut to the boundary holding it.
@Suite struct OSMSubpartNodesTests {
    static func square(_ minX: Double, _ minY: Double, _ size: Double) -> Shape { OSMPostcodeAreasTests.square(minX, minY, size) }

    static func node(_ name: String, _ type: String, _ x: Double, _ y: Double) -> OSMPlaceNodeAreas.Node {
        OSMPlaceNodeAreas.Node(name: name, type: type, point: Point2D(x: x, y: y), layer: "places", fid: 1)
    }

    /// A concave boundary (an L) cut by a convex box keeps only what lies in both.
    @Test func aBoundaryCutToABoxKeepsTheirCommonPart() throws {
        let l = Shape.polygon(
            Polygon(exterior: [
                Point2D(x: 0, y: 0), Point2D(x: 2, y: 0), Point2D(x: 2, y: 1), Point2D(x: 1, y: 1), Point2D(x: 1, y: 2),
                Point2D(x: 0, y: 2), Point2D(x: 0, y: 0),
            ]))
        let box = [Point2D(x: 0.5, y: 0.5), Point2D(x: 1.5, y: 0.5), Point2D(x: 1.5, y: 1.5), Point2D(x: 0.5, y: 1.5)]
        let cut = try #require(OSMSubpartNodes.clip(l, to: box))
        #expect(cut.contains(x: 0.7, y: 0.7))
        #expect(cut.contains(x: 1.3, y: 0.7))
        #expect(cut.contains(x: 0.7, y: 1.3))
        // The L's notch, inside the box but outside the boundary.
        #expect(!cut.contains(x: 1.3, y: 1.3))
        // Inside the boundary but outside the box.
        #expect(!cut.contains(x: 0.2, y: 0.2))
        // The same box clockwise.
        #expect(OSMSubpartNodes.clip(l, to: box.reversed())?.contains(x: 0.7, y: 0.7) == true)
        #expect(OSMSubpartNodes.clip(l, to: [Point2D(x: 5, y: 5), Point2D(x: 6, y: 5), Point2D(x: 6, y: 6)]) == nil)
    }

    /// München: the `place=suburb` node "Altstadt" inside "Bezirksteil Kreuzviertel" names the points of that
    /// boundary within its ± 2 km box, never those of the boundary next to it; a node of the boundary's own name
    /// is linked to it and moves nowhere; a node outside every boundary keeps its whole box for the points there.
    @Test func anUnlinkedSuburbNodeNamesItsBoundarysPointsAroundIt() {
        let kreuzviertel = (name: "Bezirksteil Kreuzviertel", shape: Self.square(11.56, 48.13, 0.01))
        let graggenau = (name: "Graggenau", shape: Self.square(11.57, 48.13, 0.01))
        let nodes = [
            Self.node("Altstadt", "suburb", 11.565, 48.135), Self.node("Graggenau", "suburb", 11.575, 48.135),
            Self.node("Hackenviertel", "suburb", 11.55, 48.12), Self.node("Gärtnerplatz", "neighbourhood", 11.566, 48.136),
        ]
        let (inside, outside) = OSMSubpartNodes.areas(
            of: nodes, types: ["suburb"], halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(suburbType: $0) },
            boundaries: [kreuzviertel, graggenau])
        #expect(inside.map(\.node.name) == ["Altstadt"])
        #expect(inside.first?.boundary == 0)
        #expect(inside.first?.shape.contains(x: 11.561, y: 48.131) == true)
        #expect(inside.first?.shape.contains(x: 11.571, y: 48.131) == false)
        #expect(Set(outside.map(\.node.name)) == ["Altstadt", "Hackenviertel"])
        #expect(outside.contains { $0.node.name == "Hackenviertel" && $0.shape.contains(x: 11.551, y: 48.121) })
    }

    /// Andorra: a village node inside a parish (rank 14) that a finer municipality (rank 16) does not hold names
    /// the city part around it; one inside the finer municipality is a part of that one.
    @Test func aVillageInsideACoarserParishNamesTheCityAroundIt() {
        let parish = (name: "Canillo", shape: Self.square(1.55, 42.55, 0.1))
        let finer = Self.square(1.63, 42.63, 0.02)
        let nodes = [Self.node("Soldeu", "village", 1.60, 42.58), Self.node("el Tarter", "village", 1.64, 42.64)]
        let (inside, _) = OSMSubpartNodes.areas(
            of: nodes, types: ["city", "town", "village"], halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(townType: $0) },
            boundaries: [parish], excluded: [finer])
        #expect(inside.map(\.node.name) == ["Soldeu"])
        #expect(inside.first?.shape.contains(x: 1.61, y: 42.585) == true)
        // Beyond the village's ± 2 km box, the parish answers.
        #expect(inside.first?.shape.contains(x: 1.57, y: 42.63) == false)
    }
}
