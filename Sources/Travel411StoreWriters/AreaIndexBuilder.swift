import Dispatch
import Foundation
import Travel411Core
import Travel411Store

/// Builds the tiles of an `AreaIndex` from polygon rings. Runs once per import; its output is stored
/// as blobs so that a lookup process starts without re-reading any geometry.
public struct AreaIndexBuilder: Sendable {
    /// A leaf stops splitting at this many border segments…
    public var maxSegmentsPerLeaf = 20
    /// …or at this depth below the 1° tile (2⁻¹⁴° is about 7 m).
    public var maxDepth = 14

    public struct Output {
        /// `AreaIndex.columns × rows` tile references (tagged: empty, uniform polygon, or crossed tile).
        public var grid: [UInt32]
        /// Blobs of the tiles a border crosses, by tile number (row × 360 + column).
        public var tiles: [(index: Int, blob: [UInt8])]
    }

    /// Segments in struct-of-arrays form: a border segment a→b of `ring` at `position` within it.
    struct Segments {
        var ax: [Double] = [], ay: [Double] = [], bx: [Double] = [], by: [Double] = []
        var feature: [UInt32] = [], ring: [UInt32] = [], position: [UInt32] = []
        var count: Int { ax.count }
    }

    private var segments = Segments()
    private var ringCount: UInt32 = 0

    public init() {}

    /// Room for this many border segments, so that adding them never reallocates.
    public mutating func reserveCapacity(_ segmentCount: Int) {
        guard segmentCount > segments.ax.capacity else { return }
        segments.ax.reserveCapacity(segmentCount)
        segments.ay.reserveCapacity(segmentCount)
        segments.bx.reserveCapacity(segmentCount)
        segments.by.reserveCapacity(segmentCount)
        segments.feature.reserveCapacity(segmentCount)
        segments.ring.reserveCapacity(segmentCount)
        segments.position.reserveCapacity(segmentCount)
    }

    /// Adds every ring (outer and holes alike) of polygon `feature`; ids must be added in ascending order
    /// because a lookup answers the first containing polygon.
    public mutating func add(feature: Int, rings: [[Point2D]]) {
        for ring in rings where ring.count >= 3 {
            let ringID = ringCount
            ringCount += 1
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if a == b { continue }
                segments.ax.append(a.x)
                segments.ay.append(a.y)
                segments.bx.append(b.x)
                segments.by.append(b.y)
                segments.feature.append(UInt32(feature))
                segments.ring.append(ringID)
                segments.position.append(UInt32(i))
            }
            // Shapefile rings repeat their first point last; close any ring that does not.
            if let first = ring.first, let last = ring.last, first != last {
                segments.ax.append(last.x)
                segments.ay.append(last.y)
                segments.bx.append(first.x)
                segments.by.append(first.y)
                segments.feature.append(UInt32(feature))
                segments.ring.append(ringID)
                segments.position.append(UInt32(ring.count - 1))
            }
        }
    }

    public func build() -> Output {
        let tileCount = AreaIndex.columns * AreaIndex.rows
        let tileSegments = assignSegmentsToTiles()
        let centreFeatures = featuresContainingTileCentres()

        var grid = [UInt32](repeating: 0, count: tileCount)
        var crossedTiles: [Int] = []
        for tile in 0..<tileCount {
            if tileSegments.count(tile) > 0 {
                grid[tile] = AreaIndex.ref(.leafOrTile, UInt32(tile))
                crossedTiles.append(tile)
            } else if let feature = centreFeatures[tile].first {
                grid[tile] = AreaIndex.ref(.uniform, feature)
            }
        }

        var blobs = [[UInt8]](repeating: [], count: crossedTiles.count)
        let crossed = crossedTiles
        blobs.withUnsafeMutableBufferPointer { output in
            let output = DisjointSlots(output)
            DispatchQueue.concurrentPerform(iterations: crossed.count) { i in
                let tile = crossed[i]
                var builder = TileBuilder(segments: segments, maxSegmentsPerLeaf: maxSegmentsPerLeaf, maxDepth: maxDepth)
                let minX = Double(tile % AreaIndex.columns) - 180, minY = Double(tile / AreaIndex.columns) - 90
                output[i] = builder.build(minX: minX, minY: minY, segments: Array(tileSegments.members(tile)), inside: centreFeatures[tile])
            }
        }

        return Output(grid: grid, tiles: zip(crossedTiles, blobs).map { (index: $0, blob: $1) })
    }

    /// Each segment goes to every tile its bounding box touches (a superset is harmless; splitting refines it).
    private func assignSegmentsToTiles() -> Buckets {
        var buckets = Buckets(bucketCount: AreaIndex.columns * AreaIndex.rows)
        func tileRange(_ lo: Double, _ hi: Double, offset: Double, count: Int) -> ClosedRange<Int> {
            let first = min(count - 1, max(0, Int((lo + offset).rounded(.down))))
            let last = min(count - 1, max(0, Int((hi + offset).rounded(.down))))
            return first...last
        }
        buckets.fill(itemCount: segments.count) { s, emit in
            let columns = tileRange(
                min(segments.ax[s], segments.bx[s]), max(segments.ax[s], segments.bx[s]), offset: 180, count: AreaIndex.columns)
            let rows = tileRange(
                min(segments.ay[s], segments.by[s]), max(segments.ay[s], segments.by[s]), offset: 90, count: AreaIndex.rows)
            for row in rows { for column in columns { emit(row * AreaIndex.columns + column) } }
        }
        return buckets
    }

    /// For every tile's reference point, the polygons containing it, by one sweep per row of tiles: the
    /// path from far east of the world to each reference point crosses exactly the borders that
    /// `pathCrossesSegment` would count (a horizontal path straddles a segment when one end is above
    /// the line and the other on or below it), so the builder's later steps stay consistent with it.
    private func featuresContainingTileCentres() -> [[UInt32]] {
        let fx = AreaIndex.referenceFractionX, fy = AreaIndex.referenceFractionY
        var crossings = [[(x: Double, feature: UInt32)]](repeating: [], count: AreaIndex.rows)
        for s in 0..<segments.count {
            let ay = segments.ay[s], by = segments.by[s]
            if ay == by { continue }
            let lo = min(ay, by), hi = max(ay, by)
            let firstRow = max(0, Int((lo + 90 - fy).rounded(.down)))
            let lastRow = min(AreaIndex.rows - 1, Int((hi + 90 - fy).rounded(.up)))
            if firstRow > lastRow { continue }
            for row in firstRow...lastRow {
                let y = Double(row) - 90 + fy
                guard (ay > y) != (by > y) else { continue }
                let ax = segments.ax[s], bx = segments.bx[s]
                crossings[row].append((ax + (y - ay) * (bx - ax) / (by - ay), segments.feature[s]))
            }
        }
        var result = [[UInt32]](repeating: [], count: AreaIndex.columns * AreaIndex.rows)
        for row in 0..<AreaIndex.rows {
            let sorted = crossings[row].sorted { $0.x > $1.x }
            var active: [UInt32] = []
            var next = 0
            for column in stride(from: AreaIndex.columns - 1, through: 0, by: -1) {
                let x = Double(column) - 180 + fx
                while next < sorted.count, sorted[next].x > x {
                    active.toggleMembership(sorted[next].feature)
                    next += 1
                }
                if !active.isEmpty { result[row * AreaIndex.columns + column] = active.sorted() }
            }
        }
        return result
    }
}

extension Array where Element == UInt32 {
    /// Set membership by toggling: the even-odd rule over a small sorted list.
    mutating func toggleMembership(_ value: UInt32) {
        if let index = firstIndex(of: value) { remove(at: index) } else { append(value) }
    }
}

/// Items grouped into numbered buckets with a counting sort: two passes, no per-bucket arrays.
struct Buckets {
    private(set) var starts: [Int]
    private(set) var items: [UInt32] = []

    package init(bucketCount: Int) { starts = [Int](repeating: 0, count: bucketCount + 1) }

    package mutating func fill(itemCount: Int, _ assign: (Int, (Int) -> Void) -> Void) {
        var counts = [Int](repeating: 0, count: starts.count)
        for item in 0..<itemCount { assign(item) { counts[$0 + 1] += 1 } }
        for i in 1..<counts.count { counts[i] += counts[i - 1] }
        starts = counts
        var cursor = counts
        items = [UInt32](repeating: 0, count: counts[counts.count - 1])
        for item in 0..<itemCount {
            assign(item) { bucket in
                items[cursor[bucket]] = UInt32(item)
                cursor[bucket] += 1
            }
        }
    }

    package func count(_ bucket: Int) -> Int { starts[bucket + 1] - starts[bucket] }
    func members(_ bucket: Int) -> ArraySlice<UInt32> { items[starts[bucket]..<starts[bucket + 1]] }
}

/// Builds one tile's quadtree and serialises it in the layout `AreaTile` reads.
private struct TileBuilder {
    package let segments: AreaIndexBuilder.Segments
    let maxSegmentsPerLeaf: Int
    let maxDepth: Int

    var nodes: [UInt32] = [0]
    var records: [UInt32] = []
    var vertices: [Double] = []

    package init(segments: AreaIndexBuilder.Segments, maxSegmentsPerLeaf: Int, maxDepth: Int) {
        self.segments = segments
        self.maxSegmentsPerLeaf = maxSegmentsPerLeaf
        self.maxDepth = maxDepth
    }

    /// Where each segment's first vertex sits in `vertices`.
    private var vertexOfSegment: [UInt32: UInt32] = [:]

    package mutating func build(minX: Double, minY: Double, segments tileSegments: [UInt32], inside: [UInt32]) -> [UInt8] {
        let inTile = tileSegments.filter { intersects($0, minX: minX, minY: minY, size: 1) }
        layOutVertices(inTile)
        nodes[0] = node(minX: minX, minY: minY, size: 1, segments: inTile, inside: inside, depth: 0)
        var writer = ByteWriter(capacity: 12 + nodes.count * 4 + records.count * 4 + vertices.count * 8 + 8)
        writer.append(UInt32(nodes.count))
        writer.append(UInt32(records.count))
        writer.append(UInt32(vertices.count / 2))
        writer.append(contentsOf: nodes)
        writer.append(contentsOf: records)
        writer.align(to: 8)
        for value in vertices { writer.append(value) }
        return writer.bytes
    }

    /// Stores each run of consecutive ring vertices inside the tile once; leaves then point into it,
    /// so a border segment shared by several leaves costs its coordinates only once.
    private mutating func layOutVertices(_ inTile: [UInt32]) {
        let ordered = inTile.sorted {
            let a = Int($0), b = Int($1)
            return segments.ring[a] != segments.ring[b] ? segments.ring[a] < segments.ring[b] : segments.position[a] < segments.position[b]
        }
        var previous: Int? = nil
        for segment in ordered {
            let s = Int(segment)
            let continues =
                previous.map { segments.ring[$0] == segments.ring[s] && segments.position[$0] + 1 == segments.position[s] } ?? false
            if !continues {
                vertices.append(segments.ax[s])
                vertices.append(segments.ay[s])
            }
            vertexOfSegment[segment] = UInt32(vertices.count / 2 - 1)
            vertices.append(segments.bx[s])
            vertices.append(segments.by[s])
            previous = s
        }
    }

    private mutating func node(minX: Double, minY: Double, size: Double, segments cell: [UInt32], inside: [UInt32], depth: Int) -> UInt32 {
        if cell.isEmpty {
            return inside.first.map { AreaIndex.ref(.uniform, $0) } ?? AreaIndex.ref(.empty, 0)
        }
        if cell.count <= maxSegmentsPerLeaf || depth >= maxDepth {
            return leaf(
                centreX: minX + size * AreaIndex.referenceFractionX, centreY: minY + size * AreaIndex.referenceFractionY,
                segments: cell, inside: inside)
        }
        let half = size / 2
        let cx = minX + size * AreaIndex.referenceFractionX, cy = minY + size * AreaIndex.referenceFractionY
        let firstChild = nodes.count
        nodes.append(contentsOf: [0, 0, 0, 0])
        for quadrant in 0..<4 {
            let childMinX = minX + (quadrant & 1 == 0 ? 0 : half)
            let childMinY = minY + (quadrant & 2 == 0 ? 0 : half)
            let childCX = childMinX + half * AreaIndex.referenceFractionX
            let childCY = childMinY + half * AreaIndex.referenceFractionY
            // The child's reference state follows from the parent's by the crossings between the two
            // reference points; that path lies inside the parent cell, so only its segments can cross it.
            var childInside = inside
            for s in cell {
                let i = Int(s)
                if pathCrossesSegment(cx, cy, childCX, childCY, segments.ax[i], segments.ay[i], segments.bx[i], segments.by[i]) {
                    childInside.toggleMembership(segments.feature[i])
                }
            }
            let childSegments = cell.filter { intersects($0, minX: childMinX, minY: childMinY, size: half) }
            let ref = node(
                minX: childMinX, minY: childMinY, size: half, segments: childSegments, inside: childInside.sorted(), depth: depth + 1)
            nodes[firstChild + quadrant] = ref
        }
        return AreaIndex.ref(.internalNode, UInt32(firstChild))
    }

    private mutating func leaf(centreX: Double, centreY: Double, segments cell: [UInt32], inside: [UInt32]) -> UInt32 {
        let ordered = cell.sorted {
            let a = Int($0), b = Int($1)
            if segments.feature[a] != segments.feature[b] { return segments.feature[a] < segments.feature[b] }
            if segments.ring[a] != segments.ring[b] { return segments.ring[a] < segments.ring[b] }
            return segments.position[a] < segments.position[b]
        }
        var features = Set(inside)
        for s in ordered { features.insert(segments.feature[Int(s)]) }
        let record = records.count
        records.append(UInt32(features.count))
        var cursor = 0
        for feature in features.sorted() {
            records.append(feature)
            records.append(inside.contains(feature) ? 1 : 0)
            let chainCountSlot = records.count
            records.append(0)
            var previous: Int? = nil
            while cursor < ordered.count, segments.feature[Int(ordered[cursor])] == feature {
                let s = Int(ordered[cursor])
                let continues =
                    previous.map { segments.ring[$0] == segments.ring[s] && segments.position[$0] + 1 == segments.position[s] } ?? false
                if continues {
                    records[records.count - 1] += 1
                } else {
                    records.append(vertexOfSegment[ordered[cursor]] ?? 0)
                    records.append(2)
                    records[chainCountSlot] += 1
                }
                previous = s
                cursor += 1
            }
        }
        return AreaIndex.ref(.leafOrTile, UInt32(record))
    }

    /// Closed segment–square intersection: boxes overlap and the corners are not all on one side.
    private func intersects(_ s: UInt32, minX: Double, minY: Double, size: Double) -> Bool {
        let i = Int(s)
        let ax = segments.ax[i], ay = segments.ay[i], bx = segments.bx[i], by = segments.by[i]
        let maxX = minX + size, maxY = minY + size
        if max(ax, bx) < minX || min(ax, bx) > maxX || max(ay, by) < minY || min(ay, by) > maxY { return false }
        let dx = bx - ax, dy = by - ay
        var positive = false, negative = false
        for (x, y) in [(minX, minY), (maxX, minY), (minX, maxY), (maxX, maxY)] {
            let side = dx * (y - ay) - dy * (x - ax)
            if side > 0 { positive = true } else if side < 0 { negative = true } else { return true }
        }
        return positive && negative
    }
}

extension AreaIndex {
    /// An index straight from a builder's output, every tile in memory.
    package convenience init(built: AreaIndexBuilder.Output) throws {
        let arena = TileArena(capacity: built.tiles.reduce(0) { $0 + $1.blob.count + TileArena.alignment })
        for tile in built.tiles { try tile.blob.withUnsafeBytes { try arena.append(tile: tile.index, bytes: $0) } }
        try self.init(grid: built.grid, arena: arena)
    }
}
