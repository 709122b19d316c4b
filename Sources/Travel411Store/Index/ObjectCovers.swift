import Travel411Core

/// Which buildings and areas may hold a point: each outline's extent is stored as one segment from its
/// south-west corner to its north-east corner in every object cell the extent covers (a `StreetTiles` of
/// its own, `PlacesSchema.LineIndex.objectCovers`). The outlines whose extent holds the point are the only
/// ones the ray test (`StreetTiles.outlinesHolding`) needs to count, and the ray ends at the farthest of
/// their eastern edges instead of its full reach: in a town of buildings that is one or two cells, not eight.
package enum ObjectCovers {
    /// How far each extent is widened, so that a crossing computed at the outline's very edge still lies in a
    /// covered cell and within the ray.
    package static let slackDegrees = 1e-6

    /// The outlines whose widened extent holds `point`, and the farthest of their eastern edges; nil when none.
    package static func candidates(at point: Coordinate, covers: StreetTiles) -> (lines: [UInt32], lastX: Double)? {
        var lines: [UInt32] = []
        var lastX = -Double.infinity
        let x = point.longitude, y = point.latitude
        covers.forEachRun(inCellOf: point) { line, minX, minY, maxX, maxY in
            guard minX <= x, x <= maxX, minY <= y, y <= maxY else { return }
            lines.append(line)
            lastX = max(lastX, maxX)
        }
        return lines.isEmpty ? nil : (lines, lastX)
    }
}
