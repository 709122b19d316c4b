import Foundation
import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// An area level's tiles kept in a temporary file while the import looks points up in the level (the country of
/// each OpenStreetMap object, the country and admin polygon of each locality), read back a tile at a time.
///
/// An `AreaIndex` built whole holds every tile's quadtree: the country polygons of 2,400 copies of Liechtenstein
/// made 0.25 GB of them, held two and three times over (the builder's output, the index's arena) at the import's
/// peak, growing with the extract. Here memory is the tiles' references (a number per 1° tile) and the tiles
/// read since the last `lookupBudgetBytes`, whatever the level's size; the answers are the index's own (the same
/// tiles, read by `AreaIndex`'s lazy path).
///
/// As `OSMSpillFile`, the file is unlinked as soon as it is created: however the import ends, nothing is left.
final class SpilledAreaTiles: @unchecked Sendable {
    private let file: UnlinkedAppendFile
    private var references = [UInt32](repeating: AreaIndex.ref(.empty, 0), count: AreaIndex.columns * AreaIndex.rows)
    /// Where each crossed tile's quadtree lies in the file.
    private var blobs: [Int: (offset: Int64, count: Int)] = [:]
    /// The first failure to read a tile back (a lookup cannot throw); `checkReads` throws it.
    private var failure: (any Error)?
    /// Guards `failure`: `AreaIndex` may read tiles on several threads at once.
    private let failureLock = NSLock()

    /// `path`: where the file is created (beside the database being built, so that it uses that disk).
    init(path: String) throws {
        file = try UnlinkedAppendFile(path: path)
    }

    /// The builder's tiles, each also handed to `store` (the database's table) when given.
    static func build(
        _ builder: AreaIndexBuilder, path: String, store: ((_ tile: Int, _ reference: UInt32, _ blob: [UInt8]?) throws -> Void)? = nil
    ) throws -> SpilledAreaTiles {
        let tiles = try SpilledAreaTiles(path: path)
        try builder.build { tile, reference, blob in
            try store?(tile, reference, blob)
            try tiles.add(tile: tile, reference: reference, blob: blob)
        }
        return tiles
    }

    func add(tile: Int, reference: UInt32, blob: [UInt8]?) throws {
        guard tile >= 0, tile < references.count else { throw ImportError("\(file.path): area tile \(tile) outside the grid") }
        references[tile] = reference
        guard let blob, !blob.isEmpty else { return }
        blobs[tile] = (try blob.withUnsafeBytes { try file.append($0) }, blob.count)
    }

    /// A lookup reading the tiles back as points need them, holding at most about `budgetBytes` of them.
    func lookup(budgetBytes: Int = 32 << 20) -> TiledAreaLookup {
        TiledAreaLookup(budgetBytes: budgetBytes) { [self] tile in (references[tile], try blob(of: tile)) }
    }

    /// Throws the first failure to read a tile back.
    func checkReads() throws {
        if let failure = failureLock.withLock({ failure }) { throw failure }
    }

    private func blob(of tile: Int) throws -> BlobStorage? {
        guard let (offset, count) = blobs[tile] else { return nil }
        do {
            return try BlobStorage(count: count) { buffer in try file.read(into: buffer, count: count, at: offset) }
        } catch {
            failureLock.withLock { if failure == nil { failure = error } }
            throw error
        }
    }
}

/// What looks a point up in an area level: an `AreaIndex` in memory, or one read by tile (`TiledAreaLookup`).
protocol AreaFeatureLookup {
    /// The first polygon of the level (in import order) holding the point.
    func featureIndex(longitude: Double, latitude: Double) -> Int?
}

extension AreaIndex: AreaFeatureLookup {}

/// Looks points up in a level whose tiles are read on demand (`SpilledAreaTiles`): once the tiles read pass the
/// budget, they are all let go and read again as needed. Points that come in order of place (an extract's
/// objects, localities sorted by tile) read each tile about once. Safe to use from several threads at once (the
/// tests do), as `AreaIndex` is: the count and the index's replacement are behind a lock.
final class TiledAreaLookup: AreaFeatureLookup, @unchecked Sendable {
    /// What the tiles read since the last replacement hold, counted by the loader (which `AreaIndex` calls on any
    /// thread).
    private final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var bytes = 0

        func add(_ count: Int) { lock.withLock { bytes += count } }

        /// Whether the budget is spent; if so, the count starts again.
        func spent(_ budget: Int) -> Bool {
            lock.withLock {
                guard bytes > budget else { return false }
                bytes = 0
                return true
            }
        }
    }

    private let budgetBytes: Int
    private let loader: @Sendable (Int) throws -> (reference: UInt32, blob: BlobStorage?)
    private let counter: Counter
    private var index: AreaIndex
    private let indexLock = NSLock()

    init(budgetBytes: Int, loader: @escaping @Sendable (Int) throws -> (reference: UInt32, blob: BlobStorage?)) {
        self.budgetBytes = budgetBytes
        let counter = Counter()
        self.counter = counter
        self.loader = { tile in
            let loaded = try loader(tile)
            counter.add(loaded.blob?.count ?? 0)
            return loaded
        }
        index = AreaIndex(tileLoader: self.loader)
    }

    /// The first polygon of the level (in import order) holding the point, as `AreaIndex.featureIndex`.
    func featureIndex(longitude: Double, latitude: Double) -> Int? {
        let current = indexLock.withLock {
            if counter.spent(budgetBytes) { index = AreaIndex(tileLoader: loader) }
            return index
        }
        return current.featureIndex(longitude: longitude, latitude: latitude)
    }
}
