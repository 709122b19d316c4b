import Foundation
import Travel411Core

/// Nearest point within a radius (addresses, postcodes), read tile by tile from the database: the world is
/// cut into 0.1° tiles, each a page of its own holding its points bucketed in 0.001° cells (about 110 m
/// by 110 m at the equator). A lookup reads the one to four pages its search circle overlaps, so its cost
/// does not grow with the number of points in the database; pages once read stay for any thread.
///
/// It answers exactly as `PointIndex.nearest` does: the same unit vectors and chord arithmetic, the
/// nearest point within `maxChord` that the filter accepts, equal distances to the lower id. A point's
/// cell comes from its unit vector (not from the coordinate it was given), so that the cells searched
/// always hold every point the chord can reach, across the antimeridian and at the poles.
///
/// Directory blob: u32 tileCount, u32 pointCount, tileKeys[tileCount] u32 sorted (row × 3600 + column of
/// the 0.1° tile). Page n of `PageKind.pointTiles` at the level's ordinal is the tile of key n.
/// Tile page: u32 cellCount, u32 pointCount, cellKeys[cellCount] u32 (row × 100 + column of the cell
/// inside the tile, sorted), cellStarts[cellCount + 1] u32, pad to 8, unit vectors[pointCount × (x, y, z)]
/// f64, ids[pointCount] u32; a cell's points are in id order.
// @unchecked Sendable: the directory is read in place through raw pointers and never written after init;
// the pages are cached in LazySlots, which any thread may fill.
package final class PointTiles: @unchecked Sendable {
    /// Cells along a tile's side: 0.001° cells. Against 0.01° cells, a batch near Helsinki's addresses takes
    /// 7 % less CPU and one near London's postcodes 3 % more, for pages 15 % larger. A city's addresses are
    /// denser than Helsinki's (Berlin's ~380,000 over 890 km² put about 300 in a 0.01° cell), so the small
    /// cells gain more there.
    package static let cellsPerTile = 100
    static let cellDegrees = 0.1 / Double(cellsPerTile)
    static let cellColumns = 3600 * cellsPerTile
    static let cellRows = 1800 * cellsPerTile
    package static let tileColumns = 3600

    /// How many points the level holds.
    package let count: Int
    private let directory: BlobStorage
    private let tileCount: Int
    private let tileKeys: UnsafePointer<UInt32>
    private let pages: LazySlots<PointTile>
    private let name: String
    private let loadPage: @Sendable (Int) -> BlobStorage?
    private let onDamage: @Sendable (String) -> Void

    /// `loadPage(n)` reads the page of the n-th tile of the directory; `onDamage` hears of a page that is
    /// missing or damaged (named after `name`, "address"), which answers as a tile without points.
    package init(
        directory: BlobStorage, name: String, onDamage: @escaping @Sendable (String) -> Void = { _ in },
        loadPage: @escaping @Sendable (Int) -> BlobStorage?
    ) throws {
        guard directory.count >= 8 else { throw IndexFormatError.malformed("\(name) directory header") }
        tileCount = Int(directory.u32(at: 0))
        count = Int(directory.u32(at: 4))
        guard directory.count == 8 + tileCount * 4 else { throw IndexFormatError.malformed("\(name) directory size") }
        tileKeys = directory.pointer(at: 8, as: UInt32.self)
        self.directory = directory
        self.name = name
        pages = LazySlots(count: tileCount)
        self.loadPage = loadPage
        self.onDamage = onDamage
    }

    /// The cell of a unit vector, as (column, row) over the whole world.
    package static func cell(x: Double, y: Double, z: Double) -> (column: Int, row: Int) {
        let latitude = asin(min(1, max(-1, z))) * 180 / .pi, longitude = atan2(y, x) * 180 / .pi
        return (cellColumn(longitude), cellRow(latitude))
    }

    // Truncation, here and below: after the clamp at 0 it is rounding down (a call of libm's `floor` on the
    // baseline target).
    package static func cellColumn(_ longitude: Double) -> Int {
        min(cellColumns - 1, max(0, Int((longitude + 180) / cellDegrees)))
    }
    package static func cellRow(_ latitude: Double) -> Int {
        min(cellRows - 1, max(0, Int((latitude + 90) / cellDegrees)))
    }
    package static func tileKey(column: Int, row: Int) -> UInt32 {
        UInt32((row / cellsPerTile) * tileColumns + column / cellsPerTile)
    }
    package static func localCell(column: Int, row: Int) -> UInt32 {
        UInt32((row % cellsPerTile) * cellsPerTile + column % cellsPerTile)
    }

    /// The nearest point within `maxChord` that `filter` accepts; equal distances go to the lower id. The
    /// group is always 0 (these points carry none); it is returned for the same shape as `PointIndex`'s.
    ///
    /// The cells are read in widening reaches, 50 m first, then twice as far each time up to
    /// `maxChord`: the first reach that holds an accepted point holds the answer (a nearer or equally near
    /// one would lie within it too), and a search 5 km around a city's postcodes (a database from
    /// OpenStreetMap) reads a few cells instead of thousands.
    package func nearest<Filter: PointFilter>(
        to q: PointIndex.Query, maxChord: Double = 2.0001, filter: Filter
    ) -> (id: UInt32, group: UInt32)? {
        search(q, maxChord, filter)
    }

    /// `nearest(to:maxChord:filter:)` with the standard filter, specialised in this target (see `PointIndex`).
    package func nearest(
        to q: PointIndex.Query, maxChord: Double = 2.0001, filter: PointIndex.NearestFilter = PointIndex.NearestFilter()
    ) -> (id: UInt32, group: UInt32)? {
        search(q, maxChord, filter)
    }

    @inline(__always) private func search<Filter: PointFilter>(
        _ q: PointIndex.Query, _ maxChord: Double, _ filter: Filter
    ) -> (id: UInt32, group: UInt32)? {
        guard tileCount > 0 else { return nil }
        var reach = min(maxChord, Self.firstReach)
        // Few cells in the whole reach's tiles (a rural country's postcodes: Liechtenstein has 12, searched 5 km
        // around): one pass at the full reach, not up to seven widening ones, each computing its cells anew.
        if reach < maxChord, cellCount(within: SearchCells(q, maxChord: maxChord)) <= Self.fewCells { reach = maxChord }
        while true {
            var search = PointSearch(query: q, filter: filter, bestDistance: reach * reach)
            searchCells(SearchCells(q, maxChord: reach), &search)
            if let best = search.best { return (best, 0) }
            if reach >= maxChord { return nil }
            reach = min(maxChord, reach * 2)
        }
    }

    /// The chord of the first reach, 50 m: the address search's in one pass.
    private static let firstReach = PointIndex.chord(metres: 50)

    /// Up to this many cells in a reach's tiles, one pass reads them all at less cost than widening reaches.
    private static let fewCells = 64

    /// The cells holding points in the tiles `reach` touches, counted as far as `fewCells` and one more.
    private func cellCount(within reach: SearchCells) -> Int {
        let perTile = Self.cellsPerTile
        let tileRows = (reach.rows.lowerBound / perTile)...(reach.rows.upperBound / perTile)
        var count = 0
        for columns in reach.columns {
            let tileColumns = (columns.lowerBound / perTile)...(columns.upperBound / perTile)
            // A reach wider than a few tiles is not a sparse one's.
            guard tileRows.count * tileColumns.count <= 16 else { return Self.fewCells + 1 }
            for row in tileRows {
                for column in tileColumns {
                    guard let number = tileNumber(key: UInt32(row * Self.tileColumns + column)) else { continue }
                    count += pages.withValue(at: number, orMake: { self.readTile(number) }) { $0.cells } ?? 0
                    if count > Self.fewCells { return count }
                }
            }
        }
        return count
    }

    /// Every point of the cells in `reach`.
    private func searchCells<Filter: PointFilter>(_ reach: SearchCells, _ search: inout PointSearch<Filter>) {
        let perTile = Self.cellsPerTile
        let tileRows = (reach.rows.lowerBound / perTile)...(reach.rows.upperBound / perTile)
        for columns in reach.columns {
            let tileColumns = (columns.lowerBound / perTile)...(columns.upperBound / perTile)
            // A reach wider than the directory (a search with no radius) walks the directory instead.
            if tileRows.count * tileColumns.count > tileCount {
                for number in 0..<tileCount {
                    let key = Int(tileKeys[number])
                    let row = key / Self.tileColumns, column = key % Self.tileColumns
                    guard tileRows.contains(row), tileColumns.contains(column) else { continue }
                    searchTile(number, row: row, column: column, reach.rows, columns, &search)
                }
                continue
            }
            for row in tileRows {
                for column in tileColumns {
                    guard let number = tileNumber(key: UInt32(row * Self.tileColumns + column)) else { continue }
                    searchTile(number, row: row, column: column, reach.rows, columns, &search)
                }
            }
        }
    }

    /// The cells of one tile within the search's rows and columns.
    @inline(__always) private func searchTile<Filter: PointFilter>(
        _ number: Int, row: Int, column: Int, _ rows: ClosedRange<Int>, _ columns: ClosedRange<Int>,
        _ search: inout PointSearch<Filter>
    ) {
        let perTile = Self.cellsPerTile
        let firstRow = max(rows.lowerBound, row * perTile), lastRow = min(rows.upperBound, row * perTile + perTile - 1)
        let firstColumn = max(columns.lowerBound, column * perTile) - column * perTile
        let lastColumn = min(columns.upperBound, column * perTile + perTile - 1) - column * perTile
        guard firstRow <= lastRow, firstColumn <= lastColumn else { return }
        let rows = (firstRow - row * perTile)...(lastRow - row * perTile)
        _ = pages.withValue(at: number, orMake: { self.readTile(number) }) { tile in
            tile.search(rows: rows, columns: firstColumn...lastColumn, &search)
        }
    }

    /// A tile's page, checked; a missing or damaged one is reported and answers as an empty tile.
    private func readTile(_ number: Int) -> PointTile? {
        guard let storage = loadPage(number) else {
            onDamage("\(name) tile \(number) is missing")
            return PointTile.empty
        }
        do {
            return try PointTile(storage: storage)
        } catch {
            onDamage("\(IndexFormatError.damage(in: error)) of \(name) tile \(number)")
            return PointTile.empty
        }
    }

    /// The tile's place in the directory, which numbers its page; nil for a tile without points.
    private func tileNumber(key: UInt32) -> Int? { sortedPosition(of: key, in: tileKeys, count: tileCount) }
}

/// The cells a search within `maxChord` of a point must read: every cell holding a unit vector that close,
/// as one range of rows and one or two of columns (two where the reach crosses the antimeridian).
struct SearchCells {
    package var rows: ClosedRange<Int>
    package var columns: [ClosedRange<Int>]

    /// Widened by 1e-7 radians (0.6 m) over the exact cap, so that rounding in the chord, in the cap's
    /// bounds or in a point's cell never leaves out a point the chord reaches.
    static let margin = 1e-7

    init(_ q: PointIndex.Query, maxChord: Double) {
        let latitude = asin(min(1, max(-1, q.z))), longitude = atan2(q.y, q.x)
        // The angle a chord spans; a chord of 2 or more reaches the whole sphere.
        let angle = maxChord >= 2 ? Double.pi : 2 * asin(maxChord / 2) + Self.margin
        let south = latitude - angle, north = latitude + angle
        let degrees = 180 / Double.pi
        rows = PointTiles.cellRow(south * degrees)...PointTiles.cellRow(north * degrees)
        let everyColumn = 0...(PointTiles.cellColumns - 1)
        // A cap that holds a pole spans every longitude; otherwise its half-width in longitude is
        // asin(sin angle / cos latitude).
        guard north < .pi / 2, south > -.pi / 2, angle < .pi / 2 else {
            columns = [everyColumn]
            return
        }
        let ratio = sin(angle) / cos(latitude)
        guard ratio < 1 else {
            columns = [everyColumn]
            return
        }
        let halfWidth = asin(ratio) + Self.margin
        let west = (longitude - halfWidth) * degrees, east = (longitude + halfWidth) * degrees
        if west < -180 {
            columns = [PointTiles.cellColumn(west + 360)...everyColumn.upperBound, 0...PointTiles.cellColumn(east)]
        } else if east > 180 {
            columns = [PointTiles.cellColumn(west)...everyColumn.upperBound, 0...PointTiles.cellColumn(east - 360)]
        } else {
            columns = [PointTiles.cellColumn(west)...PointTiles.cellColumn(east)]
        }
    }
}

/// The running best of one nearest-point search: `PointIndex`'s rule, the least squared chord within
/// reach that the filter accepts, equal distances to the lower id.
struct PointSearch<Filter: PointFilter> {
    package let query: PointIndex.Query
    let filter: Filter
    var bestDistance: Double
    var best: UInt32? = nil

    init(query: PointIndex.Query, filter: Filter, bestDistance: Double) {
        self.query = query
        self.filter = filter
        self.bestDistance = bestDistance
    }

    @inline(__always) mutating func consider(_ p: UnsafePointer<Double>, id: UInt32) {
        let dx = query.x - p[0], dy = query.y - p[1], dz = query.z - p[2]
        let d = dx * dx + dy * dy + dz * dz
        guard d <= bestDistance, d < bestDistance || best.map({ id < $0 }) ?? true,
            filter.accepts(id: id, group: 0, country: 0)
        else { return }
        bestDistance = d
        best = id
    }
}

/// One tile's page of points, read in place.
// @unchecked Sendable: raw pointers into its own blob, never written after init.
final class PointTile: @unchecked Sendable {
    private let storage: BlobStorage
    private let cellCount: Int
    private let cellKeys: UnsafePointer<UInt32>
    private let cellStarts: UnsafePointer<UInt32>
    private let vectors: UnsafePointer<Double>
    private let ids: UnsafePointer<UInt32>

    init(storage: BlobStorage) throws {
        guard storage.count >= 8 else { throw IndexFormatError.malformed("point tile header") }
        let cellCount = Int(storage.u32(at: 0)), pointCount = Int(storage.u32(at: 4))
        let keyOffset = 8, startOffset = keyOffset + cellCount * 4
        let vectorOffset = (startOffset + (cellCount + 1) * 4 + 7) & ~7
        let idOffset = vectorOffset + pointCount * 24
        guard idOffset + pointCount * 4 == storage.count else { throw IndexFormatError.malformed("point tile size") }
        let starts = storage.pointer(at: startOffset, as: UInt32.self)
        // Damaged counts must not send a lookup outside the blob.
        guard starts[0] == 0, Int(starts[cellCount]) == pointCount, (0..<cellCount).allSatisfy({ starts[$0] <= starts[$0 + 1] })
        else { throw IndexFormatError.malformed("point tile cells") }
        self.storage = storage
        self.cellCount = cellCount
        cellKeys = storage.pointer(at: keyOffset, as: UInt32.self)
        cellStarts = starts
        vectors = storage.pointer(at: vectorOffset, as: Double.self)
        ids = storage.pointer(at: idOffset, as: UInt32.self)
    }

    /// How many cells hold points.
    var cells: Int { cellCount }

    /// A tile without points, standing for one that could not be read.
    package static let empty: PointTile? = try? PointTile(storage: BlobStorage(bytes: [UInt8](repeating: 0, count: 16)))

    /// The points of the tile's cells in `rows` and `columns` (numbered inside the tile).
    @inline(__always) func search<Filter: PointFilter>(
        rows: ClosedRange<Int>, columns: ClosedRange<Int>, _ search: inout PointSearch<Filter>
    ) {
        let perTile = PointTiles.cellsPerTile
        // A sparse tile under a wide reach (OpenStreetMap's postcodes, a few a town, searched 5 km around:
        // 90 rows of cells) is one pass over its cells rather than a binary search per row.
        if cellCount <= rows.count * 16 {
            for cell in 0..<cellCount {
                let key = Int(cellKeys[cell])
                guard rows.contains(key / perTile), columns.contains(key % perTile) else { continue }
                searchCell(cell, &search)
            }
            return
        }
        for row in rows {
            let first = UInt32(row * perTile + columns.lowerBound), last = UInt32(row * perTile + columns.upperBound)
            var lo = partitionPoint(in: 0..<cellCount) { cellKeys[$0] < first }
            while lo < cellCount, cellKeys[lo] <= last {
                searchCell(lo, &search)
                lo += 1
            }
        }
    }

    @inline(__always) private func searchCell<Filter: PointFilter>(_ cell: Int, _ search: inout PointSearch<Filter>) {
        for i in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) { search.consider(vectors + i * 3, id: ids[i]) }
    }
}
