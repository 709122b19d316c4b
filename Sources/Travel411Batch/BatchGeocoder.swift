import Foundation
import Travel411Core
import Travel411Geocoder

/// Geocodes a whole file or stream: reads CSV, TSV, JSON Lines or GeoJSON, appends the placemark
/// fields to every row and writes CSV, TSV, JSON Lines or GeoJSON, in input order.
///
/// Nothing is dropped: every input record gives exactly one output row, and a row that cannot be
/// geocoded carries an `error` saying why. Memory stays flat: input is read in blocks of 128 KiB to 1 MiB and
/// only a few chunks are in flight between reading and writing.
///
/// Input rules:
/// - Format: `options.inputFormat` if set, else the extension (.csv, .tsv/.tab, .jsonl/.ndjson,
///   .geojson), else CSV when `options.csvDelimiter` is set, else the content (`{` with "FeatureCollection" → GeoJSON, `{` → JSON Lines, more
///   tabs than commas on the first line → TSV, else CSV). A UTF-8 byte order mark is skipped.
/// - CSV delimiter: `options.csvDelimiter` if set, else `;` when the header (the first non-blank
///   record, outside quotes) holds more semicolons than commas, else `,`.
/// - CSV/TSV: RFC 4180 quoting (delimiters, doubled quotes and line breaks inside quotes), LF or
///   CRLF. The first non-blank record is the header when it names a latitude and a longitude
///   column (lat, latitude, y, lat_dd, … / lon, lng, long, longitude, x, …, case-insensitive,
///   or exactly `latColumn`/`lonColumn`). Otherwise, if its first two fields are numbers, the
///   input has no header: columns 1 and 2 are latitude and longitude, and the output names them
///   `lat`, `lon`, `column3`, …. Blank lines are not records.
/// - JSON Lines: one object per non-blank line, coordinate keys found like CSV columns; values
///   may be numbers or numeric strings.
/// - GeoJSON: a FeatureCollection whose `features` array is streamed; coordinates come from
///   Point geometries.
///
/// Output: the input's columns (CSV/TSV records are copied verbatim when the output has the same
/// delimiter, and CSV output has a CSV input's delimiter), then the chosen placemark fields named as `PlacemarkField`, then `error`. CSV/TSV
/// output from JSON takes its columns from the first object (or first feature's properties);
/// GeoJSON written as a table or as JSON Lines gains `latitude` and `longitude`. An input column
/// named like an added one is renamed `input_<name>`. Absent values are empty in CSV/TSV and null
/// in JSON; `distance` is a JSON number; a JSON Lines row that is not an object keeps its text
/// under "input".
public struct BatchGeocoder {
    public let options: BatchOptions
    private let printer: any PlacemarkPrinter

    /// Input is read in blocks of this size, and chunks are about this size: large enough that a chunk's rows,
    /// answered in the order of their places (`SpatialRowOrder`), share the tiles and cells they read (a megabyte is
    /// about 30,000 rows of `lat,lon`; the bench's million points took about a tenth less CPU than in chunks of a
    /// quarter of it: docs/where.md). JSON output repeats every key on every row (~15x the input of a small CSV), so it gets smaller
    /// blocks to keep the chunks in flight within the memory budget. Tests shrink it to exercise records that
    /// straddle blocks.
    var blockSize: Int
    /// A record longer than this stops the run: it means a runaway quote or bracket.
    static let maximumRecordBytes = 64 << 20

    /// Geocodes with `geocoder`, which must be opened `.everything`: it is used from several threads at once.
    public init(options: BatchOptions, geocoder: ReverseGeocoder) {
        self.init(options: options, printer: geocoder)
    }

    /// Geocodes with any function returning placemarks (called from several threads at once, once
    /// per printed field): exact but slower, for tests and other callers.
    public init(options: BatchOptions, geocode: @escaping @Sendable (Coordinate) -> Placemark) {
        self.init(options: options, printer: ClosurePlacemarkPrinter(geocode))
    }

    package init(options: BatchOptions, printer: any PlacemarkPrinter) {
        self.options = options
        self.printer = printer
        blockSize = options.outputFormat == .csv || options.outputFormat == .tsv ? 1 << 20 : 128 << 10
    }

    /// Runs the batch from `source` to `sink`. `inputName` is the file's path (its extension picks the
    /// format) or "-" for standard input; it names the input in messages. Progress and the summary go to
    /// `events`; nothing is printed. Throws `BatchError` for problems that stop the whole run (unreadable
    /// input, no coordinate columns, a failed write).
    public func run(
        source input: any BatchByteSource, inputName: String, sink: any BatchByteSink, events: BatchEvents = BatchEvents()
    ) throws -> BatchSummary {
        let started = options.startedAt ?? ProcessInfo.processInfo.systemUptime
        let displayName = inputName.isEmpty || inputName == "-" ? "standard input" : inputName
        let inputPool = BufferPool(initialCapacity: blockSize + (64 << 10))
        let source = ChunkSource(
            source: input, inputName: displayName, blockSize: blockSize,
            maximumRecordBytes: Self.maximumRecordBytes, pool: inputPool)
        defer { source.close() }

        try source.fillFirstLine(limit: 64 << 10)
        if source.buffer.count >= 3, source.buffer.base[0] == 0xEF, source.buffer.base[1] == 0xBB, source.buffer.base[2] == 0xBF {
            source.discard(prefix: 3, units: 0)
        }
        let format = try InputFormatDetector.format(
            explicit: options.inputFormat, csvDelimiter: options.csvDelimiter, inputName: inputName, sample: source.buffer.bytes)
        var options = self.options
        if options.outputFormatFollowsInput { options.outputFormat = format }
        let prepared = try InputPreparation.prepare(format: format, source: source, options: options, printer: printer)

        let output = OutputWriter(sink: sink, dropBeforeFirstRow: prepared.layout.rowSeparatorToDropAtStart)
        try output.writeFraming(prepared.layout.prologue())
        let layout = prepared.layout
        let progress = events.progress.map { report in
            { @Sendable (counts: RowCounts) in
                report(BatchProgress(rows: counts.rows, errors: counts.errors, seconds: ProcessInfo.processInfo.systemUptime - started))
            }
        }
        let pipeline = ChunkPipeline(
            jobs: options.jobs, output: output, outputBufferCapacity: 4 * blockSize, progress: progress,
            makeProcessor: { prepared.makeProcessor(RowEncoder(layout: layout, inputDelimiter: prepared.inputDelimiter)) })
        let counts = try Self.runPipeline(pipeline, source: source, framer: prepared.framer, inputPool: inputPool)
        try output.writeFraming(prepared.layout.epilogue())

        let summary = BatchSummary(rows: counts.rows, errors: counts.errors, seconds: ProcessInfo.processInfo.systemUptime - started)
        events.finished?(summary)
        return summary
    }

    /// Runs the batch between file descriptors, reporting on stderr as `options` say (`showProgress`,
    /// `printsSummary`).
    public func run(inputFD: Int32, inputName: String, outputFD: Int32) throws -> BatchSummary {
        let displayName = inputName.isEmpty || inputName == "-" ? "standard input" : inputName
        return try run(
            source: FileDescriptorSource(fd: inputFD, name: displayName), inputName: inputName, sink: FileDescriptorSink(fd: outputFD),
            events: .standardError(showProgress: options.showProgress, printsSummary: options.printsSummary))
    }

    /// `where --input` as the CLI sees it: `inputPath` is a file, or nil or "-" for standard
    /// input, read from `standardInput` when given (what `BatchLoading.peek` returned); output goes to
    /// `outputFD` (standard output by default).
    public func run(inputPath: String?, standardInput: (any BatchByteSource)? = nil, outputFD: Int32 = STDOUT_FILENO) throws
        -> BatchSummary
    {
        guard let inputPath, inputPath != "-" else {
            guard let standardInput else { return try run(inputFD: STDIN_FILENO, inputName: "-", outputFD: outputFD) }
            return try run(
                source: standardInput, inputName: "-", sink: FileDescriptorSink(fd: outputFD),
                events: .standardError(showProgress: options.showProgress, printsSummary: options.printsSummary))
        }
        let fd = open(inputPath, O_RDONLY)
        guard fd >= 0 else { throw BatchError("cannot open \(inputPath): \(String(cString: strerror(errno)))", exitStatus: .noInput) }
        defer { close(fd) }
        var status = stat()
        if fstat(fd, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR {
            throw BatchError("cannot read \(inputPath): it is a directory")
        }
        return try run(inputFD: fd, inputName: inputPath, outputFD: outputFD)
    }

    /// Opens the framer's concrete type so the per-block scan is a direct call.
    private static func runPipeline<Framer: RecordFramer>(
        _ pipeline: ChunkPipeline, source: ChunkSource, framer: Framer, inputPool: BufferPool
    ) throws -> RowCounts {
        var framer = framer
        return try pipeline.run(source: source, framer: &framer, inputPool: inputPool)
    }
}
