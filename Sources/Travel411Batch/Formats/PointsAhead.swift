import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The records of a chunk, split once, and the points of its rows, read before the rows are answered, so
/// that the answer for one row can start the cache hints (`ReverseGeocoder.prefetch`) for the rows a few
/// places after it: the first reads of their lookups then come from the cache instead of each waiting for
/// memory in turn. The rows are then written from the fields split here (splitting each record a second time
/// was a tenth of a four-field batch's instructions).
struct PointsAhead {
    /// Rows between two stages of one point's hints: enough for a stage's lines to arrive before the next
    /// stage reads them, few enough that they are still in the cache when the point is answered.
    static let rowsPerStage = 2

    /// A non-blank record: how it was split, the line it starts on, and where its fields are in `cells`.
    struct Row {
        var record: DelimitedRecord
        var line: Int
        var firstCell: Int
        var cellCount: Int
    }

    /// Where each non-blank row's point lies, in order; `.none` for a row without a valid point.
    private var points: [LookupPrefetch.Spot] = []
    /// Each non-blank row's latitude and longitude, as `CoordinateReader` read them; NaN for a row without a
    /// valid point. The rows' answers take them from here: each number is parsed once.
    private var values: [SIMD2<Double>] = []
    /// The non-blank records, in order.
    private(set) var rows: [Row] = []
    /// Every record's fields, side by side (a blank record's are dropped again).
    private(set) var cells: [InputCell] = []

    /// Splits every record of `bytes[..<end]`, the first starting on line `firstLine`, and reads its point as
    /// `DelimitedChunkProcessor.process` will use it; blank lines are no rows.
    mutating func read(
        _ bytes: UnsafePointer<UInt8>, end: Int, firstLine: Int, layout: DelimitedLayout, splitter: DelimitedRecordSplitter,
        coordinates: CoordinateReader
    ) {
        points.removeAll(keepingCapacity: true)
        values.removeAll(keepingCapacity: true)
        rows.removeAll(keepingCapacity: true)
        cells.removeAll(keepingCapacity: true)
        var index = 0
        var line = firstLine
        while index < end {
            let firstCell = cells.count
            let record = splitter.split(bytes, from: index, to: end, appendingTo: &cells)
            let recordLine = line
            line &+= record.lines
            index = record.next
            if DelimitedRecordSplitter.isBlank(cells, from: firstCell) {
                cells.removeLast(cells.count &- firstCell)
                continue
            }
            let cellCount = cells.count &- firstCell
            rows.append(Row(record: record, line: recordLine, firstCell: firstCell, cellCount: cellCount))
            guard !record.isUnterminated, cellCount == layout.columnCount,
                case .point(let point) = coordinates.read(
                    latitude: cells[firstCell &+ layout.latitudeColumn], longitude: cells[firstCell &+ layout.longitudeColumn], in: bytes)
            else {
                points.append(.none)
                values.append(SIMD2(repeating: .nan))
                continue
            }
            points.append(LookupPrefetch.Spot(Coordinate(latitude: point.latitude, longitude: point.longitude)))
            values.append(SIMD2(point.latitude, point.longitude))
        }
    }

    /// The valid point of non-blank row `row` (its latitude and longitude), nil when it has none.
    @inline(__always)
    func coordinate(ofRow row: Int) -> SIMD2<Double>? {
        guard row < values.count, !values[row].x.isNaN else { return nil }
        return values[row]
    }

    /// The hints due when row `row` is about to be answered: stage `s` for the row `(stages - s) ×
    /// rowsPerStage` after it.
    @inline(__always)
    func prefetch<Printer: PlacemarkPrinter>(after row: Int, printer: Printer, needs: PlacemarkNeeds) {
        let stages = ReverseGeocoder.prefetchStages
        for stage in 0..<stages {
            let target = row + (stages - stage) * Self.rowsPerStage
            guard target < points.count else { continue }
            let spot = points[target]
            if !spot.isNone { printer.prefetch(spot, stage: stage, needs: needs) }
        }
    }
}
