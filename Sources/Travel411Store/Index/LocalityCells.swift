import Foundation
import Travel411Core

/// The two locality questions a batch asks of nearly every point, answered from 0.1° cells rather
/// than by walking the k-d tree (whose nodes are a cache miss each, and were most of a batch's time):
///
/// - the catchment rule: the localities whose catchment disc may contain a point, listed per cell
///   most populous first, each flagged when it is a neighbourhood of a more populous one;
/// - nearest-place searches within a few kilometres (the locality fallback, the subLocality, the
///   nearest locality itself), from the localities that lie in the point's cell and the cells around it.
///
/// Stored as one blob per 1° tile: u32 candidateCount, u32 residentCount, then 101 u32 candidate
/// offsets and 101 u32 resident offsets (the entries of sub-cell k, row-major from the south-west,
/// are offsets[k]..<offsets[k+1]); then the candidates, 32 bytes each: unit vector x, y, z and
/// catchment radius as f32 (a chord), population u32, record id u32, packed country u16, flags u16
/// (`neighbourhoodFlag`: a neighbourhood of a more populous place, `NeighbourhoodRule`), first-level
/// area u32 (`FirstLevelAreas`, 0 unknown);
/// then, 8-aligned, the residents, 32 bytes each: unit vector x, y, z as f64 (the k-d tree's own
/// numbers, so distances and ties come out exactly as there), record id u32, packed country u16,
/// padding. Each place's group (admin polygon + 1, as in the tree) is in one separate blob of u32 by
/// record id: only the subLocality search filters on it, and the tiles stay as compact as the four
/// fields' batches want them.
// @unchecked Sendable: reads its blobs in place through raw pointers; never written after init.
package final class LocalityCells: @unchecked Sendable {
    package static let subdivisions = 10
    static let candidateStride = 32
    static let residentStride = 32
    static let tileCount = 360 * 180
    static let headerBytes = 8 + 2 * 101 * 4
    /// A candidate's flags bit: the place is a neighbourhood of a more populous place that reaches it,
    /// and is never the locality (`NeighbourhoodRule`).
    package static let neighbourhoodFlag: UInt16 = 1

    private let pages: PagedBlobs
    private let groupStorage: BlobStorage?
    private let groups: UnsafePointer<UInt32>?
    private let groupCount: Int
    /// Every tile's blob as a bare pointer when all were read up front, so that threads sharing
    /// the cells never touch reference counts (`pages` keeps the memory alive).
    private let preloaded: UnsafeMutablePointer<UnsafeRawPointer?>?
    /// The 1° tiles whose nearest place the k-d tree has proven for every point in them (`TileNearestHints`), read
    /// without a reference count per point (a strong or unowned optional took and dropped one); `tree` keeps them.
    private let provenTiles: Unmanaged<TileNearestHints>?
    private let tree: PointIndex?

    /// `groups`: the u32 group of every record id (nil: every group 0). `tree`: the same places' k-d tree, whose
    /// proven tiles `nearestPlace` answers from.
    package init(pages: PagedBlobs, groups: BlobStorage? = nil, tree: PointIndex? = nil) {
        self.pages = pages
        self.tree = tree
        provenTiles = tree.map { Unmanaged.passUnretained($0.tileHints) }
        groupStorage = groups
        self.groups = groups.map { $0.pointer(at: 0, as: UInt32.self) }
        groupCount = (groups?.count ?? 0) / 4
        if pages.isPreloaded {
            let table = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: Self.tileCount)
            for tile in 0..<Self.tileCount { (table + tile).initialize(to: pages[tile].map(\.base)) }
            preloaded = table
        } else {
            preloaded = nil
        }
    }

    deinit { preloaded?.deallocate() }

    @inline(__always) private func tile(_ number: Int) -> UnsafeRawPointer? {
        if let preloaded { return preloaded[number] }
        return pages[number]?.base
    }

    /// Global cell row (0..<1800 from the south) and column (0..<3600 from 180° W) of a coordinate.
    @inline(__always) package static func cell(of coordinate: Coordinate) -> (row: Int, column: Int) {
        let perDegree = Double(subdivisions)
        // Truncation: after the clamp at 0 it is rounding down (a call of libm's `floor` on the baseline target).
        return (
            min(180 * subdivisions - 1, max(0, Int((coordinate.latitude + 90) * perDegree))),
            min(360 * subdivisions - 1, max(0, Int((coordinate.longitude + 180) * perDegree)))
        )
    }

    /// The tile blob of a global cell and the cell's number within it.
    @inline(__always) private func page(row: Int, column: Int) -> (page: UnsafeRawPointer, cell: Int)? {
        guard let page = tile((row / Self.subdivisions) * 360 + column / Self.subdivisions) else { return nil }
        return (page, (row % Self.subdivisions) * Self.subdivisions + column % Self.subdivisions)
    }

    /// Cache hints for a point answered a few rows later (`LookupPrefetch`). Stage 0: the tile's slot in the
    /// table of tiles. Stage 1: the tile's header and the cell's two offsets. Stage 2: the cell's first
    /// candidate and first resident.
    @inline(__always) package func prefetch(_ spot: LookupPrefetch.Spot, stage: Int) {
        guard let preloaded else { return }
        let slot = preloaded + Int(spot.tile)
        if stage == 0 {
            LookupPrefetch.hint(UnsafeRawPointer(slot))
            return
        }
        guard let page = slot.pointee else { return }
        let cell = Int(spot.cell)
        if stage == 1 {
            LookupPrefetch.hint(page)
            LookupPrefetch.hint(page + 8 + cell * 4)
            LookupPrefetch.hint(page + 8 + 101 * 4 + cell * 4)
            return
        }
        let candidateCount = Int(page.load(fromByteOffset: 0, as: UInt32.self))
        let residentCount = Int(page.load(fromByteOffset: 4, as: UInt32.self))
        let candidate = Int(page.load(fromByteOffset: 8 + cell * 4, as: UInt32.self))
        let resident = Int(page.load(fromByteOffset: 8 + 101 * 4 + cell * 4, as: UInt32.self))
        if candidate < candidateCount { LookupPrefetch.hint(page + Self.headerBytes + candidate * Self.candidateStride) }
        if resident < residentCount {
            LookupPrefetch.hint(page + Self.residentsOffset(candidateCount: candidateCount) + resident * Self.residentStride)
        }
    }

    /// Reads the first candidate and the first resident of the point's cell and returns a number
    /// made of them, which the caller must keep (`AreaLookupLockstep.keepAlive`): asked before the
    /// area lookups, it brings the cell into the cache while they wait for their own misses.
    @inline(__always) package func warm(_ coordinate: Coordinate) -> Float {
        let (row, column) = Self.cell(of: coordinate)
        guard let (page, cell) = page(row: row, column: column) else { return 0 }
        let candidateCount = Int(page.load(fromByteOffset: 0, as: UInt32.self))
        let residentCount = Int(page.load(fromByteOffset: 4, as: UInt32.self))
        let candidate = Int(page.load(fromByteOffset: 8 + cell * 4, as: UInt32.self))
        let resident = Int(page.load(fromByteOffset: 8 + 101 * 4 + cell * 4, as: UInt32.self))
        // Either list may be empty: never read past the blob.
        let firstCandidate =
            candidate < candidateCount
            ? page.load(fromByteOffset: Self.headerBytes + candidate * Self.candidateStride, as: Float.self) : 0
        let firstResident =
            resident < residentCount
            ? page.load(
                fromByteOffset: Self.residentsOffset(candidateCount: candidateCount) + resident * Self.residentStride, as: Double.self) : 0
        return firstCandidate + Float(firstResident)
    }

    /// The locality rule: of the places of `country` (packed, 0 for any) whose catchment contains the
    /// point, neighbourhoods left out, the one the point lies deepest in (smallest distance / catchment
    /// radius); equal depths go to the more populous place, then the lower id. Places of the point's
    /// own first-level area (`firstLevel`, 0 unknown) come before those known to be of another
    /// (`FirstLevelAreas.compatible`): those answer only when no place of its own holds the point.
    func locality(containing coordinate: Coordinate, query: PointIndex.Query, country: UInt16, firstLevel: UInt32 = 0) -> UInt32? {
        localityWithPopulation(containing: coordinate, query: query, country: country, firstLevel: firstLevel)?.id
    }

    /// `locality(containing:)` with the winner's population, first-level area and squared chord distance from the
    /// point, and whether the catchments holding the point are of more than one known area (only then can the point's
    /// own area change the answer).
    @inline(__always)
    package func localityWithPopulation(containing coordinate: Coordinate, query: PointIndex.Query, country: UInt16, firstLevel: UInt32)
        -> (id: UInt32, population: UInt32, firstLevel: UInt32, chordSquared: Double, areasDiffer: Bool)?
    {
        let (row, column) = Self.cell(of: coordinate)
        guard let (page, cell) = page(row: row, column: column) else { return nil }
        let start = Int(page.load(fromByteOffset: 8 + cell * 4, as: UInt32.self))
        let end = Int(page.load(fromByteOffset: 8 + (cell + 1) * 4, as: UInt32.self))
        let entries = page + Self.headerBytes
        // The best so far as its squared distance and squared radius: depths compare cross-multiplied.
        // A place of another first-level area counts its distance two radii deeper, behind every place of
        // the point's own (whose depth is at most 1).
        var best: (entry: UnsafeRawPointer, distance: Double, radius: Double, chordSquared: Double)? = nil
        var knownArea: UInt32 = 0, areasDiffer = false
        for e in start..<end {
            let entry = entries + e * Self.candidateStride
            if entry.load(fromByteOffset: 26, as: UInt16.self) & Self.neighbourhoodFlag != 0 { continue }
            if country != 0, entry.load(fromByteOffset: 24, as: UInt16.self) != country { continue }
            let dx = query.x - Double(entry.load(fromByteOffset: 0, as: Float.self))
            let dy = query.y - Double(entry.load(fromByteOffset: 4, as: Float.self))
            let dz = query.z - Double(entry.load(fromByteOffset: 8, as: Float.self))
            let d = dx * dx + dy * dy + dz * dz
            let r = Double(entry.load(fromByteOffset: 12, as: Float.self))
            let radius = r * r
            guard d <= radius else { continue }
            let area = entry.load(fromByteOffset: 28, as: UInt32.self)
            if area != 0 {
                if knownArea != 0, area != knownArea { areasDiffer = true }
                knownArea = area
            }
            let ranked = FirstLevelAreas.compatible(area, firstLevel) ? d : d + 2 * radius
            // Listed most populous, then lowest id, first: only a strictly deeper place replaces the best.
            if let current = best, ranked * current.radius >= current.distance * radius { continue }
            best = (entry, ranked, radius, d)
        }
        return best.map {
            (
                $0.entry.load(fromByteOffset: 20, as: UInt32.self), $0.entry.load(fromByteOffset: 16, as: UInt32.self),
                $0.entry.load(fromByteOffset: 28, as: UInt32.self), $0.chordSquared, areasDiffer
            )
        }
    }

    /// The nearest neighbourhood (`neighbourhoodFlag`) of `country` (packed, 0 for any) and of the
    /// locality's first-level area (`firstLevel`, `FirstLevelAreas.compatible`), less populous than
    /// `population`, other than `excluded`, within `maxChord`, whose core disc
    /// (`PlaceExtent.coreMetres`) holds the point: the subLocality rule. A town of its own is never
    /// one. Every such place is among the cell's catchment candidates, since a core disc never exceeds
    /// the catchment.
    package func nearestHolding(
        _ coordinate: Coordinate, query: PointIndex.Query, country: UInt16, firstLevel: UInt32 = 0, below population: UInt32,
        excluding excluded: UInt32, maxChord: Double
    ) -> UInt32? {
        let (row, column) = Self.cell(of: coordinate)
        guard let (page, cell) = page(row: row, column: column) else { return nil }
        let start = Int(page.load(fromByteOffset: 8 + cell * 4, as: UInt32.self))
        let end = Int(page.load(fromByteOffset: 8 + (cell + 1) * 4, as: UInt32.self))
        let entries = page + Self.headerBytes
        var best: (id: UInt32, distance: Double)? = nil
        for e in start..<end {
            let entry = entries + e * Self.candidateStride
            guard entry.load(fromByteOffset: 26, as: UInt16.self) & Self.neighbourhoodFlag != 0 else { continue }
            let candidatePopulation = entry.load(fromByteOffset: 16, as: UInt32.self)
            guard candidatePopulation < population else { continue }
            if country != 0, entry.load(fromByteOffset: 24, as: UInt16.self) != country { continue }
            guard FirstLevelAreas.compatible(entry.load(fromByteOffset: 28, as: UInt32.self), firstLevel) else { continue }
            let dx = query.x - Double(entry.load(fromByteOffset: 0, as: Float.self))
            let dy = query.y - Double(entry.load(fromByteOffset: 4, as: Float.self))
            let dz = query.z - Double(entry.load(fromByteOffset: 8, as: Float.self))
            let d = dx * dx + dy * dy + dz * dz
            guard d <= maxChord * maxChord else { continue }
            let id = entry.load(fromByteOffset: 20, as: UInt32.self)
            guard id != excluded else { continue }
            if let current = best, d > current.distance || (d == current.distance && id > current.id) { continue }
            let core = PointIndex.chord(metres: PlaceExtent.coreMetres(population: Double(candidatePopulation)))
            guard d <= core * core else { continue }
            best = (id, d)
        }
        return best?.id
    }

    /// The nearest place that `filter` accepts within `metres` of the point, exactly as
    /// `PointIndex.nearest(to:maxChord:filter:)` answers it: the same chord distances, equal distances
    /// to the lower id. (Its group, when wanted, is `group(of:)`: most searches never need it.) `chord`:
    /// `PointIndex.chord(metres: metres)`, when the caller knows it.
    package func nearest(
        to coordinate: Coordinate, query: PointIndex.Query, filter: PointIndex.NearestFilter,
        withinMetres metres: Double, chord: Double? = nil
    ) -> UInt32? {
        nearestWithCountry(
            to: coordinate, query: query, filter: filter, withinMetres: metres, chord: chord ?? PointIndex.chord(metres: metres))?.id
    }

    /// `nearest(to:query:filter:withinMetres:)` with the place's packed country as its resident entry holds
    /// it, so that a caller comparing countries need not read the place's record (a cache miss). `limit` is
    /// `PointIndex.chord(metres: metres)`, which a caller asking with the same distance for every point computes
    /// once (`ReverseGeocoder.LocalityChords`).
    @inline(__always)
    package func nearestWithCountry(
        to coordinate: Coordinate, query: PointIndex.Query, filter: PointIndex.NearestFilter,
        withinMetres metres: Double, chord limit: Double
    ) -> (id: UInt32, country: UInt16)? {
        var search = NearestSearch(distance: limit * limit)
        let (row, column) = Self.cell(of: coordinate)
        scanResidents(row: row, column: column, query: query, filter: filter, into: &search)
        // Then every other cell that a place nearer than the best so far could lie in: usually the
        // point's cell holds a place a few kilometres away, and one to three neighbours remain.
        let reach = search.best == nil ? metres : min(metres, Self.metresAtLeast(chord: search.distance.squareRoot()))
        let box = Self.boxHolding(around: coordinate, metres: reach * 1.01 + 10)
        let perDegree = Double(Self.subdivisions), columns = 360 * Self.subdivisions
        let south = max(0, Int((box.minY + 90) * perDegree))
        let north = min(180 * Self.subdivisions - 1, Int(((box.maxY + 90) * perDegree).rounded(.down)))
        let west = Int(((box.minX + 180) * perDegree).rounded(.down))
        let east = box.maxX - box.minX >= 360 ? west + columns - 1 : Int(((box.maxX + 180) * perDegree).rounded(.down))
        if south <= north {
            for cellRow in south...north {
                for rawColumn in west...min(east, west + columns - 1) {
                    let cellColumn = (rawColumn % columns + columns) % columns
                    if cellRow == row, cellColumn == column { continue }
                    scanResidents(row: cellRow, column: cellColumn, query: query, filter: filter, into: &search)
                }
            }
        }
        return search.best.map { ($0, search.country) }
    }

    /// The nearest place overall when the point's 1° tile names it for every point in it (the open sea: the tree
    /// proves it, `NearestTileProof`), with a nil country; else `nearestWithCountry` with the standard filter within
    /// `metres`. The same place either way: the proven place is strictly nearer than any other to every point of the
    /// tile, by the same squared chords of the same stored numbers, so within the reach the cells find it too, and
    /// beyond it nothing is found here and the tree answers it.
    @inline(__always)
    package func nearestPlace(to coordinate: Coordinate, query: PointIndex.Query, withinMetres metres: Double, chord limit: Double)
        -> (id: UInt32, country: UInt16?)?
    {
        if let provenTiles, NearestTileProof.isInWorld(coordinate) {
            // `TileNearestHints.tile(of:)`'s number.
            let row = min(179, max(0, Int(coordinate.latitude + 90))), column = min(359, max(0, Int(coordinate.longitude + 180)))
            if let proven = provenTiles._withUnsafeGuaranteedRef({ $0.provenNearest(ofTile: row * 360 + column) }) {
                return (proven.id, nil)
            }
        }
        return nearestWithCountry(to: coordinate, query: query, filter: PointIndex.NearestFilter(), withinMetres: metres, chord: limit)
            .map { ($0.id, $0.country) }
    }

    /// Whether searches learn the places' groups here; without them, ask the k-d tree for those.
    package var knowsGroups: Bool { groups != nil }

    /// A place's group (admin polygon + 1); 0 when unknown.
    @inline(__always) package func group(of id: UInt32) -> UInt32 {
        guard let groups, Int(id) < groupCount else { return 0 }
        return groups[Int(id)]
    }

    private struct NearestSearch {
        var best: UInt32?
        var distance: Double
        var country: UInt16 = 0
        init(distance: Double) { self.distance = distance }
    }

    @inline(__always)
    private func scanResidents(
        row: Int, column: Int, query: PointIndex.Query, filter: PointIndex.NearestFilter,
        into search: inout NearestSearch
    ) {
        guard let (page, cell) = page(row: row, column: column) else { return }
        let candidateCount = Int(page.load(fromByteOffset: 0, as: UInt32.self))
        let offsets = 8 + 101 * 4
        let start = Int(page.load(fromByteOffset: offsets + cell * 4, as: UInt32.self))
        let end = Int(page.load(fromByteOffset: offsets + (cell + 1) * 4, as: UInt32.self))
        guard start < end else { return }
        let residents = page + Self.residentsOffset(candidateCount: candidateCount)
        for e in start..<end {
            let entry = residents + e * Self.residentStride
            // The country first: it rules out a neighbour country's places without any arithmetic.
            if filter.country != 0, entry.load(fromByteOffset: 28, as: UInt16.self) != filter.country { continue }
            let dx = query.x - entry.load(fromByteOffset: 0, as: Double.self)
            let dy = query.y - entry.load(fromByteOffset: 8, as: Double.self)
            let dz = query.z - entry.load(fromByteOffset: 16, as: Double.self)
            let d = dx * dx + dy * dy + dz * dz
            guard d <= search.distance else { continue }
            let id = entry.load(fromByteOffset: 24, as: UInt32.self)
            guard d < search.distance || search.best.map({ id < $0 }) ?? true else { continue }
            let group = filter.group == 0 ? 0 : group(of: id)
            let country = entry.load(fromByteOffset: 28, as: UInt16.self)
            if filter.accepts(id: id, group: group, country: country) {
                search.best = id
                search.distance = d
                search.country = country
            }
        }
    }

    @inline(__always) static func residentsOffset(candidateCount: Int) -> Int {
        (headerBytes + candidateCount * candidateStride + 7) & ~7
    }

    /// Great-circle metres for a chord of the unit sphere.
    static func metres(chord: Double) -> Double {
        2 * GreatCircle.earthRadiusMetres * asin(min(1, chord / 2))
    }

    // The nearest-place search's box, without the arcsine and the cosine of an exact one per point (2-3 % of an
    // every-field batch). A box holding the exact one only adds cells beyond the exact box, whose places are
    // farther than the best so far and never chosen: the answer is the same.

    /// At least `metres(chord:)`, a part per million more at the chords the search meets: asin x ≤ x / √(1 − x²).
    @inline(__always) static func metresAtLeast(chord: Double) -> Double {
        let half = chord / 2
        guard half < 0.5 else { return metres(chord: chord) }
        return 2 * GreatCircle.earthRadiusMetres * half / (1 - half * half).squareRoot() * (1 + 1e-9)
    }

    /// A box holding `BoundingBox(around:metres:)`: the same latitudes, and the longitudes widened by the secant of
    /// the next tenth of a degree poleward (a table) rather than of the exact latitude; the exact box near the poles.
    @inline(__always) static func boxHolding(around centre: Coordinate, metres: Double) -> BoundingBox {
        let dy = metres / (GreatCircle.earthRadiusMetres * .pi / 180)
        let tenth = Int(((abs(centre.latitude) + dy) * 10).rounded(.up))
        guard tenth >= 0, tenth < secantsByTenthDegree.count else { return BoundingBox(around: centre, metres: metres) }
        let dx = min(180, dy * secantsByTenthDegree[tenth])
        return BoundingBox(minX: centre.longitude - dx, minY: centre.latitude - dy, maxX: centre.longitude + dx, maxY: centre.latitude + dy)
    }

    /// 1 / cos(n / 10 degrees) for n up to 89.0°, a billionth more so that rounding never makes it smaller
    /// than the secant `BoundingBox(around:metres:)` computes.
    // Typed step by step: as one untyped expression it took the compiler about 5 s to type-check, on the first
    // build's longest chain of targets.
    private static let secantsByTenthDegree: [Double] = (0...890).map { (tenth: Int) -> Double in
        let radians: Double = Double(tenth) / 10 * .pi / 180
        return 1 / cos(radians) * (1 + 1e-9)
    }
}
