import Foundation
import Travel411Core

/// Point-in-polygon lookup for one area level (countries, admin areas, time zones, water, …).
///
/// The world is cut into 1° tiles. A tile that no border crosses stores its polygon id in a flat grid.
/// A tile that a border crosses stores a small quadtree whose leaves hold at most a few border
/// segments, each with the inside/outside state of the leaf's centre for every polygon there. A lookup
/// then decides containment by counting crossings between the leaf centre and the point: it never
/// touches more than a handful of vertices, however big the polygon (Russia, Canada, Antarctica).
// @unchecked Sendable: it holds raw pointers into its blob, which Swift cannot check; nothing is written
// after init but the LazySlots of tiles read one by one, so any number of threads read one copy.
public final class AreaIndex: @unchecked Sendable {
    @inlinable package static var columns: Int { 360 }
    @inlinable package static var rows: Int { 180 }

    /// A reference in the grid or a tile's node array: low 2 bits tag, high 30 bits payload.
    public enum Tag: UInt32 {
        case empty = 0, uniform = 1, internalNode = 2, leafOrTile = 3
    }

    @inlinable @inline(__always) package static func tag(_ ref: UInt32) -> UInt32 { ref & 3 }
    @inlinable @inline(__always) static func payload(_ ref: UInt32) -> UInt32 { ref >> 2 }
    @inline(__always) package static func ref(_ tag: Tag, _ payload: UInt32) -> UInt32 { payload << 2 | tag.rawValue }

    /// Where in a cell its reference point lies, as a fraction of the cell's size. Just off the centre,
    /// so that no real vertex (data often has coordinates like 4.5) sits exactly on a reference point,
    /// which would make the recorded inside/outside state ambiguous.
    package static let referenceFractionX = 0.5 + 1.234_567_89e-4
    package static let referenceFractionY = 0.5 + 9.876_543_21e-5

    /// Keeps points on the edge of the world inside it: 180° lies on the east edge of the last tile,
    /// which is the border of polygons that end there, so step a hair (0.1 mm) inside.
    @inlinable @inline(__always) static func clampedToWorld(_ x: Double, _ y: Double) -> (Double, Double) {
        (min(max(x, -180 + 1e-9), 180 - 1e-9), min(max(y, -90 + 1e-9), 90 - 1e-9))
    }

    /// The column and row of the 1° tile holding a point already `clampedToWorld`.
    @inlinable @inline(__always) static func tile(_ x: Double, _ y: Double) -> (column: Int, row: Int) {
        // Truncation: after the clamp at 0 it is rounding down (a call of libm's `floor` on the baseline target).
        (min(columns - 1, max(0, Int(x + 180))), min(rows - 1, max(0, Int(y + 90))))
    }

    /// Every tile's reference when all were read up front; otherwise references read one by one.
    /// A crossed tile's payload is its offset in `arena` in 16-byte units (all read up front).
    private let grid: UnsafeMutablePointer<UInt32>?
    /// Every crossed tile's blob back to back, so that the grid leads straight to a tile's header,
    /// whose cache line also holds the root and the first nodes: one miss fewer than a table of tiles.
    private let arena: TileArena?
    /// Tiles read one by one, by tile number.
    private let lazyTiles: LazySlots<LoadedTile>?
    private let tileLoader: (@Sendable (Int) throws -> (reference: UInt32, blob: BlobStorage?))?

    /// A tile read on its own: its reference, and its quadtree when a border crosses it.
    final class LoadedTile: Sendable {
        let reference: UInt32
        let blob: BlobStorage?

        init(reference: UInt32, blob: BlobStorage?) {
            self.reference = reference
            self.blob = blob
        }
    }

    /// Every tile in memory (batches, where many threads read at once): `grid` holds the stored
    /// references, `arena` the crossed tiles, whose references it rewrote to point into it.
    package init(grid: [UInt32], arena: TileArena) throws {
        guard grid.count == AreaIndex.columns * AreaIndex.rows else { throw IndexFormatError.malformed("area grid size") }
        let gridMemory = UnsafeMutablePointer<UInt32>.allocate(capacity: grid.count)
        gridMemory.initialize(from: grid, count: grid.count)
        var hasBlob = [Bool](repeating: false, count: grid.count)
        for (tile, offset) in arena.offsets {
            guard grid.indices.contains(tile), AreaIndex.tag(grid[tile]) == Tag.leafOrTile.rawValue else {
                throw IndexFormatError.malformed("tile \(tile) without a reference")
            }
            gridMemory[tile] = AreaIndex.ref(.leafOrTile, UInt32(offset / TileArena.alignment))
            hasBlob[tile] = true
        }
        for tile in 0..<grid.count where AreaIndex.tag(grid[tile]) == Tag.leafOrTile.rawValue && !hasBlob[tile] {
            throw IndexFormatError.malformed("missing tile \(tile)")
        }
        self.grid = gridMemory
        self.arena = arena
        lazyTiles = nil
        tileLoader = nil
    }

    deinit { grid?.deallocate() }

    /// Tiles read when first touched (a single lookup reads one tile per level).
    package init(tileLoader: @escaping @Sendable (Int) throws -> (reference: UInt32, blob: BlobStorage?)) {
        grid = nil
        arena = nil
        lazyTiles = LazySlots(count: AreaIndex.columns * AreaIndex.rows)
        self.tileLoader = tileLoader
    }

    /// This level for `AreaLookupLockstep`, when all its tiles are in memory.
    package var lockstepLevel: AreaLookupLockstep.Level? {
        guard let grid, let arena else { return nil }
        return AreaLookupLockstep.Level(grid: UnsafePointer(grid), arena: UnsafeRawPointer(arena.base))
    }

    /// The index of the first polygon (in import order) that contains the point, or nil.
    @inline(__always)
    public func featureIndex(longitude: Double, latitude: Double) -> Int? {
        let (x, y) = AreaIndex.clampedToWorld(longitude, latitude)
        let (column, row) = AreaIndex.tile(x, y)
        let tileIndex = row * AreaIndex.columns + column
        let minX = Double(column) - 180, minY = Double(row) - 90
        if let grid, let arena {
            let ref = grid[tileIndex]
            switch AreaIndex.tag(ref) {
            case Tag.uniform.rawValue: return Int(AreaIndex.payload(ref))
            case Tag.leafOrTile.rawValue:
                let tile = AreaTile(checkedBase: arena.base + Int(AreaIndex.payload(ref)) * TileArena.alignment)
                return tile.featureIndex(x: x, y: y, minX: minX, minY: minY)
            default: return nil
            }
        }
        guard let loaded = lazyTile(tileIndex) else { return nil }
        switch AreaIndex.tag(loaded.reference) {
        case Tag.uniform.rawValue: return Int(AreaIndex.payload(loaded.reference))
        case Tag.leafOrTile.rawValue:
            guard let blob = loaded.blob else { return nil }
            return withExtendedLifetime(blob) { AreaTile(checkedBase: blob.base).featureIndex(x: x, y: y, minX: minX, minY: minY) }
        default: return nil
        }
    }

    /// False only when the point's tile and every tile within `metres` of it hold no polygon at all:
    /// a cheap way to know a point is in open sea.
    public func mayHoldFeature(near coordinate: Coordinate, withinMetres metres: Double) -> Bool {
        let box = BoundingBox(around: coordinate, metres: metres)
        let west = Int((box.minX + 180).rounded(.down)), east = Int((box.maxX + 180).rounded(.down))
        let south = max(0, Int((box.minY + 90).rounded(.down))), north = min(AreaIndex.rows - 1, Int((box.maxY + 90).rounded(.down)))
        guard south <= north else { return false }
        for row in south...north {
            for rawColumn in west...max(west, min(east, west + AreaIndex.columns - 1)) {
                let column = (rawColumn % AreaIndex.columns + AreaIndex.columns) % AreaIndex.columns
                let tile = row * AreaIndex.columns + column
                let reference = grid?[tile] ?? lazyTile(tile)?.reference ?? AreaIndex.ref(.empty, 0)
                if AreaIndex.tag(reference) != Tag.empty.rawValue { return true }
            }
        }
        return false
    }

    /// A tile read on its own, on first use; a crossed tile whose blob is damaged reads as empty.
    private func lazyTile(_ index: Int) -> LoadedTile? {
        guard let lazyTiles, let tileLoader else { return nil }
        return lazyTiles.withValue(
            at: index,
            orMake: {
                guard let loaded = try? tileLoader(index) else { return LoadedTile(reference: AreaIndex.ref(.empty, 0), blob: nil) }
                guard AreaIndex.tag(loaded.reference) == Tag.leafOrTile.rawValue else {
                    return LoadedTile(reference: loaded.reference, blob: nil)
                }
                guard let blob = loaded.blob, (try? AreaTile.validate(UnsafeRawBufferPointer(start: blob.base, count: blob.count))) != nil
                else { return LoadedTile(reference: AreaIndex.ref(.empty, 0), blob: nil) }
                return LoadedTile(reference: loaded.reference, blob: blob)
            }, { $0 })
    }
}

/// One tile's quadtree, read in place from its blob (which its `AreaIndex` keeps alive).
///
/// Laid out for few cache misses per lookup, which is what a lookup's time is: the root reference
/// lives in this struct (read anyway), and each leaf's entries and chains sit together in one record.
///
/// Blob layout (little-endian u32 unless noted): nodeCount, recordWords, vertexCount, then
/// nodes[nodeCount] (node 0 is the root), leaf records[recordWords], padding to 8 bytes, then
/// vertices[vertexCount × (x, y) as f64]. A leaf reference's payload is the offset of its record in
/// words. A record is entryCount, then per entry (one polygon): feature, centreInside, chainCount and
/// chainCount × (vertexStart, vertexCount): runs of consecutive border vertices in `vertices`.
@usableFromInline struct AreaTile {
    let root: UInt32
    let nodes: UnsafePointer<UInt32>
    let records: UnsafePointer<UInt32>
    let vertices: UnsafePointer<Double>

    /// A tile whose blob `validate` accepted when it was read.
    @inline(__always) package init(checkedBase base: UnsafeRawPointer) {
        let nodeCount = Int(base.load(fromByteOffset: 0, as: UInt32.self))
        let recordWords = Int(base.load(fromByteOffset: 4, as: UInt32.self))
        nodes = AreaTile.nodes(atBase: base)
        records = nodes + nodeCount
        vertices = (base + ((12 + (nodeCount + recordWords) * 4 + 7) & ~7)).assumingMemoryBound(to: Double.self)
        root = nodes[0]
    }

    @inlinable @inline(__always) static func nodes(atBase base: UnsafeRawPointer) -> UnsafePointer<UInt32> {
        (base + 12).assumingMemoryBound(to: UInt32.self)
    }

    @inlinable @inline(__always) static func root(atBase base: UnsafeRawPointer) -> UInt32 { nodes(atBase: base)[0] }

    /// The x of a leaf record's first vertex (0 for a record without one): reading it early brings
    /// the record and its vertices into the cache.
    @inline(__always) func firstVertexX(ofRecord record: Int) -> Double {
        let words = records + record
        // entryCount, then the first entry's feature, inside and chainCount, then its first vertexStart.
        guard words[0] > 0, words[3] > 0 else { return 0 }
        return vertices[Int(words[4]) * 2]
    }

    /// Checks that a blob's header matches its size (blobs start 16-byte aligned).
    static func validate(_ blob: UnsafeRawBufferPointer) throws {
        guard blob.count >= 12, let base = blob.baseAddress else { throw IndexFormatError.malformed("tile header") }
        let nodeCount = Int(base.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        let recordWords = Int(base.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let vertexCount = Int(base.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        guard nodeCount > 0, ((12 + (nodeCount + recordWords) * 4 + 7) & ~7) + vertexCount * 16 == blob.count else {
            throw IndexFormatError.malformed("tile size")
        }
    }

    /// The node the quadtree's descent ends at for (x, y) in the tile whose south-west corner is (minX, minY), and
    /// that node's cell: a uniform node, a leaf (its record and the cell's reference point answer the crossing
    /// test), or an empty one.
    @inline(__always)
    func descend(x: Double, y: Double, minX: Double, minY: Double) -> (ref: UInt32, cellX: Double, cellY: Double, size: Double) {
        var cellX = minX, cellY = minY, size = 1.0
        var ref = root
        while AreaIndex.tag(ref) == AreaIndex.Tag.internalNode.rawValue {
            size *= 0.5
            var quadrant = 0
            if x >= cellX + size {
                quadrant |= 1
                cellX += size
            }
            if y >= cellY + size {
                quadrant |= 2
                cellY += size
            }
            ref = nodes[Int(AreaIndex.payload(ref)) + quadrant]
        }
        return (ref, cellX, cellY, size)
    }

    @inline(__always)
    func featureIndex(x: Double, y: Double, minX: Double, minY: Double) -> Int? {
        let (ref, cellX, cellY, size) = descend(x: x, y: y, minX: minX, minY: minY)
        switch AreaIndex.tag(ref) {
        case AreaIndex.Tag.uniform.rawValue: return Int(AreaIndex.payload(ref))
        case AreaIndex.Tag.leafOrTile.rawValue:
            return leafFeature(
                Int(AreaIndex.payload(ref)),
                centreX: cellX + size * AreaIndex.referenceFractionX, centreY: cellY + size * AreaIndex.referenceFractionY,
                x: x, y: y)
        default: return nil
        }
    }

    /// The first polygon of the leaf's record that contains (x, y): each one's state at the reference point c,
    /// toggled by every border segment that `pathCrossesSegment` says crosses the path c→(x, y). A vertex's
    /// side of that path is worked out once for the two segments it ends, and only a segment whose ends lie on
    /// either side (a few a chain) pays for the rest of the test, out of line: inlined, the optimiser worked it
    /// out for every segment, two at a time, to save the branch.
    @inline(__always)
    func leafFeature(_ record: Int, centreX cx: Double, centreY cy: Double, x: Double, y: Double) -> Int? {
        let dx = x - cx, dy = y - cy
        var cursor = records + record
        let entryCount = Int(cursor[0])
        cursor += 1
        for _ in 0..<entryCount {
            let feature = cursor[0]
            var inside = cursor[1] != 0
            let chainCount = Int(cursor[2])
            cursor += 3
            for _ in 0..<chainCount {
                let first = Int(cursor[0]), count = Int(cursor[1])
                cursor += 2
                var v = vertices + first * 2
                let end = v + count * 2
                var left = vertexLeftOfPath(cx, cy, dx, dy, v[0], v[1])
                v += 2
                while v < end {
                    // The run of vertices on the side of the one before: each costs its side and one branch.
                    if left {
                        while v < end, vertexLeftOfPath(cx, cy, dx, dy, v[0], v[1]) { v += 2 }
                    } else {
                        while v < end, !vertexLeftOfPath(cx, cy, dx, dy, v[0], v[1]) { v += 2 }
                    }
                    guard v < end else { break }
                    // The segment ending at v has its ends on either side of the path's line.
                    if AreaTile.separates(cx, cy, x, y, segmentEndingAt: v) { inside.toggle() }
                    left.toggle()
                    v += 2
                }
            }
            if inside { return Int(feature) }
        }
        return nil
    }

    /// `segmentSeparates` for the segment from the vertex before `end` to `end`.
    @inline(never)
    static func separates(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double, segmentEndingAt end: UnsafePointer<Double>) -> Bool {
        segmentSeparates(cx, cy, x, y, end[-2], end[-1], end[0], end[1])
    }
}

/// The crossed tiles of one level in one allocation, each blob at a 16-byte boundary.
// @unchecked Sendable: one raw allocation, filled in init and only read afterwards.
// Public with package members, for `alignment`'s use in `AreaLookupLockstep.Level`'s inlinable hints.
public final class TileArena: @unchecked Sendable {
    @inlinable package static var alignment: Int { 16 }
    /// malloc's, so that growing it is `realloc`: a big block moves by remapping its pages, not by copying.
    package private(set) var base: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var used = 0
    /// Each appended tile's number and the byte offset of its blob, in the order appended.
    private(set) var offsets: [(tile: Int, offset: Int)] = []

    /// `capacity`: a first guess of the blobs' total size plus `alignment` per blob; it grows as needed.
    package init(capacity: Int) {
        // At least glibc's largest mmap threshold (32 MB), so that the block is a mapping of its own, which realloc
        // grows by remapping and which huge pages can back; only the pages written take memory.
        self.capacity = max(capacity, 32 << 20)
        // malloc's blocks are aligned for any scalar, 16 bytes on the platforms Swift runs on.
        guard let memory = malloc(self.capacity) else { fatalError("out of memory for \(self.capacity) bytes of area tiles") }
        base = memory
        adviseHugePages()
    }

    /// Huge pages past the first 2 MB, so that a small level's few tiles keep small pages.
    private func adviseHugePages() {
        guard capacity > HugePages.size else { return }
        HugePages.advise(base + HugePages.size, count: capacity - HugePages.size)
    }

    deinit { free(base) }

    package func append(tile: Int, bytes: UnsafeRawBufferPointer) throws {
        try AreaTile.validate(bytes)
        guard let source = bytes.baseAddress else { throw IndexFormatError.malformed("area tiles too large") }
        try append(tile: tile, count: bytes.count) { $0.baseAddress?.copyMemory(from: source, byteCount: bytes.count) }
    }

    /// Appends a tile of `count` bytes that `fill` writes in place (`PageCompression.page(_:into:)` inflating it
    /// straight into the arena); a tile that `fill` or the layout check rejects is not kept.
    package func append(tile: Int, count: Int, fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws {
        let offset = (used + Self.alignment - 1) & ~(Self.alignment - 1)
        guard offset / Self.alignment < 1 << 30 else { throw IndexFormatError.malformed("area tiles too large") }
        if offset + count > capacity { grow(toHold: offset + count) }
        let destination = UnsafeMutableRawBufferPointer(start: base + offset, count: count)
        try fill(destination)
        try AreaTile.validate(UnsafeRawBufferPointer(destination))
        offsets.append((tile, offset))
        used = offset + count
    }

    private func grow(toHold size: Int) {
        let newCapacity = max(size, capacity * 2)
        guard let memory = realloc(base, newCapacity) else { fatalError("out of memory for \(newCapacity) bytes of area tiles") }
        base = memory
        capacity = newCapacity
        adviseHugePages()
    }
}
