import Dispatch
import Foundation
import Travel411Core
import Travel411Store

/// Builds the tiles of an `AreaIndex` from polygon rings. Runs once per import; its output is stored
/// as blobs so that a lookup process starts without re-reading any geometry.
///
/// Memory does not grow with the borders: each segment goes, as it is added, to a sort run on disk once for every
/// 1° tile it touches (`ExternalSorter`, by tile and then the order added), and so does each crossing of a tile
/// row's reference line; `build` then reads them back a row and a batch of tiles at a time. A country's
/// municipalities made 3.3 million segments at 600 copies of Liechtenstein, 150 MB held until the end.
public struct AreaIndexBuilder {
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

        mutating func append(_ segment: TileSegment) {
            ax.append(segment.ax)
            ay.append(segment.ay)
            bx.append(segment.bx)
            by.append(segment.by)
            feature.append(segment.feature)
            ring.append(segment.ring)
            position.append(segment.position)
        }
    }

    /// A segment in one tile it touches, keyed by the tile and then by the segment's number (the order added).
    struct TileSegment: BitwiseCopyable {
        var key: UInt64
        var ax: Double, ay: Double, bx: Double, by: Double
        var feature: UInt32, ring: UInt32, position: UInt32
    }

    /// Where a segment crosses the line through a tile row's reference points, keyed by the row, then the order.
    struct Crossing: BitwiseCopyable {
        var key: UInt64
        var x: Double
        var feature: UInt32
    }

    /// Keys put the tile or row above this many bits of sequence number (2⁴⁰ segments, far beyond a planet's).
    private static let sequenceBits: UInt64 = 40
    /// Tiles built at once, on every core, are gathered up to about this many segments.
    private static let batchSegments = 1 << 18

    private let tileSegments: ExternalSorter<TileSegment>
    private let crossings: ExternalSorter<Crossing>
    private var segmentCount: UInt64 = 0
    private var crossingCount: UInt64 = 0
    private var ringCount: UInt32 = 0
    /// The first failure to write a sort run (a full disk), thrown by `build`: `add` cannot throw.
    private var failure: (any Error)?

    /// Sort runs (only when the segments outgrow their buffer of `bufferBytes`, the crossings a quarter of it)
    /// are created as `runPrefix` and a name, and unlinked at once; by default in the system's temporary folder.
    public init(runPrefix: String? = nil, bufferBytes: Int = 16 << 20) {
        let prefix = runPrefix ?? NSTemporaryDirectory() + "travel411-area-\(getpid())-"
        tileSegments = ExternalSorter(runPrefix: prefix + "segments-", bufferBytes: bufferBytes, spillsInBackground: true) { $0.key }
        crossings = ExternalSorter(runPrefix: prefix + "crossings-", bufferBytes: bufferBytes / 4, spillsInBackground: true) { $0.key }
    }

    /// Writes the sort buffers out and lets go of them while the builder waits for `build` (`ExternalSorter.seal`).
    public mutating func seal() {
        guard failure == nil else { return }
        do {
            try tileSegments.seal()
            try crossings.seal()
        } catch {
            failure = error
        }
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
                add(a, b, feature: UInt32(feature), ring: ringID, position: UInt32(i))
            }
            // Shapefile rings repeat their first point last; close any ring that does not.
            if let first = ring.first, let last = ring.last, first != last {
                add(last, first, feature: UInt32(feature), ring: ringID, position: UInt32(ring.count - 1))
            }
        }
    }

    private mutating func add(_ a: Point2D, _ b: Point2D, feature: UInt32, ring: UInt32, position: UInt32) {
        guard failure == nil else { return }
        let number = segmentCount
        segmentCount += 1
        do {
            // Each segment goes to every tile its bounding box touches (a superset is harmless; splitting refines it).
            func tileRange(_ lo: Double, _ hi: Double, offset: Double, count: Int) -> ClosedRange<Int> {
                let first = min(count - 1, max(0, Int((lo + offset).rounded(.down))))
                let last = min(count - 1, max(0, Int((hi + offset).rounded(.down))))
                return first...last
            }
            let columns = tileRange(min(a.x, b.x), max(a.x, b.x), offset: 180, count: AreaIndex.columns)
            let rows = tileRange(min(a.y, b.y), max(a.y, b.y), offset: 90, count: AreaIndex.rows)
            for row in rows {
                for column in columns {
                    let tile = UInt64(row * AreaIndex.columns + column)
                    try tileSegments.append(
                        TileSegment(
                            key: tile << Self.sequenceBits | number, ax: a.x, ay: a.y, bx: b.x, by: b.y, feature: feature, ring: ring,
                            position: position))
                }
            }
            try addCrossings(a, b, feature: feature)
        } catch {
            failure = error
        }
    }

    /// The rows whose reference line the segment crosses, as `featuresContainingTileCentres` sweeps them: a
    /// horizontal path straddles a segment when one end is above the line and the other on or below it.
    private mutating func addCrossings(_ a: Point2D, _ b: Point2D, feature: UInt32) throws {
        let fy = AreaIndex.referenceFractionY
        let (ay, by) = (a.y, b.y)
        if ay == by { return }
        let lo = min(ay, by), hi = max(ay, by)
        let firstRow = max(0, Int((lo + 90 - fy).rounded(.down)))
        let lastRow = min(AreaIndex.rows - 1, Int((hi + 90 - fy).rounded(.up)))
        if firstRow > lastRow { return }
        for row in firstRow...lastRow {
            let y = Double(row) - 90 + fy
            guard (ay > y) != (by > y) else { continue }
            let x = a.x + (y - ay) * (b.x - a.x) / (by - ay)
            try crossings.append(Crossing(key: UInt64(row) << Self.sequenceBits | crossingCount, x: x, feature: feature))
            crossingCount += 1
        }
    }

    /// Every tile at once; `build(_:)` hands them over one by one instead.
    public func build() throws -> Output {
        var grid = [UInt32](repeating: 0, count: AreaIndex.columns * AreaIndex.rows)
        var tiles: [(index: Int, blob: [UInt8])] = []
        try build { tile, reference, blob in
            grid[tile] = reference
            if let blob { tiles.append((tile, blob)) }
        }
        return Output(grid: grid, tiles: tiles)
    }

    /// Hands over every tile that is not empty, in tile order: its reference, and its quadtree blob when a border
    /// crosses it. The sort runs are gone afterwards; a builder builds once.
    public func build(_ store: (_ tile: Int, _ reference: UInt32, _ blob: [UInt8]?) throws -> Void) throws {
        if let failure { throw failure }
        let centreFeatures = try featuresContainingTileCentres()
        let (maxSegmentsPerLeaf, maxDepth) = (self.maxSegmentsPerLeaf, self.maxDepth)
        var nextTile = 0
        func storeUniform(before end: Int) throws {
            while nextTile < end {
                if let feature = centreFeatures[nextTile].first { try store(nextTile, AreaIndex.ref(.uniform, feature), nil) }
                nextTile += 1
            }
        }
        var batch: [(tile: Int, segments: Segments)] = []
        var batched = 0
        func buildBatch() throws {
            let tiles = batch
            var blobs = [[UInt8]](repeating: [], count: tiles.count)
            blobs.withUnsafeMutableBufferPointer { output in
                let output = DisjointSlots(output)
                DispatchQueue.concurrentPerform(iterations: tiles.count) { i in
                    let (tile, segments) = tiles[i]
                    var builder = TileBuilder(segments: segments, maxSegmentsPerLeaf: maxSegmentsPerLeaf, maxDepth: maxDepth)
                    let minX = Double(tile % AreaIndex.columns) - 180, minY = Double(tile / AreaIndex.columns) - 90
                    output[i] = builder.build(
                        minX: minX, minY: minY, segments: (0..<UInt32(segments.count)).map { $0 }, inside: centreFeatures[tile])
                }
            }
            for (i, item) in tiles.enumerated() {
                try storeUniform(before: item.tile)
                try store(item.tile, AreaIndex.ref(.leafOrTile, UInt32(item.tile)), blobs[i])
                nextTile = item.tile + 1
            }
            batch = []
            batched = 0
        }
        var current = Segments()
        var currentTile = -1
        try tileSegments.drain { segment in
            let tile = Int(segment.key >> Self.sequenceBits)
            if tile != currentTile {
                if currentTile >= 0 {
                    batch.append((currentTile, current))
                    batched += current.count
                    if batched >= Self.batchSegments { try buildBatch() }
                }
                current = Segments()
                currentTile = tile
            }
            current.append(segment)
        }
        if currentTile >= 0 { batch.append((currentTile, current)) }
        try buildBatch()
        try storeUniform(before: AreaIndex.columns * AreaIndex.rows)
    }

    /// For every tile's reference point, the polygons containing it, by one sweep per row of tiles: the
    /// path from far east of the world to each reference point crosses exactly the borders that
    /// `pathCrossesSegment` would count (a horizontal path straddles a segment when one end is above
    /// the line and the other on or below it), so the builder's later steps stay consistent with it.
    private func featuresContainingTileCentres() throws -> [[UInt32]] {
        let fx = AreaIndex.referenceFractionX
        var result = [[UInt32]](repeating: [], count: AreaIndex.columns * AreaIndex.rows)
        var row = -1
        var rowCrossings: [(x: Double, feature: UInt32)] = []
        func sweep() {
            guard row >= 0 else { return }
            let sorted = rowCrossings.sorted { $0.x > $1.x }
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
        try crossings.drain { crossing in
            let crossingRow = Int(crossing.key >> Self.sequenceBits)
            if crossingRow != row {
                sweep()
                row = crossingRow
                rowCrossings.removeAll(keepingCapacity: true)
            }
            rowCrossings.append((crossing.x, crossing.feature))
        }
        sweep()
        return result
    }
}

extension Array where Element == UInt32 {
    /// Set membership by toggling: the even-odd rule over a small sorted list.
    mutating func toggleMembership(_ value: UInt32) {
        if let index = firstIndex(of: value) { remove(at: index) } else { append(value) }
    }
}

/// Builds one tile's quadtree and serialises it in the layout `AreaTile` reads.
private struct TileBuilder {
    package let segments: AreaIndexBuilder.Segments
    let maxSegmentsPerLeaf: Int
    let maxDepth: Int

    var nodes: [UInt32] = [0]
    var records: [UInt32] = []
    var vertices: [Double] = []

    init(segments: AreaIndexBuilder.Segments, maxSegmentsPerLeaf: Int, maxDepth: Int) {
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
