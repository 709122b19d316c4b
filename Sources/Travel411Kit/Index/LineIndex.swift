import Foundation

/// Nearest line within a radius (streets): segments bucketed in a 0.01° grid (about 1.1 km), so a
/// lookup reads only the few cells its search circle overlaps.
///
/// Blob layout: u32 cellCount, u32 segmentCount, u32 refCount, u32 pad, f64 bbox[4] (minX, minY, maxX,
/// maxY), cellKeys[cellCount] u32 (sorted), cellStarts[cellCount + 1] u32, refs[refCount] u32,
/// pad to 8, segments[segmentCount × (ax, ay, bx, by) f64], lineIDs[segmentCount] u32.
// @unchecked Sendable: reads its blob in place through raw pointers; never written after init.
public final class LineIndex: @unchecked Sendable {
    static let cellDegrees = 0.01
    static let columns = 36_000

    private let storage: BlobStorage
    private let cellCount: Int
    private let bounds: BoundingBox
    private let cellKeys: UnsafePointer<UInt32>
    private let cellStarts: UnsafePointer<UInt32>
    private let refs: UnsafePointer<UInt32>
    private let segments: UnsafePointer<Double>
    private let lineIDs: UnsafePointer<UInt32>

    init(storage: BlobStorage) throws {
        guard storage.count >= 48 else { throw IndexFormatError.malformed("line index header") }
        let cellCount = Int(storage.u32(at: 0)), segmentCount = Int(storage.u32(at: 4)), refCount = Int(storage.u32(at: 8))
        let box = storage.pointer(at: 16, as: Double.self)
        var offset = 48
        let keyOffset = offset
        offset += cellCount * 4
        let startOffset = offset
        offset += (cellCount + 1) * 4
        let refOffset = offset
        offset += refCount * 4
        offset = (offset + 7) & ~7
        let segmentOffset = offset
        offset += segmentCount * 32
        let lineOffset = offset
        offset += segmentCount * 4
        guard offset == storage.count else { throw IndexFormatError.malformed("line index size") }
        self.storage = storage
        self.cellCount = cellCount
        bounds = BoundingBox(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3])
        cellKeys = storage.pointer(at: keyOffset, as: UInt32.self)
        cellStarts = storage.pointer(at: startOffset, as: UInt32.self)
        refs = storage.pointer(at: refOffset, as: UInt32.self)
        segments = storage.pointer(at: segmentOffset, as: Double.self)
        lineIDs = storage.pointer(at: lineOffset, as: UInt32.self)
    }

    static func cellKey(column: Int, row: Int) -> UInt32 { UInt32(row * columns + column) }
    static func column(_ x: Double) -> Int { min(columns - 1, max(0, Int(((x + 180) / cellDegrees).rounded(.down)))) }
    static func row(_ y: Double) -> Int { min(17_999, max(0, Int(((y + 90) / cellDegrees).rounded(.down)))) }

    /// The id of the nearest line within `radiusMetres`, with its distance in metres.
    public func nearest(to point: Coordinate, radiusMetres: Double) -> (id: UInt32, metres: Double)? {
        let metresPerDegreeY = GreatCircle.earthRadiusMetres * .pi / 180
        let metresPerDegreeX = metresPerDegreeY * max(cos(point.latitude * .pi / 180), 1e-6)
        let x = point.longitude, y = point.latitude
        let search = BoundingBox(around: point, metres: radiusMetres)
        guard search.intersects(bounds) else { return nil }
        var best: (id: UInt32, metres: Double)? = nil
        var bestSquared = radiusMetres * radiusMetres
        for row in LineIndex.row(search.minY)...LineIndex.row(search.maxY) {
            for column in LineIndex.column(search.minX)...LineIndex.column(search.maxX) {
                guard let cell = findCell(LineIndex.cellKey(column: column, row: row)) else { continue }
                for r in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
                    let s = Int(refs[r])
                    let segment = segments + s * 4
                    // Local flat projection in metres around the query: exact enough within a few hundred metres.
                    let ax = (segment[0] - x) * metresPerDegreeX, ay = (segment[1] - y) * metresPerDegreeY
                    let bx = (segment[2] - x) * metresPerDegreeX, by = (segment[3] - y) * metresPerDegreeY
                    let d = squaredDistanceFromOrigin(ax, ay, bx, by)
                    if d < bestSquared || (d == bestSquared && best.map { lineIDs[s] < $0.id } ?? false) {
                        bestSquared = d
                        best = (lineIDs[s], d.squareRoot())
                    }
                }
            }
        }
        return best
    }

    private func findCell(_ key: UInt32) -> Int? {
        var lo = 0, hi = cellCount
        while lo < hi {
            let mid = (lo + hi) >> 1
            if cellKeys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo < cellCount && cellKeys[lo] == key ? lo : nil
    }

    /// Squared distance from (0, 0) to segment a–b.
    @inline(__always) private func squaredDistanceFromOrigin(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double {
        let ex = bx - ax, ey = by - ay
        let lengthSquared = ex * ex + ey * ey
        var t = lengthSquared > 0 ? -(ax * ex + ay * ey) / lengthSquared : 0
        t = min(1, max(0, t))
        let px = ax + t * ex, py = ay + t * ey
        return px * px + py * py
    }
}

/// Builds a `LineIndex` blob from polylines.
public struct LineIndexBuilder {
    private var segments: [(ax: Double, ay: Double, bx: Double, by: Double, id: UInt32)] = []

    public init() {}

    public mutating func add(id: UInt32, lines: [[Point2D]]) {
        for line in lines where line.count >= 2 {
            for i in 0..<(line.count - 1) {
                segments.append((line[i].x, line[i].y, line[i + 1].x, line[i + 1].y, id))
            }
        }
    }

    public func build() -> [UInt8] {
        var bounds = BoundingBox.empty
        var cellRefs: [UInt32: [UInt32]] = [:]
        for (s, segment) in segments.enumerated() {
            bounds.extend(x: segment.ax, y: segment.ay)
            bounds.extend(x: segment.bx, y: segment.by)
            let columns = LineIndex.column(min(segment.ax, segment.bx))...LineIndex.column(max(segment.ax, segment.bx))
            let rows = LineIndex.row(min(segment.ay, segment.by))...LineIndex.row(max(segment.ay, segment.by))
            for row in rows {
                for column in columns { cellRefs[LineIndex.cellKey(column: column, row: row), default: []].append(UInt32(s)) }
            }
        }
        if bounds.isEmpty { bounds = BoundingBox(minX: 0, minY: 0, maxX: -1, maxY: -1) }
        let keys = cellRefs.keys.sorted()
        var writer = ByteWriter()
        writer.append(UInt32(keys.count))
        writer.append(UInt32(segments.count))
        writer.append(UInt32(cellRefs.values.reduce(0) { $0 + $1.count }))
        writer.append(UInt32(0))
        for value in [bounds.minX, bounds.minY, bounds.maxX, bounds.maxY] { writer.append(value) }
        writer.append(contentsOf: keys)
        var start: UInt32 = 0
        for key in keys {
            writer.append(start)
            start += UInt32(cellRefs[key]?.count ?? 0)
        }
        writer.append(start)
        for key in keys { writer.append(contentsOf: cellRefs[key] ?? []) }
        writer.align(to: 8)
        for segment in segments { for value in [segment.ax, segment.ay, segment.bx, segment.by] { writer.append(value) } }
        for segment in segments { writer.append(segment.id) }
        return writer.bytes
    }
}
