import Foundation
import Travel411Core

/// Nearest named line within a radius (streets), read tile by tile from the database: the world is cut
/// into 0.1° tiles (about 11 km), each a page of its own holding the segments that touch it, bucketed in
/// cells of its `TileGrid` (0.0025° for streets). A lookup reads the one to four pages its search circle overlaps, so its
/// cost does not grow with the number of streets in the database; pages once read stay for any thread.
///
/// Directory blob: u32 tileCount, u32 pad, f64 bbox[4] (minX, minY, maxX, maxY), tileKeys[tileCount] u32
/// sorted (row × 3600 + column of the 0.1° tile). Page n of `PageKind.streetTiles` is the tile of key n.
/// Tile page (in memory; stored as `StreetTileCoding` writes it): u32 cellCount, u32 segmentCount, u32 refCount,
/// u32 runCount, cellKeys[cellCount] u32 (row × cellsPerTile + column of the cell inside the tile, sorted),
/// cellRunStarts[cellCount + 1] u32,
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

    /// These tiles again, read through the same `loadPage`, with the tiles already read in the 0.1° tile `rows`
    /// kept and every other let go: a caller walking the world a row at a time reads each page once, not once
    /// per row whose searches reach it.
    package func keeping(rows: ClosedRange<Int>) throws -> StreetTiles {
        let kept = try StreetTiles(directory: directory, grid: grid, onDamage: onDamage, loadPage: loadPage)
        let first = partitionPoint(in: 0..<tileCount) { tileKeys[$0] < UInt32(max(0, rows.lowerBound) * TileGrid.tileColumns) }
        for number in first..<tileCount {
            guard Int(tileKeys[number]) / TileGrid.tileColumns <= rows.upperBound else { break }
            _ = pages.withValue(at: number) { kept.pages.fill(number, with: $0) }
        }
        return kept
    }

    /// The id of the nearest line within `radiusMetres` that `accept` takes (all when nil), with its
    /// distance in metres; ties go to the lower id.
    package func nearest(to point: Coordinate, radiusMetres: Double, accept: ((UInt32) -> Bool)? = nil) -> (id: UInt32, metres: Double)? {
        // `run`'s first test, made before any trigonometry: most points of a batch lie far from every street, and
        // the box's latitudes (the same numbers) need no cosine, its longitudes one.
        let dy = BoundingBox.latitudeDegrees(metres: radiusMetres)
        guard tileCount > 0, !(bounds.minY > point.latitude + dy || bounds.maxY < point.latitude - dy) else { return nil }
        let box = BoundingBox(around: point, metres: radiusMetres)
        guard box.intersects(bounds) else { return nil }
        let metresPerDegreeY = GreatCircle.earthRadiusMetres * .pi / 180
        let metresPerDegreeX = metresPerDegreeY * max(cos(point.latitude * .pi / 180), 1e-6)
        var search = NearestSearch(
            x: point.longitude, y: point.latitude, metresPerDegreeX: metresPerDegreeX, metresPerDegreeY: metresPerDegreeY,
            bestSquared: radiusMetres * radiusMetres)
        run(&search, in: box, accept: accept)
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

    /// Each segment of `line` in the cells `box` touches, in the order `segments(ofLine:in:maxCells:maxSegments:)`
    /// lists them, without gathering them: a whole road of an extract that keeps roads whole (829 nodes, 30 km) is
    /// walked in constant memory where the list would be capped. Only the cells the line occupies are read.
    package func forEachSegment(ofLine line: UInt32, in box: BoundingBox, _ body: (Double, Double, Double, Double) -> Void) {
        guard tileCount > 0, box.intersects(bounds) else { return }
        let rows = grid.cellRow(box.minY)...grid.cellRow(box.maxY)
        let columns = grid.cellColumn(box.minX)...grid.cellColumn(box.maxX)
        var cursor = TileCursor()
        for row in rows {
            forEachTile(row: row, columns: columns, &cursor) { tile, localRow, localColumns, _ in
                tile.forEachOccupiedCell(row: localRow, columns: localColumns) { localColumn in
                    tile.forEachSegment(ofLine: line, row: localRow, column: localColumn, body)
                }
            }
        }
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
            let expanded = try StreetTileCoding.decode(UnsafeRawBufferPointer(start: storage.base, count: storage.count))
            return try StreetTile(storage: expanded, cellsPerTile: grid.cellsPerTile)
        } catch {
            onDamage("\(IndexFormatError.damage(in: error)) of tile \(number)")
            return StreetTile.empty(cellsPerTile: grid.cellsPerTile)
        }
    }

    /// The tile's place in the directory, which numbers its page; nil for a tile without streets.
    private func tileNumber(key: UInt32) -> Int? { sortedPosition(of: key, in: tileKeys, count: tileCount) }
}
