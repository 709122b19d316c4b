import Foundation
import Travel411Core

/// Nearest named line within a radius (streets), read tile by tile from the database: the world is cut
/// into 0.1° tiles (about 11 km), each a page of its own holding the segments that touch it, bucketed in
/// cells of its `TileGrid` (0.0025° for streets). A lookup reads the one to four pages its search circle overlaps, so its
/// cost does not grow with the number of streets in the database; pages once read stay for any thread.
///
/// Directory blob: u32 tileCount, u32 pad, f64 bbox[4] (minX, minY, maxX, maxY), tileKeys[tileCount] u32
/// sorted (row × 3600 + column of the 0.1° tile). Page n of `PageKind.streetTiles` is the tile of key n.
/// Tile page: u32 cellCount, u32 segmentCount, u32 refCount, u32 runCount, cellKeys[cellCount] u32 (row ×
/// cellsPerTile + column of the cell inside the tile, sorted), cellRunStarts[cellCount + 1] u32,
/// runRefStarts[runCount + 1] u32, refs[refCount] u32, runBoxes[runCount × (minX, minY, maxX, maxY) f32, rounded
/// outwards], pad to 8, segments[segmentCount × (ax, ay, bx, by) f64], lineIDs[segmentCount] u32. A run is
/// consecutive refs of one line in a cell, a cell's runs sorted by minY; its box lets a search pass over a
/// whole building or stretch of way, and its minY ends a search at the first run north of its reach.
// @unchecked Sendable: the directory is read in place through raw pointers and never written after init;
// the pages are cached in LazySlots, which any thread may fill.
package final class StreetTiles: @unchecked Sendable {
    let grid: TileGrid
    private let directory: BlobStorage
    private let tileCount: Int
    private let bounds: BoundingBox
    private let tileKeys: UnsafePointer<UInt32>
    private let pages: LazySlots<StreetTile>
    private let loadPage: @Sendable (Int) -> BlobStorage?
    private let onDamage: @Sendable (String) -> Void

    /// `loadPage(n)` reads the page of the n-th tile of the directory; `onDamage` hears of a page that is
    /// missing or damaged, which answers as a tile without streets.
    package init(
        directory: BlobStorage, grid: TileGrid = .streets, onDamage: @escaping @Sendable (String) -> Void = { _ in },
        loadPage: @escaping @Sendable (Int) -> BlobStorage?
    ) throws {
        self.grid = grid
        guard directory.count >= 40 else { throw IndexFormatError.malformed("street directory header") }
        tileCount = Int(directory.u32(at: 0))
        guard directory.count == 40 + tileCount * 4 else { throw IndexFormatError.malformed("street directory size") }
        let box = directory.pointer(at: 8, as: Double.self)
        bounds = BoundingBox(minX: box[0], minY: box[1], maxX: box[2], maxY: box[3])
        tileKeys = directory.pointer(at: 40, as: UInt32.self)
        self.directory = directory
        pages = LazySlots(count: tileCount)
        self.loadPage = loadPage
        self.onDamage = onDamage
    }

    /// The id of the nearest line within `radiusMetres` that `accept` takes (all when nil), with its
    /// distance in metres; ties go to the lower id.
    package func nearest(to point: Coordinate, radiusMetres: Double, accept: ((UInt32) -> Bool)? = nil) -> (id: UInt32, metres: Double)? {
        let metresPerDegreeY = GreatCircle.earthRadiusMetres * .pi / 180
        let metresPerDegreeX = metresPerDegreeY * max(cos(point.latitude * .pi / 180), 1e-6)
        var search = NearestSearch(
            x: point.longitude, y: point.latitude, metresPerDegreeX: metresPerDegreeX, metresPerDegreeY: metresPerDegreeY,
            bestSquared: radiusMetres * radiusMetres)
        run(&search, in: BoundingBox(around: point, metres: radiusMetres), accept: accept)
        return search.best.map { ($0.id, $0.distance) }
    }

    /// The nearest line as Nominatim measures (PostGIS on longitude and latitude: degrees, both axes alike),
    /// within `radiusDegrees`, with the point of the line nearest to `point`.
    /// `onlyLine` confines it to one line, whose runs alone are read (a search filtered by `accept` to one line
    /// has nothing nearer to stop it early: it measured every run within the radius).
    /// `clip`, when given, narrows the cells read to those it touches (the line's extent).
    /// `pointsOnly` passes over every line that is not a single point (a POI or address node) without asking
    /// `accept`: a run of several segments, or of one with length, is an outline.
    package func nearestInDegrees(
        to point: Coordinate, radiusDegrees: Double, onlyLine: UInt32? = nil, clip: BoundingBox? = nil, pointsOnly: Bool = false,
        accept: ((UInt32) -> Bool)? = nil
    ) -> (id: UInt32, degrees: Double, closest: Coordinate)? {
        searchInDegrees(
            to: point, radiusDegrees: radiusDegrees, onlyLine: onlyLine, clip: clip, pointsOnly: pointsOnly, accept: accept
        )?.best.map {
            ($0.id, $0.distance, Coordinate(latitude: point.latitude + $0.closestY, longitude: point.longitude + $0.closestX))
        }
    }

    /// The square of `line`'s distance in degrees from `point` as `nearestInDegrees` measures it (before its square
    /// root, so that two lines compare as they would in one search), when nearer than `radiusDegrees`; only the
    /// cells `clip` touches are read (the line's extent), when given.
    package func squaredDegrees(from point: Coordinate, toLine line: UInt32, within radiusDegrees: Double, clip: BoundingBox?) -> Double? {
        guard let search = searchInDegrees(to: point, radiusDegrees: radiusDegrees, onlyLine: line, clip: clip, accept: nil),
            search.best != nil
        else { return nil }
        return search.bestSquared
    }

    private func searchInDegrees(
        to point: Coordinate, radiusDegrees: Double, onlyLine: UInt32?, clip: BoundingBox?, pointsOnly: Bool = false,
        accept: ((UInt32) -> Bool)?
    ) -> NearestSearch? {
        var search = NearestSearch(
            x: point.longitude, y: point.latitude, metresPerDegreeX: 1, metresPerDegreeY: 1, bestSquared: radiusDegrees * radiusDegrees)
        search.onlyLine = onlyLine
        search.pointsOnly = pointsOnly
        var box = BoundingBox(
            minX: point.longitude - radiusDegrees, minY: point.latitude - radiusDegrees, maxX: point.longitude + radiusDegrees,
            maxY: point.latitude + radiusDegrees)
        if let clip {
            guard box.intersects(clip) else { return nil }
            box = BoundingBox(
                minX: max(box.minX, clip.minX), minY: max(box.minY, clip.minY), maxX: min(box.maxX, clip.maxX),
                maxY: min(box.maxY, clip.maxY))
        }
        run(&search, in: box, accept: accept)
        return search
    }

    /// The closed outlines that hold `point`, as far as a ray `reachDegrees` long to the east sees them: an
    /// outline wider than that to the east of the point may be missed or wrongly counted, so a caller checks
    /// the outline's extent. Each segment is counted in the one cell where the ray crosses it.
    /// `among`, when given, the only lines counted (`ObjectCovers`' candidates), whose outlines end at `scanningTo`
    /// at the farthest: the ray stops there, not at its full reach.
    package func outlinesHolding(
        _ point: Coordinate, reachDegrees: Double, among candidates: [UInt32]? = nil, scanningTo lastX: Double? = nil
    )
        -> [UInt32]
    {
        let x = point.longitude, y = point.latitude
        guard tileCount > 0, bounds.minY <= y, y <= bounds.maxY, x <= bounds.maxX else { return [] }
        let row = grid.cellRow(y), perTile = grid.cellsPerTile
        let firstColumn = grid.cellColumn(x), lastColumn = grid.cellColumn(min(x + reachDegrees, lastX ?? x + reachDegrees))
        // The outlines crossed an odd number of times so far: a handful, so a plain list, not a dictionary
        // made per point.
        var odd: [UInt32] = []
        for tileColumn in (firstColumn / perTile)...(lastColumn / perTile) {
            guard let number = tileNumber(key: UInt32((row / perTile) * TileGrid.tileColumns + tileColumn)) else { continue }
            let columns = max(firstColumn, tileColumn * perTile)...min(lastColumn, tileColumn * perTile + perTile - 1)
            _ = pages.withValue(at: number, orMake: { self.readTile(number) }) { tile in
                for column in columns {
                    tile.forEachSegment(row: row % perTile, column: column % perTile, spanning: y) { ax, ay, bx, by, id in
                        guard (ay > y) != (by > y), candidates?.contains(id) ?? true else { return }
                        let crossX = ax + (y - ay) * (bx - ax) / (by - ay)
                        guard crossX > x, crossX <= x + reachDegrees, grid.cellColumn(crossX) == column else { return }
                        if let seen = odd.firstIndex(of: id) {
                            odd.swapAt(seen, odd.count - 1)
                            odd.removeLast()
                        } else {
                            odd.append(id)
                        }
                    }
                }
            }
        }
        return odd.sorted()
    }

    /// The segments of `line` in the cells `box` touches, gathered once to measure the line from several points
    /// (`LineSegments`); nil when the box covers more than `maxCells` cells or the line has more than `maxSegments`
    /// segments there (then each search, which passes over runs by their boxes, costs less than the list).
    package func segments(ofLine line: UInt32, in box: BoundingBox, maxCells: Int, maxSegments: Int) -> LineSegments? {
        guard tileCount > 0, box.intersects(bounds) else { return LineSegments(line: line, coordinates: []) }
        let rows = grid.cellRow(box.minY)...grid.cellRow(box.maxY)
        let columns = grid.cellColumn(box.minX)...grid.cellColumn(box.maxX)
        guard rows.count * columns.count <= maxCells else { return nil }
        var coordinates: [Double] = []
        coordinates.reserveCapacity(64)
        var cursor = TileCursor()
        for row in rows {
            forEachTile(row: row, columns: columns, &cursor) { tile, localRow, localColumns, _ in
                tile.forEachOccupiedCell(row: localRow, columns: localColumns) { localColumn in
                    tile.forEachSegment(ofLine: line, row: localRow, column: localColumn) { ax, ay, bx, by in
                        coordinates.append(ax)
                        coordinates.append(ay)
                        coordinates.append(bx)
                        coordinates.append(by)
                    }
                }
            }
            if coordinates.count > maxSegments * 4 { return nil }
        }
        return LineSegments(line: line, coordinates: coordinates)
    }

    /// The line of each run in the cell holding `point`, with the run's first segment: for `ObjectCovers`, an
    /// outline and its extent from corner to corner.
    func forEachRun(inCellOf point: Coordinate, _ body: (UInt32, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Void) {
        guard tileCount > 0 else { return }
        let row = grid.cellRow(point.latitude), column = grid.cellColumn(point.longitude), perTile = grid.cellsPerTile
        guard let number = tileNumber(key: grid.tileKey(cellColumn: column, cellRow: row)) else { return }
        _ = pages.withValue(at: number, orMake: { self.readTile(number) }) { tile in
            tile.forEachRunStart(row: row % perTile, column: column % perTile, body)
        }
    }

    /// `accept` travels down as a plain (non-escaping) closure, not in the search: called from a field of the
    /// mutable search or an optional, each call took a reference on the closure (3 % of a Helsinki batch's CPU
    /// in retains and releases).
    private func run(_ search: inout NearestSearch, in box: BoundingBox, accept: ((UInt32) -> Bool)?) {
        if let accept { run(&search, in: box, accepting: accept) } else { run(&search, in: box, accepting: { _ in true }) }
    }

    /// Searches the cells the box touches in rings around the point's cell, and stops before a ring that
    /// lies wholly farther than the best line found: a search 0.007° wide over 0.001° cells of buildings
    /// reads the few cells around the point, not the 225 of the box.
    private func run(_ search: inout NearestSearch, in box: BoundingBox, accepting accept: (UInt32) -> Bool) {
        guard tileCount > 0, box.intersects(bounds) else { return }
        let rows = grid.cellRow(box.minY)...grid.cellRow(box.maxY)
        let columns = grid.cellColumn(box.minX)...grid.cellColumn(box.maxX)
        var cursor = TileCursor()
        // A box of a few cells (a 0.001° search in a town) is visited as it is: reading its occupancy first cost a
        // central Helsinki batch 2 % of its CPU.
        guard columns.count <= 64, rows.count <= 64, rows.count * columns.count > 16 else {
            return runRings(&search, rows: rows, columns: columns, occupied: nil, &cursor, accept)
        }
        // Which of the box's cells hold segments, a row at a time from the tiles' occupancy bits: far from
        // any street or building (most of a country) the search ends here, and elsewhere the rings visit only
        // the cells that hold something: a rural zoom-18 search (0.007° over 0.001° cells) would otherwise visit
        // up to 112 cells one by one.
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: rows.count) { occupied in
            occupied.initialize(repeating: 0)
            guard occupancy(rows: rows, columns: columns, into: occupied, &cursor) != 0 else { return }
            runRings(&search, rows: rows, columns: columns, occupied: UnsafePointer(occupied.baseAddress), &cursor, accept)
        }
    }

    /// The rings of `run`; `occupied[r - rows.lowerBound]` bit `c - columns.lowerBound` says whether a cell
    /// holds segments (nil: every cell is visited).
    @inline(__always) private func runRings(
        _ search: inout NearestSearch, rows: ClosedRange<Int>, columns: ClosedRange<Int>, occupied: UnsafePointer<UInt64>?,
        _ cursor: inout TileCursor, _ accept: (UInt32) -> Bool
    ) {
        let row = min(max(grid.cellRow(search.y), rows.lowerBound), rows.upperBound)
        let column = min(max(grid.cellColumn(search.x), columns.lowerBound), columns.upperBound)
        // How far the point lies from its own cell's sides: ring k is at least this plus k - 1 cells away.
        let size = grid.cellDegrees
        let cellX = Double(column) * size - 180, cellY = Double(row) * size - 90
        let insideX = max(0, min(search.x - cellX, cellX + size - search.x))
        let insideY = max(0, min(search.y - cellY, cellY + size - search.y))
        let rings = max(row - rows.lowerBound, rows.upperBound - row, column - columns.lowerBound, columns.upperBound - column)
        func holds(_ bits: UInt64, _ column: Int) -> Bool { bits >> UInt64(column - columns.lowerBound) & 1 != 0 }
        for ring in 0...rings {
            if ring > 0 {
                let reach = Double(ring - 1) * size
                let nearest = min((insideX + reach) * search.metresPerDegreeX, (insideY + reach) * search.metresPerDegreeY)
                if nearest * nearest > search.bestSquared { return }
            }
            for r in max(rows.lowerBound, row - ring)...min(rows.upperBound, row + ring) {
                let bits = occupied.map { $0[r - rows.lowerBound] }
                if bits == 0 { continue }
                if r == row - ring || r == row + ring {
                    let edge = max(columns.lowerBound, column - ring)...min(columns.upperBound, column + ring)
                    visit(row: r, columns: edge, &search, &cursor, accept)
                } else {
                    let west = column - ring, east = column + ring
                    if west >= columns.lowerBound, bits.map({ holds($0, west) }) ?? true {
                        visit(row: r, columns: west...west, &search, &cursor, accept)
                    }
                    if east <= columns.upperBound, bits.map({ holds($0, east) }) ?? true {
                        visit(row: r, columns: east...east, &search, &cursor, accept)
                    }
                }
            }
        }
    }

    /// Sets bit i of `occupied[r - rows.lowerBound]` (zeroed by the caller) when the cell at row r, column
    /// `columns.lowerBound + i` holds segments (at most 64 columns), and returns the union of the rows' bits.
    /// A tile at a time, all its rows at once: row by row, a box across two tiles looked up each tile per row
    /// (7 % of a Liechtenstein batch's CPU was this function).
    private func occupancy(
        rows: ClosedRange<Int>, columns: ClosedRange<Int>, into occupied: UnsafeMutableBufferPointer<UInt64>, _ cursor: inout TileCursor
    ) -> UInt64 {
        let perTile = grid.cellsPerTile
        var any: UInt64 = 0
        var first = rows.lowerBound
        while first <= rows.upperBound {
            let last = min(rows.upperBound, (first / perTile) * perTile + perTile - 1)
            forEachTile(row: first, columns: columns, &cursor) { tile, localRow, localColumns, tileStart in
                let shift = UInt64(tileStart + localColumns.lowerBound - columns.lowerBound)
                for row in first...last {
                    let bits = tile.occupancy(row: localRow + (row - first), columns: localColumns) << shift
                    occupied[row - rows.lowerBound] |= bits
                    any |= bits
                }
            }
            first = last + 1
        }
        return any
    }

    /// The tile of the cells a search visited last: most of a search's cells lie in one tile, whose place in the
    /// directory and page are then looked up once, not per cell.
    private struct TileCursor {
        var key = UInt32.max
        var tile: Unmanaged<StreetTile>?
    }

    /// The row's `columns` cut at the tiles' edges, each piece given with its tile (a tile without segments is
    /// passed over), its row and columns inside the tile, and the tile's first column.
    @inline(__always) private func forEachTile(
        row: Int, columns: ClosedRange<Int>, _ cursor: inout TileCursor,
        _ body: (_ tile: StreetTile, _ localRow: Int, _ localColumns: ClosedRange<Int>, _ tileStart: Int) -> Void
    ) {
        let perTile = grid.cellsPerTile
        let tileRow = row / perTile, localRow = row % perTile
        var first = columns.lowerBound
        while first <= columns.upperBound {
            let tileColumn = first / perTile, tileStart = tileColumn * perTile
            let last = min(columns.upperBound, tileStart + perTile - 1)
            let key = UInt32(tileRow * TileGrid.tileColumns + tileColumn)
            if key != cursor.key {
                cursor.key = key
                cursor.tile = tileNumber(key: key).flatMap { number in
                    pages.unretainedValue(at: number, orMake: { self.readTile(number) })
                }
            }
            cursor.tile?._withUnsafeGuaranteedRef { body($0, localRow, (first - tileStart)...(last - tileStart), tileStart) }
            first = last + 1
        }
    }

    /// Searches the cells of one row that hold segments. Far from any street or building most cells are empty,
    /// and the tile's occupancy bits pass over them a row at a time (a rural search reads some 84 object cells,
    /// most of them empty).
    @inline(__always) private func visit(
        row: Int, columns: ClosedRange<Int>, _ search: inout NearestSearch, _ cursor: inout TileCursor,
        _ accept: (UInt32) -> Bool
    ) {
        let size = grid.cellDegrees
        let minY = Double(row) * size - 90
        forEachTile(row: row, columns: columns, &cursor) { tile, localRow, localColumns, tileStart in
            tile.forEachOccupiedCell(row: localRow, columns: localColumns) { localColumn in
                // A cell wholly farther than the best so far is passed over (the ring test goes by the nearest
                // side only). The slack covers the rounding between a cell's sides and `cellColumn`/`cellRow`.
                let minX = Double(tileStart + localColumn) * size - 180, slack = 1e-9
                guard
                    search.mayImprove(
                        minX: minX - slack, minY: minY - slack, maxX: minX + size + slack, maxY: minY + size + slack)
                else { return }
                tile.search(row: localRow, column: localColumn, &search, accept)
            }
        }
    }

    /// A tile's page, checked; a missing or damaged one is reported and answers as an empty tile.
    private func readTile(_ number: Int) -> StreetTile? {
        guard let storage = loadPage(number) else {
            onDamage("street tile \(number) is missing")
            return StreetTile.empty(cellsPerTile: grid.cellsPerTile)
        }
        do {
            return try StreetTile(storage: storage, cellsPerTile: grid.cellsPerTile)
        } catch {
            onDamage("\(IndexFormatError.damage(in: error)) of tile \(number)")
            return StreetTile.empty(cellsPerTile: grid.cellsPerTile)
        }
    }

    /// The tile's place in the directory, which numbers its page; nil for a tile without streets.
    private func tileNumber(key: UInt32) -> Int? { sortedPosition(of: key, in: tileKeys, count: tileCount) }
}

/// The first position of `range` where `isBefore` is false; it must hold for a prefix of the range and not after
/// (a binary search over anything sorted: keys, a row's cells, longitudes).
@inline(__always)
func partitionPoint(in range: Range<Int>, _ isBefore: (Int) -> Bool) -> Int {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi {
        let mid = (lo + hi) >> 1
        if isBefore(mid) { lo = mid + 1 } else { hi = mid }
    }
    return lo
}

/// Where `key` is in `count` sorted keys, nil when it is not there: a directory's tiles, a tile's cells, a place
/// node's cell.
@inline(__always)
package func sortedPosition<Key: Comparable>(of key: Key, in keys: UnsafePointer<Key>, count: Int) -> Int? {
    let position = partitionPoint(in: 0..<count) { keys[$0] < key }
    return position < count && keys[position] == key ? position : nil
}

/// One line's segments (`StreetTiles.segments(ofLine:in:maxCells:maxSegments:)`), measured from a point as
/// `StreetTiles.nearestInDegrees(onlyLine:)` measures the line: the same test on the same segments.
package struct LineSegments {
    let line: UInt32
    /// ax, ay, bx, by of each segment.
    let coordinates: [Double]

    package func nearestInDegrees(to point: Coordinate, radiusDegrees: Double) -> (degrees: Double, closest: Coordinate)? {
        var search = NearestSearch(
            x: point.longitude, y: point.latitude, metresPerDegreeX: 1, metresPerDegreeY: 1, bestSquared: radiusDegrees * radiusDegrees)
        coordinates.withUnsafeBufferPointer { c in
            for i in stride(from: 0, to: c.count, by: 4) { search.consider(ax: c[i], ay: c[i + 1], bx: c[i + 2], by: c[i + 3], id: line) }
        }
        return search.best.map {
            ($0.distance, Coordinate(latitude: point.latitude + $0.closestY, longitude: point.longitude + $0.closestX))
        }
    }
}

/// The running best of one nearest-line search, in a flat projection around the query point (exact
/// enough within a few hundred metres).
struct NearestSearch {
    let x: Double, y: Double
    let metresPerDegreeX: Double, metresPerDegreeY: Double
    var bestSquared: Double
    /// The best line, its distance and the offset of its nearest point from the query, in the search's units.
    var best: (id: UInt32, distance: Double, closestX: Double, closestY: Double)?
    /// The one line the search is confined to, nil for any.
    var onlyLine: UInt32?
    /// Whether only runs of one segment of no length (points) are measured.
    var pointsOnly = false
    /// The line `accept` refused last: its other segments, and the rest of its run, are passed over without
    /// asking again. A filtered search (an address of one street among a city's buildings) refuses most lines,
    /// and asked once per segment nearer than the radius.
    var refused = UInt32.max

    package init(x: Double, y: Double, metresPerDegreeX: Double, metresPerDegreeY: Double, bestSquared: Double) {
        self.x = x
        self.y = y
        self.metresPerDegreeX = metresPerDegreeX
        self.metresPerDegreeY = metresPerDegreeY
        self.bestSquared = bestSquared
    }

    /// Whether anything in the box may be nearer than the best so far: the test of `consider` on the box's
    /// corners, which passes whenever it would pass for a segment inside the box.
    @inline(__always) func mayImprove(minX: Double, minY: Double, maxX: Double, maxY: Double) -> Bool {
        let gx = max(0, (minX - x) * metresPerDegreeX, -((maxX - x) * metresPerDegreeX))
        let gy = max(0, (minY - y) * metresPerDegreeY, -((maxY - y) * metresPerDegreeY))
        return gx * gx + gy * gy <= bestSquared
    }

    /// `accept` says which lines may answer; it is asked only of a line nearer than the best so far.
    @inline(__always) mutating func consider(
        ax: Double, ay: Double, bx: Double, by: Double, id: UInt32, accept: (UInt32) -> Bool = { _ in true }
    ) {
        let ax = (ax - x) * metresPerDegreeX, ay = (ay - y) * metresPerDegreeY
        let bx = (bx - x) * metresPerDegreeX, by = (by - y) * metresPerDegreeY
        // The segment's box farther than the best: most of a cell's segments end here, without the division.
        let gx = max(0, min(ax, bx), -max(ax, bx)), gy = max(0, min(ay, by), -max(ay, by))
        if gx * gx + gy * gy > bestSquared { return }
        let ex = bx - ax, ey = by - ay
        let lengthSquared = ex * ex + ey * ey
        var t = lengthSquared > 0 ? -(ax * ex + ay * ey) / lengthSquared : 0
        t = min(1, max(0, t))
        let px = ax + t * ex, py = ay + t * ey
        let d = px * px + py * py
        if d < bestSquared || (d == bestSquared && best.map { id < $0.id } ?? false) {
            guard id != refused else { return }
            guard accept(id) else {
                refused = id
                return
            }
            bestSquared = d
            best = (id, d.squareRoot(), px / metresPerDegreeX, py / metresPerDegreeY)
        }
    }
}

/// One tile's page of segments, read in place, with a bit per cell saying whether any segment touches it.
// @unchecked Sendable: raw pointers into its own blob and its occupancy bits, never written after init.
final class StreetTile: @unchecked Sendable {
    private let storage: BlobStorage
    private let cellRunStarts: UnsafePointer<UInt32>
    private let runRefStarts: UnsafePointer<UInt32>
    private let refs: UnsafePointer<UInt32>
    private let runBoxes: UnsafePointer<Float>
    private let segments: UnsafePointer<Double>
    private let lineIDs: UnsafePointer<UInt32>
    /// Bit `column % 64` of word `row × wordsPerRow + column / 64` is set when the cell holds segments; a cell's
    /// place among the page's cells is the word's rank (the cells before it) plus the set bits before it.
    private let wordsPerRow: Int
    private let occupancy: UnsafeMutablePointer<UInt64>
    private let ranks: UnsafeMutablePointer<UInt32>

    package init(storage: BlobStorage, cellsPerTile: Int) throws {
        guard storage.count >= 16 else { throw IndexFormatError.malformed("street tile header") }
        let cellCount = Int(storage.u32(at: 0)), segmentCount = Int(storage.u32(at: 4)), refCount = Int(storage.u32(at: 8))
        let runCount = Int(storage.u32(at: 12))
        var offset = 16
        let keyOffset = offset
        offset += cellCount * 4
        let cellRunOffset = offset
        offset += (cellCount + 1) * 4
        let runRefOffset = offset
        offset += (runCount + 1) * 4
        let refOffset = offset
        offset += refCount * 4
        let boxOffset = offset
        offset += runCount * 16
        offset = (offset + 7) & ~7
        let segmentOffset = offset
        offset += segmentCount * 32
        let lineOffset = offset
        offset += segmentCount * 4
        guard offset == storage.count else { throw IndexFormatError.malformed("street tile size") }
        let cellKeys = storage.pointer(at: keyOffset, as: UInt32.self)
        let cellRunStarts = storage.pointer(at: cellRunOffset, as: UInt32.self)
        let runRefStarts = storage.pointer(at: runRefOffset, as: UInt32.self)
        let refs = storage.pointer(at: refOffset, as: UInt32.self)
        // Damaged counts must not send a lookup outside the blob: the keys rise within the tile, the starts rise to
        // their arrays' ends.
        func rising(_ starts: UnsafePointer<UInt32>, count: Int, to end: Int) -> Bool {
            starts[0] == 0 && Int(starts[count]) == end && (0..<count).allSatisfy { starts[$0] <= starts[$0 + 1] }
        }
        let cellsInTile = cellsPerTile * cellsPerTile
        guard (0..<cellCount).allSatisfy({ Int(cellKeys[$0]) < cellsInTile && ($0 == 0 || cellKeys[$0 - 1] < cellKeys[$0]) }),
            rising(cellRunStarts, count: cellCount, to: runCount), rising(runRefStarts, count: runCount, to: refCount),
            (0..<refCount).allSatisfy({ Int(refs[$0]) < segmentCount })
        else { throw IndexFormatError.malformed("street tile references") }
        self.storage = storage
        self.cellRunStarts = cellRunStarts
        self.runRefStarts = runRefStarts
        self.refs = refs
        runBoxes = storage.pointer(at: boxOffset, as: Float.self)
        segments = storage.pointer(at: segmentOffset, as: Double.self)
        lineIDs = storage.pointer(at: lineOffset, as: UInt32.self)
        wordsPerRow = (cellsPerTile + 63) / 64
        let wordCount = max(1, cellsPerTile * wordsPerRow)
        occupancy = .allocate(capacity: wordCount)
        occupancy.initialize(repeating: 0, count: wordCount)
        for n in 0..<cellCount {
            let key = Int(cellKeys[n]), column = key % cellsPerTile
            occupancy[(key / cellsPerTile) * wordsPerRow + column / 64] |= 1 << UInt64(column % 64)
        }
        ranks = .allocate(capacity: wordCount)
        var before: UInt32 = 0
        for word in 0..<wordCount {
            ranks.advanced(by: word).initialize(to: before)
            before += UInt32(occupancy[word].nonzeroBitCount)
        }
    }

    deinit {
        occupancy.deallocate()
        ranks.deallocate()
    }

    /// A tile without segments, standing for one that could not be read.
    package static func empty(cellsPerTile: Int) -> StreetTile? {
        var writer = ByteWriter()
        for _ in 0..<6 { writer.append(UInt32(0)) }
        writer.align(to: 8)
        return try? StreetTile(storage: BlobStorage(bytes: writer.bytes), cellsPerTile: cellsPerTile)
    }

    /// Each column of `columns` in the row (all inside the tile) whose cell holds segments, west to east.
    @inline(__always) func forEachOccupiedCell(row: Int, columns: ClosedRange<Int>, _ body: (Int) -> Void) {
        var word = columns.lowerBound >> 6
        while word <= columns.upperBound >> 6 {
            var bits = occupancy(row: row, word: word, columns: columns)
            while bits != 0 {
                body(word << 6 + bits.trailingZeroBitCount)
                bits &= bits - 1
            }
            word += 1
        }
    }

    /// One occupancy word of a row (columns 64 × `word` on), keeping the bits of `columns` only.
    @inline(__always) private func occupancy(row: Int, word: Int, columns: ClosedRange<Int>) -> UInt64 {
        var bits = occupancy[row * wordsPerRow + word]
        let low = max(columns.lowerBound - word << 6, 0), high = min(columns.upperBound - word << 6, 63)
        bits &= ~0 << UInt64(low)
        if high < 63 { bits &= (1 << UInt64(high + 1)) - 1 }
        return bits
    }

    /// The occupancy bits of `columns` (inside the tile) in a row, the first column's as bit 0 (at most 64).
    @inline(__always) func occupancy(row: Int, columns: ClosedRange<Int>) -> UInt64 {
        var result: UInt64 = 0
        var word = columns.lowerBound >> 6
        while word <= columns.upperBound >> 6 {
            let bits = occupancy(row: row, word: word, columns: columns)
            let shift = word << 6 - columns.lowerBound
            result |= shift >= 0 ? bits << UInt64(shift) : bits >> UInt64(-shift)
            word += 1
        }
        return result
    }

    /// The runs of segments touching the cell; empty for a cell without any.
    @inline(__always) private func runs(row: Int, column: Int) -> Range<Int> {
        let word = row * wordsPerRow + column >> 6, bit = UInt64(column & 63)
        let bits = occupancy[word]
        guard bits >> bit & 1 != 0 else { return 0..<0 }
        let position = Int(ranks[word]) + (bits & ((1 << bit) - 1)).nonzeroBitCount
        return Int(cellRunStarts[position])..<Int(cellRunStarts[position + 1])
    }

    /// Each run of the cell: its line and first segment.
    func forEachRunStart(row: Int, column: Int, _ body: (UInt32, Double, Double, Double, Double) -> Void) {
        for run in runs(row: row, column: column) {
            let start = Int(runRefStarts[run])
            guard start < Int(runRefStarts[run + 1]) else { continue }
            let s = Int(refs[start])
            let segment = segments + s * 4
            body(lineIDs[s], segment[0], segment[1], segment[2], segment[3])
        }
    }

    /// The segments of `line`'s runs in the cell.
    func forEachSegment(ofLine line: UInt32, row: Int, column: Int, _ body: (Double, Double, Double, Double) -> Void) {
        for run in runs(row: row, column: column) {
            let start = Int(runRefStarts[run]), end = Int(runRefStarts[run + 1])
            // A run is one line's: its first segment's line is the run's.
            guard start < end, lineIDs[Int(refs[start])] == line else { continue }
            for r in start..<end {
                let segment = segments + Int(refs[r]) * 4
                body(segment[0], segment[1], segment[2], segment[3])
            }
        }
    }

    /// The segments of the cell's runs whose box spans the latitude `y` (the others cannot cross a ray along it).
    func forEachSegment(row: Int, column: Int, spanning y: Double, _ body: (Double, Double, Double, Double, UInt32) -> Void) {
        for run in runs(row: row, column: column) {
            let box = runBoxes + run * 4
            // The runs rise by their southern edge: once one starts north of `y`, so do the rest.
            if Double(box[1]) > y { break }
            guard Double(box[3]) > y else { continue }
            for r in Int(runRefStarts[run])..<Int(runRefStarts[run + 1]) {
                let s = Int(refs[r])
                let segment = segments + s * 4
                body(segment[0], segment[1], segment[2], segment[3], lineIDs[s])
            }
        }
    }

    /// Each run whose box is nearer than the best so far, segment by segment: a building's outline farther
    /// than that is passed over with one test instead of one per segment.
    @inline(__always) func search(row: Int, column: Int, _ search: inout NearestSearch, _ accept: (UInt32) -> Bool) {
        for run in runs(row: row, column: column) {
            let box = runBoxes + run * 4
            // The runs rise by their southern edge: once one starts farther north than the best, so do the rest.
            let north = (Double(box[1]) - search.y) * search.metresPerDegreeY
            if north > 0, north * north > search.bestSquared { break }
            // A run is one line's: its first segment's line is the run's.
            if let only = search.onlyLine {
                let start = Int(runRefStarts[run])
                if start >= Int(runRefStarts[run + 1]) || lineIDs[Int(refs[start])] != only { continue }
            }
            if search.pointsOnly {
                let start = Int(runRefStarts[run])
                guard start + 1 == Int(runRefStarts[run + 1]) else { continue }
                let segment = segments + Int(refs[start]) * 4
                guard segment[0] == segment[2], segment[1] == segment[3] else { continue }
            }
            guard search.mayImprove(minX: Double(box[0]), minY: Double(box[1]), maxX: Double(box[2]), maxY: Double(box[3])) else {
                continue
            }
            for r in Int(runRefStarts[run])..<Int(runRefStarts[run + 1]) {
                let s = Int(refs[r])
                if lineIDs[s] == search.refused { break }
                let segment = segments + s * 4
                search.consider(ax: segment[0], ay: segment[1], bx: segment[2], by: segment[3], id: lineIDs[s], accept: accept)
            }
        }
    }
}

/// How a `StreetTiles` cuts the world: 0.1° tiles, each `cellsPerTile` × `cellsPerTile` cells. Streets use
/// 0.0025° cells (280 m north-south: a 100 m search reads one to four), OpenStreetMap's buildings and points
/// of interest 0.001° cells: a city's cell of 0.01° holds thousands of segments, which every lookup scanned.
/// Measured on 100,000 points (release, 2 cores): Helsinki's OSM database 18,000 points/s with 0.01° cells
/// for both, 63,000 with 0.001° for the objects, 95,000 with 0.0025° for the streets too; London on the
/// default database 245,000 and 388,000 points/s, the same answers.
package struct TileGrid: Sendable, Equatable {
    package static let streets = TileGrid(cellsPerTile: 40)
    package static let objects = TileGrid(cellsPerTile: 100)
    package static let tileDegrees = 0.1
    package static let tileColumns = 3600

    package let cellsPerTile: Int
    var cellDegrees: Double { Self.tileDegrees / Double(cellsPerTile) }
    var cellColumns: Int { Self.tileColumns * cellsPerTile }
    var cellRows: Int { 1800 * cellsPerTile }

    @inline(__always) package func cellColumn(_ x: Double) -> Int {
        min(cellColumns - 1, max(0, Int(((x + 180) / cellDegrees).rounded(.down))))
    }
    @inline(__always) package func cellRow(_ y: Double) -> Int { min(cellRows - 1, max(0, Int(((y + 90) / cellDegrees).rounded(.down)))) }
    @inline(__always) package func tileKey(cellColumn: Int, cellRow: Int) -> UInt32 {
        UInt32((cellRow / cellsPerTile) * Self.tileColumns + cellColumn / cellsPerTile)
    }
    @inline(__always) package func localCell(cellColumn: Int, cellRow: Int) -> UInt32 {
        UInt32((cellRow % cellsPerTile) * cellsPerTile + cellColumn % cellsPerTile)
    }

    /// The row of the 0.1° tile holding `latitude`, and the column of the one holding `longitude`, whatever the cells;
    /// a tile's key is `tileRow × tileColumns + tileColumn`.
    @inline(__always) package static func tileRow(_ latitude: Double) -> Int {
        min(1799, max(0, Int(((latitude + 90) / tileDegrees).rounded(.down))))
    }
    @inline(__always) package static func tileColumn(_ longitude: Double) -> Int {
        min(tileColumns - 1, max(0, Int(((longitude + 180) / tileDegrees).rounded(.down))))
    }
    @inline(__always) package static func tileKey(row: Int, column: Int) -> UInt32 { UInt32(row * tileColumns + column) }

    /// The rows and columns of the 0.1° tiles a box touches (edges included).
    package static func tiles(touching box: BoundingBox) -> (rows: ClosedRange<Int>, columns: ClosedRange<Int>) {
        (tileRow(box.minY)...tileRow(box.maxY), tileColumn(box.minX)...tileColumn(box.maxX))
    }
}
