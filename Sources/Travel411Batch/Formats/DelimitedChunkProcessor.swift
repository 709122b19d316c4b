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
    private var cells: [InputCell] = []
    /// The chunk's points, read before any is answered, for the cache hints (`LookupPrefetch`).
    private var pointsAhead = PointsAhead()

    init(layout: DelimitedLayout, encoder: RowEncoder, printer: any PlacemarkPrinter) {
        self.layout = layout
        self.splitter = DelimitedRecordSplitter(delimiter: layout.delimiter)
        coordinates = CoordinateReader(decimalMark: DecimalMark(fieldDelimiter: layout.delimiter))
        self.encoder = encoder
        self.printer = printer
        cells.reserveCapacity(max(16, layout.columnCount + 4))
    }

    func process(_ chunk: InputChunk, into output: GrowableByteArray) -> RowCounts {
        var counts = RowCounts()
        // Work on a local array: a class's stored array pays an exclusivity check per access.
        var cells: [InputCell] = []
        swap(&cells, &self.cells)
        defer { swap(&cells, &self.cells) }
        // Locals, so the loop does not retain shared objects (the closure's context) per row.
        let printer = self.printer
        let encoder = self.encoder
        let layout = self.layout
        let bytes = UnsafePointer(chunk.buffer.base)
        let end = chunk.length
        var ahead = PointsAhead()
        swap(&ahead, &pointsAhead)
        defer { swap(&ahead, &pointsAhead) }
        ahead.read(bytes, end: end, layout: layout, splitter: splitter, coordinates: coordinates, cells: &cells)
        let needs = encoder.needs
        var row = 0
        var line = chunk.unitsBefore + 1
        var index = 0
        while index < end {
            let record = splitter.split(bytes, from: index, to: end, into: &cells)
            let recordLine = line
            line += record.lines
            index = record.next
            if DelimitedRecordSplitter.isBlank(cells) { continue }
            counts.rows += 1
            ahead.prefetch(after: row, printer: printer, needs: needs)
            let parsed = ahead.coordinate(ofRow: row)
            row += 1

            let problem: String?
            var point: RowPoint?
            if record.isUnterminated {
                problem = "a quoted field is not closed before the end of the input"
            } else if cells.count != layout.columnCount {
                problem = "expected \(layout.columnCount) fields, found \(cells.count)"
            } else if let parsed {
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
            cells.withUnsafeBufferPointer { cellBuffer in
                encoder.appendGeocodedRow(
                    bytes, input: .columns(cellBuffer, rawRecord: isWellFormed ? record.start..<record.contentEnd : nil),
                    point: point, problem: "line \(recordLine): \(problem ?? "no coordinate")", printer: printer, to: output)
            }
        }
        return counts
    }
}
