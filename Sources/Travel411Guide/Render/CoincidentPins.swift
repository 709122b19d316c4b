import Foundation
import Travel411Core
import Travel411Store

/// Pins that would hide each other are spread on a ring around their common point, the app's rule:
/// N pins 2π/N apart, at a radius that grows linearly with N, each placed with the great-circle
/// destination-point formula. The app's 1.5 m × N is kept as the least step; on a map the step is as
/// many metres as `pixelStep` pixels cover, so the ring clears the pin icons at any scale.
public enum CoincidentPins {
    /// The app's step: 1.5 m per pin.
    public static let seedStepMetres = 1.5

    /// Groups of marker indexes drawn within `threshold` pixels of each other (chained: a pin close to
    /// either of two grouped pins joins them). Groups of one are included; order follows the input.
    public static func groups(_ points: [ScreenPoint], threshold: Double) -> [[Int]] {
        groups(points) { i, j in hypot(points[i].x - points[j].x, points[i].y - points[j].y) < threshold }
    }

    /// Groups of point indexes joined (chained) wherever `isNear` says two are close; groups of one included.
    public static func groups(_ points: [ScreenPoint], isNear: (Int, Int) -> Bool) -> [[Int]] {
        var parent = Array(points.indices)
        func root(_ i: Int) -> Int {
            var i = i
            while parent[i] != i {
                parent[i] = parent[parent[i]]
                i = parent[i]
            }
            return i
        }
        for i in points.indices {
            for j in points.indices where j > i && isNear(i, j) {
                let (a, b) = (root(i), root(j))
                if a != b { parent[max(a, b)] = min(a, b) }
            }
        }
        var members: [Int: [Int]] = [:]
        var order: [Int] = []
        for i in points.indices {
            let r = root(i)
            if members[r] == nil { order.append(r) }
            members[r, default: []].append(i)
        }
        return order.compactMap { members[$0] }
    }

    /// The ring's step in metres per pin at this scale: at least the app's 1.5 m.
    public static func stepMetres(metresPerPixel: Double, pixelStep: Double) -> Double {
        max(seedStepMetres, metresPerPixel * pixelStep)
    }

    /// The radius of a ring of `count` pins: linear in the count.
    public static func radius(count: Int, stepMetres: Double) -> Double { Double(count) * stepMetres }

    /// Where `count` pins around `centre` go: the first due north, then every 360°/count clockwise,
    /// all `radius(count:stepMetres:)` metres from the centre. One pin stays on its point.
    public static func ring(around centre: Coordinate, count: Int, stepMetres: Double) -> [Coordinate] {
        guard count > 1 else { return count == 1 ? [centre] : [] }
        let distance = radius(count: count, stepMetres: stepMetres)
        let origin = GreatCircle.Origin(centre), step = GreatCircle.Step(distance: distance)
        return (0..<count).map { index in
            origin.destination(step, GreatCircle.Heading(360 * Double(index) / Double(count)))
        }
    }
}
