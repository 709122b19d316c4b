import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The records of a chunk, split once, and the points of its rows, read before the rows are answered, so
/// that the answer for one row can start the cache hints (`ReverseGeocoder.prefetch`) for the rows a few
/// places after it: the first reads of their lookups then come from the cache instead of each waiting for
/// memory in turn. The rows are then written from the fields split here (splitting each record a second time
/// was a tenth of a four-field batch's instructions).
final class PointsAhead {
    /// Rows between two stages of one point's hints: enough for a stage's lines to arrive before the next
    /// stage reads them, few enough that they are still in the cache when the point is answered.
    static let rowsPerStage = 2

    /// A non-blank record: how it was split, the line it starts on, where its fields are in `cells`, and its
    /// point as `CoordinateReader` read it (NaN, and `spot` none, for a row without a valid point): the rows'
    /// answers take it from here, so each number is parsed once.
    struct Row {
        var record: DelimitedRecord
        var line: Int
        var firstCell: Int
        var cellCount: Int
        var point: SIMD2<Double>
        /// Where the point lies, for its cache hints.
        var spot: LookupPrefetch.Spot
    }

    /// The non-blank records, in order, and every record's fields side by side (a blank record's are dropped
    /// again): one allocation each, reused chunk after chunk.
    private var rowStore = GrowingBuffer<Row>(capacity: 4096)
    private var cellStore = GrowingBuffer<InputCell>(capacity: 4096 * 4)

    deinit {
        rowStore.deallocate()
        cellStore.deallocate()
    }

    /// The rows of the chunk read last, valid until the next `read`.
    var rows: UnsafeBufferPointer<Row> { rowStore.elements }
    /// Their fields, valid until the next `read`.
    var cells: UnsafeBufferPointer<InputCell> { cellStore.elements }

    /// Splits every record of `bytes[..<end]`, the first starting on line `firstLine`, and reads its point as
    /// `DelimitedChunkProcessor.process` will use it; blank lines are no rows.
    func read(
        _ bytes: UnsafePointer<UInt8>, end: Int, firstLine: Int, layout: DelimitedLayout, splitter: DelimitedRecordSplitter,
        coordinates: CoordinateReader
    ) {
        // Filled as locals: a class's stored buffers paid an exclusivity check at every append.
        var rows = rowStore
        var cells = cellStore
        defer {
            rowStore = rows
            cellStore = cells
        }
        rows.removeAll()
        cells.removeAll()
        var index = 0
        var line = firstLine
        while index < end {
            let firstCell = cells.count
            let record =
                splitter.splitUnquoted(bytes, from: index, to: end, appendingTo: &cells)
                ?? splitter.split(bytes, from: index, to: end, appendingTo: &cells)
            let recordLine = line
            line &+= record.lines
            index = record.next
            let cellCount = cells.count &- firstCell
            let fields = UnsafeBufferPointer(start: cells.base + firstCell, count: cellCount)
            if DelimitedRecordSplitter.isBlank(fields) {
                cells.truncate(to: firstCell)
                continue
            }
            var row = Row(
                record: record, line: recordLine, firstCell: firstCell, cellCount: cellCount, point: SIMD2(repeating: .nan),
                spot: .none)
            if !record.isUnterminated, cellCount == layout.columnCount {
                let latitude = fields[layout.latitudeColumn], longitude = fields[layout.longitudeColumn]
                var point = coordinates.plainPoint(latitude: latitude, longitude: longitude, in: bytes)
                if point == nil, case .point(let found) = coordinates.read(latitude: latitude, longitude: longitude, in: bytes) {
                    point = SIMD2(found.latitude, found.longitude)
                }
                if let point {
                    row.point = point
                    row.spot = LookupPrefetch.Spot(Coordinate(latitude: point.x, longitude: point.y))
                }
            }
            rows.append(row)
        }
    }

    /// The hints due when the row at `position` of `order` is about to be answered: stage `s` for the row `(stages -
    /// s) × rowsPerStage` places after it in `order`, all three in one call.
    @inline(__always)
    static func prefetch<Printer: PlacemarkPrinter>(
        after position: Int, in order: UnsafeBufferPointer<Int>, of rows: UnsafeBufferPointer<Row>, printer: Printer,
        needs: PlacemarkNeeds
    ) {
        let count = order.count
        @inline(__always) func spot(_ target: Int) -> LookupPrefetch.Spot { target < count ? rows[order[target]].spot : .none }
        printer.prefetch(
            stages: (spot(position &+ 3 &* rowsPerStage), spot(position &+ 2 &* rowsPerStage), spot(position &+ rowsPerStage)),
            needs: needs)
    }

    /// Rows answered out of the input's order (`SpatialRowOrder`) read their split fields and bytes from all over
    /// the chunk: the row `2 × inputRowsAhead` places on has its table entry brought closer, and the one
    /// `inputRowsAhead` places on (whose entry came before) its cells and record.
    static let inputRowsAhead = 8

    @inline(__always)
    static func prefetchInput(
        after position: Int, in order: UnsafeBufferPointer<Int>, of rows: UnsafeBufferPointer<Row>, cells: UnsafeBufferPointer<InputCell>,
        bytes: UnsafePointer<UInt8>
    ) {
        guard let rowBase = rows.baseAddress, let cellBase = cells.baseAddress else { return }
        let far = position &+ 2 &* inputRowsAhead, near = position &+ inputRowsAhead
        if far < order.count {
            // A row spans two cache lines, and its spot (read for the hints six rows before its turn) lies in the
            // second: hint both.
            let entry = UnsafeRawPointer(rowBase + order[far])
            LookupPrefetch.hint(entry)
            LookupPrefetch.hint(entry + (MemoryLayout<Row>.stride - 1))
        }
        guard near < order.count else { return }
        let row = rowBase[order[near]]
        // A few columns' cells span two or three lines: hint the first cell's and the last's.
        LookupPrefetch.hint(cellBase + row.firstCell)
        LookupPrefetch.hint(cellBase + (row.firstCell &+ max(row.cellCount, 1) &- 1))
        LookupPrefetch.hint(bytes + row.record.start)
    }
}
