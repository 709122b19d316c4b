import Foundation

/// Point-in-polygon lookup for one area level (countries, admin areas, time zones, water, …).
///
/// The world is cut into 1° tiles. A tile that no border crosses stores its polygon id in a flat grid.
/// A tile that a border crosses stores a small quadtree whose leaves hold at most a few border
/// segments, each with the inside/outside state of the leaf's centre for every polygon there. A lookup
/// then decides containment by counting crossings between the leaf centre and the point: it never
/// touches more than a handful of vertices, however big the polygon (Russia, Canada, Antarctica).
public final class AreaIndex: @unchecked Sendable {
    static let columns = 360
    static let rows = 180

    /// A reference in the grid or a tile's node array: low 2 bits tag, high 30 bits payload.
    enum Tag: UInt32 {
        case empty = 0, uniform = 1, internalNode = 2, leafOrTile = 3
    }

    @inline(__always) static func tag(_ ref: UInt32) -> UInt32 { ref & 3 }
    @inline(__always) static func payload(_ ref: UInt32) -> UInt32 { ref >> 2 }
    @inline(__always) static func ref(_ tag: Tag, _ payload: UInt32) -> UInt32 { payload << 2 | tag.rawValue }

    /// Where in a cell its reference point lies, as a fraction of the cell's size. Just off the centre,
    /// so that no real vertex (data often has coordinates like 4.5) sits exactly on a reference point,
    /// which would make the recorded inside/outside state ambiguous.
    static let referenceFractionX = 0.5 + 1.234_567_89e-4
    static let referenceFractionY = 0.5 + 9.876_543_21e-5

    /// Keeps points on the edge of the world inside it: 180° lies on the east edge of the last tile,
    /// which is the border of polygons that end there, so step a hair (0.1 mm) inside.
    @inline(__always) static func clampedToWorld(_ x: Double, _ y: Double) -> (Double, Double) {
        (min(max(x, -180 + 1e-9), 180 - 1e-9), min(max(y, -90 + 1e-9), 90 - 1e-9))
    }

    /// Every tile's reference when all were read up front; otherwise references read one by one.
    /// A crossed tile's reference points into `tiles`, which holds only the tiles in memory.
    private let grid: UnsafeMutablePointer<UInt32>?
    /// Preloaded tiles as bare pointers, so that many threads read them without reference counting.
    private let preloadedTiles: UnsafeMutablePointer<AreaTile>?
    private var tiles: [AreaTile] = []
    /// Keeps the tiles' memory alive; `AreaTile` holds bare pointers so that lookups do no reference counting.
    private var tileStorage: [BlobStorage] = []
    private var lazyReferences: [Int: UInt32] = [:]
    private let tileLoader: ((Int) throws -> (reference: UInt32, blob: BlobStorage?))?

    /// Every tile in memory (batches, where many threads read at once). `grid` holds the stored
    /// references, whose crossed tiles name their blob in `blobs`.
    init(grid stored: [UInt32], blobs: [Int: BlobStorage]) throws {
        guard stored.count == AreaIndex.columns * AreaIndex.rows else { throw IndexFormatError.malformed("area grid size") }
        var grid = stored
        var tiles: [AreaTile] = []
        for (index, reference) in stored.enumerated() where AreaIndex.tag(reference) == Tag.leafOrTile.rawValue {
            guard let blob = blobs[index] else { throw IndexFormatError.malformed("missing tile \(index)") }
            grid[index] = AreaIndex.ref(.leafOrTile, UInt32(tiles.count))
            tiles.append(try AreaTile(storage: blob))
            tileStorage.append(blob)
        }
        let gridMemory = UnsafeMutablePointer<UInt32>.allocate(capacity: grid.count)
        gridMemory.initialize(from: grid, count: grid.count)
        let tileMemory = UnsafeMutablePointer<AreaTile>.allocate(capacity: max(tiles.count, 1))
        tileMemory.initialize(from: tiles, count: tiles.count)
        self.grid = gridMemory
        preloadedTiles = tileMemory
        tileLoader = nil
    }

    deinit {
        grid?.deallocate()
        preloadedTiles?.deallocate()
    }

    /// Tiles read when first touched (a single lookup reads one tile per level). Not thread-safe.
    init(tileLoader: @escaping (Int) throws -> (reference: UInt32, blob: BlobStorage?)) {
        grid = nil
        preloadedTiles = nil
        self.tileLoader = tileLoader
    }

    /// The index of the first polygon (in import order) that contains the point, or nil.
    @inline(__always)
    public func featureIndex(longitude: Double, latitude: Double) -> Int? {
        let (x, y) = AreaIndex.clampedToWorld(longitude, latitude)
        let column = min(AreaIndex.columns - 1, max(0, Int((x + 180).rounded(.down))))
        let row = min(AreaIndex.rows - 1, max(0, Int((y + 90).rounded(.down))))
        let tileIndex = row * AreaIndex.columns + column
        let ref = grid?[tileIndex] ?? lazyReference(tileIndex)
        switch AreaIndex.tag(ref) {
        case Tag.uniform.rawValue: return Int(AreaIndex.payload(ref))
        case Tag.leafOrTile.rawValue:
            let tile = preloadedTiles?[Int(AreaIndex.payload(ref))] ?? tiles[Int(AreaIndex.payload(ref))]
            return tile.featureIndex(x: x, y: y, minX: Double(column) - 180, minY: Double(row) - 90)
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
                if AreaIndex.tag(grid?[tile] ?? lazyReference(tile)) != Tag.empty.rawValue { return true }
            }
        }
        return false
    }

    private func lazyReference(_ index: Int) -> UInt32 {
        if let known = lazyReferences[index] { return known }
        var reference = AreaIndex.ref(.empty, 0)
        if let tileLoader, let loaded = try? tileLoader(index) {
            reference = loaded.reference
            if AreaIndex.tag(reference) == Tag.leafOrTile.rawValue {
                if let blob = loaded.blob, let tile = try? AreaTile(storage: blob) {
                    reference = AreaIndex.ref(.leafOrTile, UInt32(tiles.count))
                    tiles.append(tile)
                    tileStorage.append(blob)
                } else {
                    reference = AreaIndex.ref(.empty, 0)
                }
            }
        }
        lazyReferences[index] = reference
        return reference
    }
}

extension AreaIndex {
    /// An index straight from a builder's output, every tile in memory.
    convenience init(built: AreaIndexBuilder.Output) throws {
        var blobs: [Int: BlobStorage] = [:]
        for tile in built.tiles { blobs[tile.index] = BlobStorage(bytes: tile.blob) }
        try self.init(grid: built.grid, blobs: blobs)
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
struct AreaTile {
    let root: UInt32
    let nodes: UnsafePointer<UInt32>
    let records: UnsafePointer<UInt32>
    let vertices: UnsafePointer<Double>

    init(storage: BlobStorage) throws {
        guard storage.count >= 12 else { throw IndexFormatError.malformed("tile header") }
        let nodeCount = Int(storage.u32(at: 0)), recordWords = Int(storage.u32(at: 4))
        let vertexCount = Int(storage.u32(at: 8))
        var offset = 12
        let nodeOffset = offset; offset += nodeCount * 4
        let recordOffset = offset; offset += recordWords * 4
        offset = (offset + 7) & ~7
        let vertexOffset = offset; offset += vertexCount * 16
        guard offset == storage.count, nodeCount > 0 else { throw IndexFormatError.malformed("tile size") }
        nodes = storage.pointer(at: nodeOffset, as: UInt32.self)
        records = storage.pointer(at: recordOffset, as: UInt32.self)
        vertices = storage.pointer(at: vertexOffset, as: Double.self)
        root = nodes[0]
    }

    @inline(__always)
    func featureIndex(x: Double, y: Double, minX: Double, minY: Double) -> Int? {
        var cellX = minX, cellY = minY, size = 1.0
        var ref = root
        while AreaIndex.tag(ref) == AreaIndex.Tag.internalNode.rawValue {
            size *= 0.5
            var quadrant = 0
            if x >= cellX + size { quadrant |= 1; cellX += size }
            if y >= cellY + size { quadrant |= 2; cellY += size }
            ref = nodes[Int(AreaIndex.payload(ref)) + quadrant]
        }
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

    @inline(__always)
    private func leafFeature(_ record: Int, centreX cx: Double, centreY cy: Double, x: Double, y: Double) -> Int? {
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
                var ax = v[0], ay = v[1]
                for _ in 1..<count {
                    v += 2
                    let bx = v[0], by = v[1]
                    if pathCrossesSegment(cx, cy, x, y, ax, ay, bx, by) { inside.toggle() }
                    ax = bx; ay = by
                }
            }
            if inside { return Int(feature) }
        }
        return nil
    }
}
