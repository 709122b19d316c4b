import Foundation
import Travel411Core

/// Nearest-point and catchment lookups over the localities on the sphere (postcodes and addresses are
/// in `PointTiles`).
///
/// Points live on the unit sphere as (x, y, z), so straight-line (chord) distance orders exactly like
/// great-circle distance, and nothing special happens at the antimeridian or the poles. The tree is an
/// implicit, balanced k-d tree: the median of each index range is its node, so it needs no pointers.
///
/// It is stored in pages so that one lookup reads only what it visits: the nodes of the top levels
/// sit in one small blob, numbered like a binary heap (children of t are 2t+1 and 2t+2); every
/// subtree of at most `pageSize` points below them is a page of its own, keyed by its heap number.
/// Each node blob is struct-of-arrays: coordinates, record ids, split axes and, for localities, the
/// packed country and a group (the admin polygon) that searches can filter on.
// @unchecked Sendable: raw pointers into its top blob, fixed at init; the pages' node views live in
// LazySlots, filled once each by whichever thread first reads them.
public final class PointIndex: @unchecked Sendable {
    public let count: Int
    private let top: NodeArrays
    private let topKinds: UnsafePointer<UInt8>
    /// Per top slot: its subtree's bounding box, min x, y, z then max x, y, z.
    private let topBoxes: UnsafePointer<Double>
    private let topStorage: BlobStorage
    private let pages: PagedBlobs
    /// Node views of the pages read so far, by heap number.
    private let nodePages: LazySlots<NodePage>
    private let hasGroups: Bool
    /// Where searches for the nearest point anywhere start their bound, per 1° tile.
    let tileHints = TileNearestHints()

    package enum SlotKind: UInt8 { case none = 0, node = 1, page = 2 }

    /// One page's node views at a fixed address, so that a walk reads them through a bare pointer
    /// (the page keeps its blob alive).
    // @unchecked Sendable: one raw allocation, written in init and only read afterwards.
    final class NodePage: @unchecked Sendable {
        let arrays: UnsafeMutablePointer<NodeArrays>
        private let storage: BlobStorage

        init(_ storage: BlobStorage) throws {
            let views = try NodeArrays(storage)
            arrays = .allocate(capacity: 1)
            arrays.initialize(to: views)
            self.storage = storage
        }

        deinit { arrays.deallocate() }
    }

    /// Typed views of one node blob (the top slots or one page).
    struct NodeArrays {
        let coordinates: UnsafePointer<Double>  // x, y, z per node
        let ids: UnsafePointer<UInt32>
        let axes: UnsafePointer<UInt8>
        let country: UnsafePointer<UInt16>  // ISO alpha-2 packed, 0 when unknown
        let group: UnsafePointer<UInt32>  // caller's grouping (localities: admin polygon + 1), 0 when none
        /// Where the arrays end in the blob (the top blob stores subtree boxes after them).
        let endOffset: Int

        /// Layout: u32 count, u32 hasGroups, then arrays of `count`: f64×3 coordinates, u32 ids,
        /// u8 axes (padded to 4), and for localities u16 country (padded to 4), u32 group.
        init(_ storage: BlobStorage, headerBytes: Int = 8) throws {
            guard storage.count >= headerBytes else { throw IndexFormatError.malformed("point page header") }
            let count = Int(storage.u32(at: 0)), withGroups = storage.u32(at: 4) != 0
            var offset = headerBytes
            func take(_ bytes: Int, align: Int) -> Int {
                offset = (offset + align - 1) & ~(align - 1)
                defer { offset += bytes }
                return offset
            }
            let c = take(count * 24, align: 8), i = take(count * 4, align: 4), a = take(count, align: 1)
            // Without locality data those arrays alias the ids: never read, never out of bounds.
            let k = withGroups ? take(count * 2, align: 4) : i
            let g = withGroups ? take(count * 4, align: 4) : i
            guard offset <= storage.count else { throw IndexFormatError.malformed("point page size") }
            endOffset = offset
            coordinates = storage.pointer(at: c, as: Double.self)
            ids = storage.pointer(at: i, as: UInt32.self)
            axes = storage.pointer(at: a, as: UInt8.self)
            country = storage.pointer(at: k, as: UInt16.self)
            group = storage.pointer(at: g, as: UInt32.self)
        }
    }

    /// `topBlob` holds the top slots (u32 slotCount and u32 hasGroups, u32 pointCount, u32 pad, then
    /// u8 kinds[slotCount] padded to 8, then the node arrays); `pages` yields page blobs by heap number.
    package init(topBlob: BlobStorage, pages: PagedBlobs) throws {
        guard topBlob.count >= 16 else { throw IndexFormatError.malformed("point index header") }
        let slots = Int(topBlob.u32(at: 0))
        hasGroups = topBlob.u32(at: 4) != 0
        count = Int(topBlob.u32(at: 8))
        let arraysStart = (16 + slots + 7) & ~7
        guard arraysStart <= topBlob.count else { throw IndexFormatError.malformed("point index size") }
        topKinds = topBlob.pointer(at: 16, as: UInt8.self)
        // The node arrays of the top blob start after the kinds; reuse the page reader by pretending
        // the header is that long (its first two words are the same count and flag).
        top = try NodeArrays(topBlob, headerBytes: arraysStart)
        let boxesStart = (top.endOffset + 7) & ~7
        guard boxesStart + slots * 48 <= topBlob.count else { throw IndexFormatError.malformed("point index boxes") }
        topBoxes = topBlob.pointer(at: boxesStart, as: Double.self)
        topStorage = topBlob
        self.pages = pages
        nodePages = LazySlots(count: pages.count)
        if pages.isPreloaded {
            for number in 0..<pages.count {
                if let page = pages[number].flatMap({ try? NodePage($0) }) { nodePages.fill(number, with: page) }
            }
        }
    }

    /// A point converted once per query.
    public struct Query {
        @usableFromInline let x: Double, y: Double, z: Double
        /// The cosine of the latitude in radians, whose sine is `z`: the distance and bearing to the nearest
        /// place start from both.
        @usableFromInline package let cosLatitude: Double
        package var sinLatitude: Double { z }

        /// `unitVector(latitude:longitude:)`'s numbers, the cosine kept. Inlinable: the geocoder makes one or
        /// two a point.
        @inlinable public init(_ coordinate: Coordinate) {
            let φ = coordinate.latitude * .pi / 180, λ = coordinate.longitude * .pi / 180
            let (sinφ, c) = sineAndCosine(φ), (sinλ, cosλ) = sineAndCosine(λ)
            (x, y, z, cosLatitude) = (c * cosλ, c * sinλ, sinφ, c)
        }
        @inline(__always) subscript(axis: Int) -> Double { axis == 0 ? x : (axis == 1 ? y : z) }
    }

    @inline(__always) package static func unitVector(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let φ = latitude * .pi / 180, λ = longitude * .pi / 180
        let (sinφ, c) = sineAndCosine(φ), (sinλ, cosλ) = sineAndCosine(λ)
        return (c * cosλ, c * sinλ, sinφ)
    }

    /// Chord length on the unit sphere for a great-circle distance in metres.
    public static func chord(metres: Double) -> Double {
        2 * sin(min(metres, .pi * GreatCircle.earthRadiusMetres) / (2 * GreatCircle.earthRadiusMetres))
    }

    /// Where the node for index range [lo, hi) with heap number t lives: the top slots, or a page.
    /// Sixteen bytes, so the recursion passes it cheaply.
    private struct Cursor {
        var arrays: UnsafePointer<NodeArrays>
        var base: Int  // subtract from a global index to index the page; -1 while in the top slots
    }

    @inline(__always) private func enter(_ cursor: Cursor, _ t: Int, lo: Int) -> Cursor? {
        guard cursor.base < 0 else { return cursor }
        switch topKinds[t] {
        case SlotKind.node.rawValue: return cursor
        case SlotKind.page.rawValue:
            let pages = self.pages
            guard let arrays = nodePages.withValue(at: t, orMake: { pages[t].flatMap { try? NodePage($0) } }, { $0.arrays })
            else { return nil }
            return Cursor(arrays: UnsafePointer(arrays), base: lo)
        default: return nil
        }
    }

    /// Squared distance from the query to top slot t's subtree box (0 inside it).
    @inline(__always) private func squaredDistanceToBox(_ q: Query, _ t: Int) -> Double {
        let box = topBoxes + t * 6
        let dx = max(box[0] - q.x, 0, q.x - box[3])
        let dy = max(box[1] - q.y, 0, q.y - box[4])
        let dz = max(box[2] - q.z, 0, q.z - box[5])
        return dx * dx + dy * dy + dz * dz
    }

    /// The index of range [lo, hi)'s node within `cursor`'s arrays.
    @inline(__always) private func slot(_ cursor: Cursor, _ t: Int, mid: Int) -> Int {
        cursor.base < 0 ? t : mid - cursor.base
    }

    @inline(__always) private func squaredChord(_ q: Query, _ a: UnsafePointer<NodeArrays>, _ i: Int) -> Double {
        let p = a.pointee.coordinates + i * 3
        let dx = q.x - p[0], dy = q.y - p[1], dz = q.z - p[2]
        return dx * dx + dy * dy + dz * dz
    }

    /// Which points a nearest search may answer with.
    public struct NearestFilter: PointFilter {
        /// Only points of this group (0: any).
        public var group: UInt32 = 0
        /// Only points of this packed country (0: any).
        public var country: UInt16 = 0
        /// Never this record.
        public var excluded: UInt32 = .max

        public init(group: UInt32 = 0, country: UInt16 = 0, excluded: UInt32 = .max) {
            self.group = group
            self.country = country
            self.excluded = excluded
        }

        @inline(__always) public func accepts(id: UInt32, group: UInt32, country: UInt16) -> Bool {
            id != excluded && (self.group == 0 || group == self.group) && (self.country == 0 || country == self.country)
        }
    }

    /// The nearest point within `maxChord` that `filter` accepts, with its group. Equal distances go to
    /// the lower id, so the answer never depends on the tree's layout.
    public func nearest<Filter: PointFilter>(to q: Query, maxChord: Double = 2.0001, filter: Filter) -> (
        id: UInt32, group: UInt32
    )? {
        search(q, maxChord, filter)
    }

    /// `nearest(to:maxChord:filter:)` with the standard filter, specialised in this target: a caller in another
    /// target cannot specialise this target's generics, and the unspecialised search took a fifth of a batch.
    public func nearest(to q: Query, maxChord: Double = 2.0001, filter: NearestFilter = NearestFilter()) -> (
        id: UInt32, group: UInt32
    )? {
        search(q, maxChord, filter)
    }

    @inline(__always) private func search<Filter: PointFilter>(_ q: Query, _ maxChord: Double, _ filter: Filter) -> (
        id: UInt32, group: UInt32
    )? {
        guard count > 0 else { return nil }
        var search = NearestSearch(query: q, filter: filter, bestDistance: maxChord * maxChord)
        withUnsafePointer(to: top) { top in
            nearest(&search, Cursor(arrays: top, base: -1), 0, count, 0)
        }
        return search.best.map { ($0, search.bestGroup) }
    }

    /// The nearest point anywhere, as `nearest(to:)` answers it, its search bounded from the start by the
    /// point nearest to the centre of the coordinate's 1° tile (`TileNearestHints`): far from every point,
    /// the unbounded search backtracked through much of the tree.
    ///
    /// In a tile whose every query has one nearest point (`NearestTileProof`, tried at the tile's second search
    /// when the whole tree is in memory), that point answers without a search: the open sea's tiles mostly.
    package func nearestAnywhere(to q: Query, at coordinate: Coordinate) -> (id: UInt32, group: UInt32)? {
        guard count > 0 else { return nil }
        let (tile, centre) = TileNearestHints.tile(of: coordinate)
        let inTile = NearestTileProof.isInWorld(coordinate)
        if inTile, let proven = tileHints.provenNearest(ofTile: tile) { return proven }
        if inTile, let listed = tileHints.listedCandidates(ofTile: tile) { return listed.nearest(to: q) }
        var hint = tileHints.vector(ofTile: tile)
        if hint == nil {
            let centreQuery = Query(centre)
            var fromCentre = NearestSearch(query: centreQuery, filter: NearestFilter(), bestDistance: neighboursBound(tile, centreQuery))
            run(&fromCentre)
            if let p = fromCentre.bestCoordinates, let best = fromCentre.best {
                hint = (p[0], p[1], p[2])
                tileHints.keep((p[0], p[1], p[2]), of: (best, fromCentre.bestGroup), ofTile: tile)
            }
        } else if pages.isPreloaded, let claimed = tileHints.claimProof(ofTile: tile) {
            // Only with every page in memory: a single lookup reads no more pages than its own search's.
            let (proven, candidates) = nearestThroughout(claimed.id, at: claimed.vector, tile: tile, centre: Query(centre))
            tileHints.finishProof(ofTile: tile, proven: proven, candidates: candidates)
            if proven, inTile { return (claimed.id, claimed.group) }
            if let candidates, inTile { return candidates.nearest(to: q) }
        }
        var bound = 2.0001 * 2.0001
        if let (x, y, z) = hint {
            let dx = q.x - x, dy = q.y - y, dz = q.z - z
            // A hair wider than the hint's own distance: the hint is still within it, however it rounds.
            bound = min(bound, (dx * dx + dy * dy + dz * dz) * (1 + 1e-9) + 1e-18)
        }
        var search = NearestSearch(query: q, filter: NearestFilter(), bestDistance: bound)
        run(&search)
        return search.best.map { ($0, search.bestGroup) }
    }

    /// A bound for the search from a tile's centre: the squared chord to the nearest of the points kept by the tiles
    /// around it, a hair wider, as the search from a query is bounded by its tile's; without one, the whole sphere.
    /// Far from every point, the centre's search was a tenth of an every-field batch's tree work: bounded, it skips
    /// the subtrees beyond a point known to exist, and finds the same point (the lower id among equal distances).
    private func neighboursBound(_ tile: Int, _ q: Query) -> Double {
        var bound = 2.0001 * 2.0001
        let row = tile / 360, column = tile % 360
        for neighbourRow in max(0, row - 1)...min(179, row + 1) {
            for step in -1...1 {
                guard let (x, y, z) = tileHints.vector(ofTile: neighbourRow * 360 + (column + step + 360) % 360) else { continue }
                let dx = q.x - x, dy = q.y - y, dz = q.z - z
                bound = min(bound, (dx * dx + dy * dy + dz * dz) * (1 + 1e-9) + 1e-18)
            }
        }
        return bound
    }

    /// Whether `nearest` (at `vector`, the point nearest to the tile's centre) is the nearest point of every
    /// query of the 1° tile `tile` (`NearestTileProof`); when it is not, the points that can be
    /// (`NearestTileCandidates`), if they are few.
    private func nearestThroughout(_ nearest: UInt32, at vector: NearestTileProof.Vector, tile: Int, centre: Query) -> (
        proven: Bool, candidates: NearestTileCandidates?
    ) {
        let cap = NearestTileProof.Cap(row: tile / 360, column: tile % 360)
        let (dx, dy, dz) = (centre.x - vector.x, centre.y - vector.y, centre.z - vector.z)
        let reach = cap.reach(nearestChord: (dx * dx + dy * dy + dz * dz).squareRoot())
        var within = WithinSearch(query: centre, squaredReach: reach * reach)
        withUnsafePointer(to: top) { top in collect(&within, Cursor(arrays: top, base: -1), 0, count, 0) }
        guard !within.overflowed else { return (false, nil) }
        if within.found.count <= NearestTileProof.reachLimit,
            within.found.allSatisfy({ $0.id == nearest || cap.isNearer(vector, than: $0.vector) })
        {
            return (true, nil)
        }
        return (false, NearestTileCandidates(within.found, centre: (centre.x, centre.y, centre.z)))
    }

    /// The points within a reach of a query, up to `NearestTileProof.candidateLimit` of them.
    private struct WithinSearch {
        let query: Query
        let squaredReach: Double
        var found: [(id: UInt32, group: UInt32, vector: NearestTileProof.Vector)] = []
        var overflowed = false
    }

    private func collect(_ search: inout WithinSearch, _ outer: Cursor, _ lo: Int, _ hi: Int, _ t: Int) {
        if hi <= lo || search.overflowed { return }
        if outer.base < 0, squaredDistanceToBox(search.query, t) > search.squaredReach { return }
        guard let cursor = enter(outer, t, lo: lo) else { return }
        let mid = (lo + hi) >> 1
        let i = slot(cursor, t, mid: mid)
        let a = cursor.arrays
        let q = search.query
        if squaredChord(q, a, i) <= search.squaredReach {
            guard search.found.count < NearestTileProof.candidateLimit else {
                search.overflowed = true
                return
            }
            let p = a.pointee.coordinates + i * 3
            search.found.append((a.pointee.ids[i], hasGroups ? a.pointee.group[i] : 0, (p[0], p[1], p[2])))
        }
        if hi - lo == 1 { return }
        let axis = Int(a.pointee.axes[i])
        let diff = q[axis] - a.pointee.coordinates[i * 3 + axis]
        // The same sides as the nearest search visits with a best distance of the reach.
        if diff < 0 || diff * diff <= search.squaredReach { collect(&search, cursor, lo, mid, 2 * t + 1) }
        if diff >= 0 || diff * diff <= search.squaredReach { collect(&search, cursor, mid + 1, hi, 2 * t + 2) }
    }

    private func run<Filter: PointFilter>(_ search: inout NearestSearch<Filter>) {
        withUnsafePointer(to: top) { top in
            nearest(&search, Cursor(arrays: top, base: -1), 0, count, 0)
        }
    }

    private struct NearestSearch<Filter: PointFilter> {
        let query: Query
        let filter: Filter
        var best: UInt32? = nil
        var bestGroup: UInt32 = 0
        var bestDistance: Double
        /// The best point's x, y, z in its node arrays.
        var bestCoordinates: UnsafePointer<Double>? = nil
    }

    private func nearest<Filter: PointFilter>(_ search: inout NearestSearch<Filter>, _ outer: Cursor, _ lo: Int, _ hi: Int, _ t: Int) {
        if hi <= lo { return }
        // In the top levels, a subtree whose box is farther than the best so far is skipped unread.
        if outer.base < 0, squaredDistanceToBox(search.query, t) > search.bestDistance { return }
        guard let cursor = enter(outer, t, lo: lo) else { return }
        let mid = (lo + hi) >> 1
        let i = slot(cursor, t, mid: mid)
        let a = cursor.arrays
        let q = search.query
        let d = squaredChord(q, a, i)
        if d <= search.bestDistance {
            let id = a.pointee.ids[i]
            let group = hasGroups ? a.pointee.group[i] : 0
            let country = hasGroups ? a.pointee.country[i] : 0
            if d < search.bestDistance || search.best.map({ id < $0 }) ?? true,
                search.filter.accepts(id: id, group: group, country: country)
            {
                search.bestDistance = d
                search.best = id
                search.bestGroup = group
                search.bestCoordinates = a.pointee.coordinates + i * 3
            }
        }
        if hi - lo == 1 { return }
        let axis = Int(a.pointee.axes[i])
        let diff = q[axis] - a.pointee.coordinates[i * 3 + axis]
        if diff < 0 {
            nearest(&search, cursor, lo, mid, 2 * t + 1)
            if diff * diff <= search.bestDistance { nearest(&search, cursor, mid + 1, hi, 2 * t + 2) }
        } else {
            nearest(&search, cursor, mid + 1, hi, 2 * t + 2)
            if diff * diff <= search.bestDistance { nearest(&search, cursor, lo, mid, 2 * t + 1) }
        }
    }

    /// Two ASCII letters as one number, for cheap country comparisons.
    public static func packCountry(_ code: String?) -> UInt16 {
        guard let code else { return 0 }
        let bytes = Array(code.utf8)
        guard bytes.count == 2 else { return 0 }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }
}

/// Decides which points a nearest search may answer with; a struct, so searches specialise on it.
public protocol PointFilter {
    func accepts(id: UInt32, group: UInt32, country: UInt16) -> Bool
}

/// A filter by record id through a closure, for the rare searches that need more than group and country.
struct ClosureFilter: PointFilter {
    let accept: (UInt32) -> Bool
    @inline(__always) func accepts(id: UInt32, group: UInt32, country: UInt16) -> Bool { accept(id) }
}
