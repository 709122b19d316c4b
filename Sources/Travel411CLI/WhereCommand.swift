import ArgumentParser
import Foundation
import Travel411Answers
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411NominatimAPI

package struct WhereCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "where",
        abstract: "Turn coordinates into placemarks: country, area, locality, street, postcode, time zone, water.",
        discussion: """
            One point: give LAT LON or "LAT,LON".
              travel411 where 51.47 -0.45
              travel411 where "51.5174,-0.1200" --format json

            Many points: give no coordinate and pipe them in, or name a file with --input. CSV, TSV, \
            JSON Lines and GeoJSON are read (the format comes from --input-format, else the file \
            extension, else the content) and written (--format csv|tsv|jsonl|geojson; by default the \
            input's format). Every input row gives exactly one output row, in order, with the input's \
            columns kept, the placemark fields appended and an `error` column saying why a row could \
            not be geocoded. Exit status 65 when some rows carry errors. CSV whose header has more \
            semicolons than commas is read as semicolon-separated, with decimal commas (51,47), and \
            written back with semicolons; --delimiter names the delimiter when that guess is wrong.
              travel411 where --input points.csv > placemarks.csv
              cat points.jsonl | travel411 where --format csv --fields country,locality,timeZone
            """)

    @Argument(
        help: ArgumentHelp(
            "Latitude and longitude in degrees, as two arguments or one \"LAT,LON\". None: read points from --input or standard input.",
            valueName: "coordinate"))
    var coordinate: [String] = []

    @OptionGroup var database: PlacesDatabaseOptions

    @Option(
        help: ArgumentHelp(
            "Output: text (the default), json, geojson, nominatim, csv, tsv or jsonl for one point; csv, tsv, jsonl (or json) or geojson for many (default: the input's format).",
            valueName: "format"))
    var format: WhereOutputFormat?

    @Option(help: ArgumentHelp("Read points from this file ('-' for standard input).", valueName: "file"))
    var input: String?

    @Option(
        help: ArgumentHelp(
            "Write many points' output to this file instead of standard output. It appears only when the run is complete (a temporary file renamed into place), so an interrupted run leaves no partial file.",
            valueName: "file"))
    var output: String?

    @Option(help: ArgumentHelp("Input format (default: from the extension, else the content).", valueName: "format"))
    var inputFormat: BatchFormat?

    @Option(
        help: ArgumentHelp(
            "CSV input's field delimiter, by name or as the character itself (default: ';' when the header has more semicolons than commas, else ','). CSV output uses it too.",
            valueName: "char"))
    var delimiter: CSVDelimiter?

    @Option(help: ArgumentHelp("The input column holding latitudes (default: lat, latitude, y, ...).", valueName: "name"))
    var latColumn: String?

    @Option(help: ArgumentHelp("The input column holding longitudes (default: lon, lng, long, longitude, x, ...).", valueName: "name"))
    var lonColumn: String?

    @Option(
        help: ArgumentHelp(
            "Placemark fields to append, comma-separated (default: all): \(PlacemarkField.standard.map(\.rawValue).joined(separator: ",")). Also osmType,osmId: the OpenStreetMap object answering, on a database with extracts.",
            valueName: "list"))
    var fields: String?

    @Option(help: ArgumentHelp("Worker threads for many points (default: every core).", valueName: "n"))
    var jobs: Int?

    @Option(
        help: ArgumentHelp(
            "How far the nearest named street may be to be the thoroughfare (default: 100; 500 on a database imported from OpenStreetMap extracts).",
            valueName: "metres"))
    var thoroughfareRadius: Double?

    @Option(
        help: ArgumentHelp(
            "How far the nearest postcode centroid may be to give the postalCode (default: 200; 5000 on a database imported from OpenStreetMap extracts).",
            valueName: "metres"))
    var postcodeRadius: Double?

    @Option(
        help: ArgumentHelp(
            "How fine the answer is, as Nominatim's zoom: 3 country, 5 state, 8 county, 10 city, 14 suburb, 16 major street (on an OpenStreetMap database), 17 street, 18 building.",
            valueName: "0-18"))
    var zoom: Int = 18

    @Option(
        help: ArgumentHelp(
            "Which kinds of object may answer, as Nominatim's layer: address (streets and house numbers), poi (points of interest, at zoom 18), or both, the default; railway, natural and manmade are not imported and find nothing.",
            valueName: "list"))
    var layer: String?

    /// `--layer` as Nominatim reads `layer`; checked in `validate`.
    private var layers: ReverseLayers { layer.flatMap { try? ReverseLayers(list: $0) } ?? .standard }

    @Option(
        help: ArgumentHelp(
            "Name places in these languages, the first one first, as Nominatim's accept-language (\"sv,fi\"): OpenStreetMap streets, objects and areas by their name:xx tags, else their name; countries and first-level areas of Natural Earth by its names (default: names as stored).",
            valueName: "list"))
    var language: String?

    @Flag(
        help:
            "After one point's answer (text), say where its country, city and postcode come from: the source, the rule that chose each, and the candidates near a border."
    )
    var explain = false

    private var isBatch: Bool { coordinate.isEmpty }

    /// `--language` as Nominatim reads accept-language.
    private var languages: [String] { AcceptLanguage.languages(language ?? "") }

    package init() {}

    package func validate() throws {
        for (name, value) in [("--thoroughfare-radius", thoroughfareRadius ?? 0), ("--postcode-radius", postcodeRadius ?? 0)]
        where !(value >= 0 && value <= 10_000) {
            throw ValidationError("\(name) must be between 0 and 10000 metres; got \(value)")
        }
        guard (0...18).contains(zoom) else { throw ValidationError("--zoom must be between 0 and 18; got \(zoom)") }
        if let layer {
            do { _ = try ReverseLayers(list: layer) } catch { throw ValidationError("--layer \(error.message)") }
        }
        if let language, languages.isEmpty { throw ValidationError("--language names no language: '\(language)'") }
        if isBatch {
            // Waiting on a terminal for points nobody is typing would look like a hang.
            if input == nil, isatty(STDIN_FILENO) != 0 {
                throw ValidationError("give a coordinate (LAT LON or \"LAT,LON\"), or points on standard input or with --input FILE")
            }
            _ = try batchOptions()
        } else {
            guard input == nil else { throw ValidationError("give either a coordinate or --input, not both") }
            guard output == nil else { throw ValidationError("--output is for many points; one point prints to standard output") }
            guard inputFormat == nil, delimiter == nil else {
                throw ValidationError("--input-format and --delimiter are for many points; one coordinate needs neither")
            }
            if format == .nominatim, fields != nil {
                throw ValidationError("--fields does not apply to --format nominatim, whose keys are Nominatim's")
            }
            _ = try singlePointFields()
            _ = try parsedCoordinate()
        }
        if explain, isBatch || (format ?? .text) != .text {
            throw ValidationError("--explain is for one point answered as text")
        }
    }

    package func run() throws {
        isBatch ? try runBatch() : try runSingle()
    }

    // MARK: One point

    func parsedCoordinate() throws -> Coordinate {
        guard coordinate.count <= 2 else { throw ValidationError("give one coordinate as LAT LON or \"LAT,LON\"") }
        return try CoordinateArguments.coordinate(from: coordinate, naming: nil)
    }

    private func singlePointFields() throws -> [PlacemarkField]? {
        guard let fields else { return nil }
        do { return try BatchOptions.fields(parsing: fields) } catch {
            throw ValidationError("--fields: \(error.localizedDescription)")
        }
    }

    private func runSingle() throws {
        let point = try parsedCoordinate()
        let fields = try singlePointFields()
        let geocoder = try openGeocoder(loading: .onDemand)
        // csv, tsv and jsonl print what many points print for a file holding this one point.
        if let format, format.placemarkFormat == nil, let batchFormat = format.batchFormat {
            try printAsOneRow(point, format: batchFormat, fields: fields ?? PlacemarkField.standard, geocoder: geocoder)
            return
        }
        let placemark = try namer(geocoder)(point)
        // An answer given without a damaged part of the database is not printed as if it were whole.
        try geocoder.checkIndex()
        if format == .nominatim {
            print(NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: zoom, licence: geocoder.licence)))
            return
        }
        if let layer, !layers.contains(.address), !placemark.namesAPlace {
            // Without addresses an answer may be empty, which would otherwise look like a database with nothing in it.
            Diagnostics.warning(
                "nothing of --layer \(layer) answers here (railway, natural and manmade objects are not imported; poi needs --zoom 18 and an extract's points of interest)"
            )
        }
        let placemarkFormat = format?.placemarkFormat ?? .text
        if let fields, let text = PlacemarkFormatter.format(placemark, as: placemarkFormat, fields: fields) {
            print(text)
        } else {
            print(PlacemarkFormatter.format(placemark, as: placemarkFormat))
        }
        if explain { for line in geocoder.explanation(for: point) { print(line) } }
    }

    /// One point through the batch, as a one-row file with `lat` and `lon` columns (JSON Lines for
    /// jsonl, so that the coordinates stay numbers).
    private func printAsOneRow(_ point: Coordinate, format: BatchFormat, fields: [PlacemarkField], geocoder: ReverseGeocoder) throws {
        let latitude = Coordinate.format(point.latitude), longitude = Coordinate.format(point.longitude)
        let inputFormat: BatchFormat = format == .jsonl ? .jsonl : .csv
        let row =
            inputFormat == .jsonl
            ? "{\"lat\":\(latitude),\"lon\":\(longitude)}\n" : "lat,lon\n\(latitude),\(longitude)\n"
        var options = BatchOptions(outputFormat: format, jobs: 1, showProgress: false, printsSummary: false)
        options.inputFormat = inputFormat
        options.fields = fields
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw BatchError("cannot make a pipe: \(String(cString: strerror(errno)))") }
        defer { close(ends[0]) }
        // One row is far below a pipe's buffer, so this write does not wait for the reader.
        let written = row.utf8CString.withUnsafeBufferPointer { write(ends[1], $0.baseAddress, $0.count - 1) }
        close(ends[1])
        guard written == row.utf8.count else { throw BatchError("cannot write to a pipe: \(String(cString: strerror(errno)))") }
        // The geocoder was opened on demand, so it is used from the batch's one worker only (jobs 1).
        let batch = BatchGeocoder(options: options, geocode: try namer(geocoder))
        let summary = try batch.run(inputFD: ends[0], inputName: "-", outputFD: STDOUT_FILENO)
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }

    // MARK: Many points

    private func batchOptions() throws -> BatchOptions {
        var options = BatchOptions()
        options.inputFormat = inputFormat
        if let delimiter {
            options.csvDelimiter = delimiter
            do {
                try options.checkCSVDelimiterApplies(toInputNamed: input ?? "-")
            } catch {
                throw ValidationError(error.localizedDescription)
            }
        }
        // By default the output speaks the --output extension's format, else the input's.
        if let format {
            guard let output = format.batchFormat else {
                throw ValidationError(
                    "--format \(format.rawValue) is for one point; many points print \(BatchFormat.allCases.map(\.rawValue).joined(separator: ", "))"
                )
            }
            options.outputFormat = output
        } else if let outputExtensionFormat = output.flatMap(BatchFormat.init(fileExtensionOf:)) {
            options.outputFormat = outputExtensionFormat
        } else {
            // The input's format once it is known (its content may decide it); this guess sizes the blocks.
            options.outputFormat = inputFormat ?? input.flatMap(BatchFormat.init(fileExtensionOf:)) ?? .csv
            options.outputFormatFollowsInput = true
        }
        options.latColumn = latColumn
        options.lonColumn = lonColumn
        if let fields {
            do { options.fields = try BatchOptions.fields(parsing: fields) } catch {
                throw ValidationError("--fields: \(error.localizedDescription)")
            }
        }
        if let jobs {
            guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
            options.jobs = jobs
        }
        options.showProgress = Diagnostics.stderrIsTerminal
        return options
    }

    private func runBatch() throws {
        var options = try batchOptions()
        // The summary's rate is the whole run's, as a user timing the command sees it.
        options.startedAt = ProcessClock.processStartUptime()
        // A pipe's first bytes are read before the database is opened: one closed after a few rows is small.
        let standardInput = input == nil || input == "-" ? try BatchLoading.peek() : nil
        let geocoder = try openGeocoder(
            loading: standardInput?.loading ?? BatchLoading.loading(forInputPath: input), needs: PlacemarkNeeds(fields: options.fields))
        // Naming in other languages goes through placemarks; without it the batch prints straight from the records.
        let batch =
            languages.isEmpty
            ? BatchGeocoder(options: options, geocoder: geocoder) : BatchGeocoder(options: options, geocode: try namer(geocoder))
        let summary = try geocoder.readingOneSnapshot {
            if let output {
                // Checked inside, so that a file answered without a damaged part never replaces the old one.
                try BatchOutputFile.write(to: output) {
                    let summary = try batch.run(inputPath: input, standardInput: standardInput?.source, outputFD: $0)
                    try geocoder.checkIndex()
                    return summary
                }
            } else {
                try batch.run(inputPath: input, standardInput: standardInput?.source, outputFD: STDOUT_FILENO)
            }
        }
        try geocoder.checkIndex()
        // Left to the process's exit, which follows: freeing the tables object by object only made the batch's end later.
        _ = Unmanaged.passRetained(geocoder)
        if summary.exitCode != 0 { throw ExitCode(summary.exitCode) }
    }

    /// A point's placemark, named in `--language`'s languages when it gives some.
    private func namer(_ geocoder: ReverseGeocoder) throws -> @Sendable (Coordinate) -> Placemark {
        let languages = self.languages
        guard !languages.isEmpty else { return { geocoder.placemark(for: $0) } }
        let names = try NominatimPlaceData(databasePath: geocoder.databasePath)
        return { names.localized(geocoder.placemarkWithNameSources(for: $0), languages: languages) }
    }

    private func openGeocoder(loading: ReverseGeocoder.Loading, needs: PlacemarkNeeds = .all) throws -> ReverseGeocoder {
        let bar = ProgressBar()
        defer { bar.finish() }
        var settings = GeocoderSettings()
        if let thoroughfareRadius {
            settings.thoroughfareRadiusMetres = thoroughfareRadius
            settings.thoroughfareRadiusFromDatabase = false
        }
        if let postcodeRadius {
            settings.postcodeRadiusMetres = postcodeRadius
            settings.postcodeRadiusFromDatabase = false
        }
        settings.detail = NominatimDetail(zoom: zoom)
        settings.maximumRank = NominatimDetail.maximumRank(zoom: zoom)
        settings.layers = layers
        settings.addressOfTheAnswer = format == .nominatim
        return try PlacesDatabase.openGeocoder(
            explicitPath: database.databasePath, loading: loading, settings: settings, needs: needs,
            announce: Diagnostics.print, progress: bar.update)
    }
}
