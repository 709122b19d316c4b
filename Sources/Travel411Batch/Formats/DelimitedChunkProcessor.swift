import Travel411Core

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
    /// The chunk's records split and its points read, before any is answered (`PointsAhead`).
    private var pointsAhead = PointsAhead()

    init(layout: DelimitedLayout, encoder: RowEncoder, printer: any PlacemarkPrinter) {
        self.layout = layout
        self.splitter = DelimitedRecordSplitter(delimiter: layout.delimiter)
        coordinates = CoordinateReader(decimalMark: DecimalMark(fieldDelimiter: layout.delimiter))
        self.encoder = encoder
        self.printer = printer
    }

    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts {
        var counts = RowCounts()
        // Locals, so the loop does not retain shared objects (the closure's context) per row, and works on a
        // local `PointsAhead`: a class's stored arrays pay an exclusivity check per access.
        let printer = self.printer
        let encoder = self.encoder
        let layout = self.layout
        let bytes = UnsafePointer(chunk.buffer.base)
        var ahead = PointsAhead()
        swap(&ahead, &pointsAhead)
        defer { swap(&ahead, &pointsAhead) }
        ahead.read(
            bytes, end: chunk.length, firstLine: chunk.unitsBefore + 1, layout: layout, splitter: splitter, coordinates: coordinates)
        let needs = encoder.needs
        ahead.cells.withUnsafeBufferPointer { allCells in
            for (row, rowFields) in ahead.rows.enumerated() {
                let record = rowFields.record
                let cells = UnsafeBufferPointer(rebasing: allCells[rowFields.firstCell..<rowFields.firstCell + rowFields.cellCount])
                counts.rows += 1
                ahead.prefetch(after: row, printer: printer, needs: needs)
                let problem: String?
                var point: RowPoint?
                if record.isUnterminated {
                    problem = "a quoted field is not closed before the end of the input"
                } else if cells.count != layout.columnCount {
                    problem = "expected \(layout.columnCount) fields, found \(cells.count)"
                } else if let parsed = ahead.coordinate(ofRow: row) {
                    // Read by `PointsAhead` under the same conditions: only a row without a point is read again, for its message.
                    point = RowPoint(
                        latitude: parsed.x, longitude: parsed.y, latitudeText: cells[layout.latitudeColumn],
                        longitudeText: cells[layout.longitudeColumn])
                    problem = nil
                } else {
                    switch coordinates.read(latitude: cells[layout.latitudeColumn], longitude: cells[layout.longitudeColumn], in: bytes) {
                    case .point(let found):
                        point = found
                        problem = nil
                    case .problem(let message):
                        problem = message
                    }
                }
                if point == nil { counts.errors += 1 }
                let isWellFormed = !record.isUnterminated && cells.count == layout.columnCount
                encoder.appendGeocodedRow(
                    bytes, input: .columns(cells, rawRecord: isWellFormed ? record.start..<record.contentEnd : nil),
                    point: point, problem: "line \(rowFields.line): \(problem ?? "no coordinate")", printer: printer, to: output)
            }
        }
        return counts
    }
}
