import Travel411Core
import Travel411Geocoder

/// Where a CSV/TSV input's values are: decided once from the header (or the first record).
struct DelimitedLayout: Sendable {
    let delimiter: UInt8
    let columnCount: Int
    let latitudeColumn: Int
    let longitudeColumn: Int
}

/// CSV/TSV records → output rows. Every record (blank lines aside) becomes exactly one row.
final class DelimitedChunkProcessor: ChunkProcessor {
    private let layout: DelimitedLayout
    private let splitter: DelimitedRecordSplitter
    private let encoder: RowEncoder
    private let coordinates: CoordinateReader
    private let printer: any PlacemarkPrinter
    /// The printer when it is the geocoder: its rows are then written by code specialised for it, which calls it
    /// directly (through `any PlacemarkPrinter`, every field went through a forwarding stub and a record copy).
    private let geocoder: ReverseGeocoder?
    /// The chunk's records split and its points read, before any is answered (`PointsAhead`).
    private let pointsAhead = PointsAhead()
    /// The order the chunk's rows are answered in, and the buffer their answers go to first when it is not the
    /// input's (`SpatialRowOrder`).
    private let rowOrder = SpatialRowOrder()
    private let reorderedAnswers = GrowableByteArray(capacity: 1 << 20)

    init(layout: DelimitedLayout, encoder: RowEncoder, printer: any PlacemarkPrinter) {
        self.layout = layout
        self.splitter = DelimitedRecordSplitter(delimiter: layout.delimiter)
        coordinates = CoordinateReader(decimalMark: DecimalMark(fieldDelimiter: layout.delimiter))
        self.encoder = encoder
        self.printer = printer
        geocoder = printer as? ReverseGeocoder
    }

    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts {
        if let geocoder { return process(chunk, into: output, printer: geocoder) }
        return process(chunk, into: output, printer: printer)
    }

    private func process<Printer: PlacemarkPrinter>(_ chunk: InputChunk, into output: GrowableByteArray, printer: Printer) -> RowCounts {
        var counts = RowCounts()
        // Locals, so the loop does not retain shared objects (the closure's context) per row.
        let encoder = self.encoder
        let layout = self.layout
        let bytes = UnsafePointer(chunk.buffer.base)
        let ahead = pointsAhead
        ahead.read(
            bytes, end: chunk.length, firstLine: chunk.unitsBefore + 1, layout: layout, splitter: splitter, coordinates: coordinates)
        let needs = encoder.needs
        let rows = ahead.rows, allCells = ahead.cells
        let rowOrder = self.rowOrder
        let order = rowOrder.order(count: rows.count) { rows[$0].point }
        // In the input's order the answers go straight to the output; in another, each where it lies, gathered after.
        let isReordered = rowOrder.isReordered
        let answers = isReordered ? reorderedAnswers : output
        if isReordered { answers.count = 0 }
        for position in 0..<order.count {
            let row = order[position]
            let rowFields = rows[row]
            let record = rowFields.record
            let cells = UnsafeBufferPointer(rebasing: allCells[rowFields.firstCell..<rowFields.firstCell + rowFields.cellCount])
            counts.rows += 1
            PointsAhead.prefetch(after: position, in: order, of: rows, printer: printer, needs: needs)
            if isReordered { PointsAhead.prefetchInput(after: position, in: order, of: rows, cells: allCells, bytes: bytes) }
            let start = answers.count
            defer { if isReordered { rowOrder.noteAnswer(of: row, from: start, to: answers.count) } }
            let isWellFormed = !record.isUnterminated && cells.count == layout.columnCount
            guard isWellFormed, !rowFields.point.x.isNaN else {
                // Read by `PointsAhead` under the same conditions: only a row without a point is read again, for its
                // message, here, out of the loop's way (its optional message was released on every row).
                if !appendRowWithoutPoint(rowFields, cells: cells, bytes, printer: printer, to: answers) { counts.errors += 1 }
                continue
            }
            let point = RowPoint(
                latitude: rowFields.point.x, longitude: rowFields.point.y, latitudeText: cells[layout.latitudeColumn],
                longitudeText: cells[layout.longitudeColumn])
            encoder.appendGeocodedRow(
                bytes, input: .columns(cells, rawRecord: record.start..<record.contentEnd), point: point, problem: "",
                printer: printer, to: answers)
        }
        if isReordered { rowOrder.gather(rows.count, from: answers, to: output) }
        return counts
    }

    /// A row that `PointsAhead` found no point in: its point read again (it finds none) or its problem told, and the
    /// row written; false when it has no point.
    @inline(never)
    private func appendRowWithoutPoint<Printer: PlacemarkPrinter>(
        _ rowFields: PointsAhead.Row, cells: UnsafeBufferPointer<InputCell>, _ bytes: UnsafePointer<UInt8>, printer: Printer,
        to output: GrowableByteArray
    ) -> Bool {
        let record = rowFields.record
        let problem: String?
        var point: RowPoint?
        if record.isUnterminated {
            problem = "a quoted field is not closed before the end of the input"
        } else if cells.count != layout.columnCount {
            problem = "expected \(layout.columnCount) fields, found \(cells.count)"
        } else {
            switch coordinates.read(latitude: cells[layout.latitudeColumn], longitude: cells[layout.longitudeColumn], in: bytes) {
            case .point(let found):
                point = found
                problem = nil
            case .problem(let message):
                problem = message
            }
        }
        let isWellFormed = !record.isUnterminated && cells.count == layout.columnCount
        encoder.appendGeocodedRow(
            bytes, input: .columns(cells, rawRecord: isWellFormed ? record.start..<record.contentEnd : nil), point: point,
            problem: "line \(rowFields.line): \(problem ?? "no coordinate")", printer: printer, to: output)
        return point != nil
    }
}
