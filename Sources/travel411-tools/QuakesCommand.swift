import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Geocoder
import Travel411Guide
import Travel411Import

struct QuakesCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.quakes.rawValue,
        abstract: ToolsCommand.quakes.abstract,
        discussion: """
            SOURCE is a USGS summary feed in CSV or GeoJSON (told apart by content): a file, - for \
            standard input, or an https:// URL such as \
            https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/4.5_month.geojson (plain http:// \
            only for localhost). Each event gets our own description beside USGS's place. Events are \
            listed most recent first; with --near or --near-destination, nearest first, with the \
            distance and bearing. Malformed rows or features are skipped with a warning naming their \
            line or index, and the command then exits with 65. A URL that cannot be fetched exits with 69.
              travel411 quakes 4.5_month.geojson --last 10
              travel411 quakes 4.5_month.geojson --near 35.68 139.69 --radius 300
              travel411 quakes 2.5_month.csv --near-destination --since 7d --format json
            """)

    enum Format: String, ExpressibleByArgument, CaseIterable { case text, json, csv, geojson }

    @Argument(help: ArgumentHelp("A USGS feed: a file, - for standard input, or an https:// URL.", valueName: "source"))
    var source: String?

    @Option(help: ArgumentHelp("Keep the N most recent events (the app showed 300).", valueName: "n"))
    var last: Int?

    @Option(help: ArgumentHelp("Keep events of at least this magnitude.", valueName: "m"))
    var minMagnitude: String?

    @Option(
        help: ArgumentHelp(
            "Keep events at or after this time: ISO 8601 (2024-08-01, 2024-08-01T12:00Z) or a duration back from now such as 7d, 12h or 30m (units \(QuakeSince.units)).",
            valueName: "time"))
    var since: String?

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Keep events within --radius of this point, nearest first.", valueName: "lat lon"))
    var near: [String] = []

    @Option(
        defaultAsFlag: "", parsing: .next,
        help: ArgumentHelp(
            "Keep events within --radius of a destination's City, nearest first (no name: the current destination).", valueName: "name"))
    var nearDestination: String? = nil

    @Option(
        help: ArgumentHelp(
            "The radius for --near and --near-destination, in km (default: \(JSONText.number(QuakeFilter.defaultRadiusKilometres))).",
            valueName: "km"))
    var radius: String?

    @Option(help: "Output format.")
    var format: Format = .text

    @Option(
        help: ArgumentHelp(
            "Also draw the events on a map, as `travel411 map` draws: a file (.svg, .png or .pdf), or 'terminal' to draw it after the table. Each event is a circle 0.75 points wide per unit of squared magnitude, from yellow to red.",
            valueName: "file"))
    var map: String?

    // Hidden, as `map --check-layout` is (docs/map.md).
    @Flag(
        help: ArgumentHelp(
            "With --map: fail, naming them on stderr, when two things drawn overlap or one is cut by the frame.", visibility: .hidden))
    var checkLayout = false

    @Option(help: ArgumentHelp("How long to wait for a URL's server, in seconds.", valueName: "seconds"))
    var timeout: Double = 60

    /// `--state` (for --near-destination) and `--db`, as every travel command has them.
    @OptionGroup var travel: TravelStateOptions

    private var database: PlacesDatabaseOptions { travel.database }

    // MARK: Checking the command line

    /// `quakes --near-destination feed.csv` reads the feed as the destination's name; when no SOURCE
    /// follows and that "name" is plainly a feed, it is the SOURCE, near the current destination.
    private var resolved: (source: String, destination: String?) {
        if let source { return (source, nearDestination) }
        if let name = nearDestination, !name.isEmpty, name == "-" || name.contains("://") || FileManager.default.fileExists(atPath: name) {
            return (name, "")
        }
        return ("", nearDestination)
    }

    func validate() throws {
        if let map, map != "terminal", MapOutputFormat(fileExtension: URL(fileURLWithPath: map).pathExtension) == nil {
            throw ValidationError(
                "--map \(DisplayText.sanitized(map)): the extension says the format; use .svg, .png or .pdf, or 'terminal'")
        }
        let (source, destination) = resolved
        guard !source.isEmpty else {
            throw ValidationError("give a USGS feed: a file, - for standard input, or an https:// URL")
        }
        do {
            let parsed = try QuakeSource(argument: source)
            if parsed == .standardInput, isatty(STDIN_FILENO) != 0 {
                throw ValidationError("'-' reads a feed from standard input, but it is a terminal; pipe a feed in or name a file")
            }
        } catch let error as QuakeSourceError {
            throw ValidationError(error.description)
        }
        if let last, last < 1 { throw ValidationError("--last must be at least 1; got \(last)") }
        _ = try minimumMagnitude()
        _ = try sinceTime()
        if !near.isEmpty && destination != nil { throw ValidationError("give either --near or --near-destination, not both") }
        _ = try nearPoint()
        if radius != nil && near.isEmpty && destination == nil {
            throw ValidationError("--radius needs --near LAT LON or --near-destination")
        }
        _ = try radiusMetres()
        guard timeout > 0, timeout.isFinite else { throw ValidationError("--timeout must be a positive number of seconds; got \(timeout)") }
    }

    private func minimumMagnitude() throws -> Double? {
        guard let minMagnitude else { return nil }
        guard let value = Double(minMagnitude.trimmingCharacters(in: .whitespaces)), value.isFinite else {
            throw ValidationError("--min-magnitude '\(DisplayText.sanitized(minMagnitude))' is not a number")
        }
        return value
    }

    private func sinceTime() throws -> UTCTimestamp? {
        guard let since else { return nil }
        guard let time = QuakeSince.parse(since, now: Self.now) else {
            throw ValidationError(
                "--since '\(DisplayText.sanitized(since))' is neither an ISO 8601 time (2024-08-01, 2024-08-01T12:00:00Z) nor a duration such as 7d, 12h or 30m"
            )
        }
        return time
    }

    private func nearPoint() throws -> Coordinate? {
        near.isEmpty ? nil : try CoordinateArguments.coordinate(from: near, naming: "--near")
    }

    private func radiusMetres() throws -> Double {
        guard let radius else { return QuakeFilter.defaultRadiusKilometres * 1000 }
        // Half the Earth's circumference reaches every point.
        guard let km = Double(radius.trimmingCharacters(in: .whitespaces)), km > 0, km <= 20_016 else {
            throw ValidationError(
                "--radius must be a distance in km between 0 and 20016 (half the Earth's circumference); got '\(DisplayText.sanitized(radius))'"
            )
        }
        return km * 1000
    }

    /// The clock `--since 7d` counts back from; `TRAVEL411_TEST_NOW` fixes it for tests.
    static var now: UTCTimestamp {
        ProcessInfo.processInfo.environment["TRAVEL411_TEST_NOW"].flatMap(UTCTimestamp.init(iso8601:)) ?? UTCTimestamp(Date())
    }

    // MARK: Running

    func run() async throws {
        let (sourceArgument, destinationName) = resolved
        let source = try QuakeSource(argument: sourceArgument)
        let feed = try QuakeFeed.read(try await source.read(timeout: timeout), source: source.displayName)
        reportSkipped(feed, source: source)
        if feed.recordCount > 0 && feed.quakes.isEmpty {
            throw QuakeFeedError.noUsableRecords(source: source.displayName, skipped: feed.skipped.count)
        }
        if feed.recordCount == 0 { Diagnostics.warning("\(source.displayName) holds no events") }

        var filter = QuakeFilter(
            minimumMagnitude: try minimumMagnitude(), since: try sinceTime(),
            near: try nearPoint(), radiusMetres: try radiusMetres(), last: last)
        var centreName = filter.near.map(TravelOutput.coordinate)
        if let destinationName {
            let store = try travel.openStore()
            let destination = try store.destination(named: destinationName.isEmpty ? nil : destinationName)
            filter.near = destination.city.coordinate
            centreName = destination.city.name == destination.name ? destination.name : "\(destination.city.name) (\(destination.name))"
        }
        let selected = QuakeSelection.select(feed.quakes, filter)
        if selected.isEmpty { explainNothingSelected(feed, filter) }

        let geocoded = try geocode(selected)
        switch format {
        case .text:
            if geocoded.isEmpty {
                let within = centreName.map { " within \(JSONText.number(filter.radiusMetres / 1000)) km of \($0)" } ?? ""
                print("No events in \(source.displayName) match\(within).")
            } else {
                if let centreName { print("Within \(JSONText.number(filter.radiusMetres / 1000)) km of \(centreName), nearest first:") }
                TravelOutput.aligned(QuakeTextTable.lines(geocoded, withDistance: filter.near != nil)).forEach { print($0) }
            }
        case .json:
            try TravelOutput.printJSON(geocoded.map(QuakeJSON.init))
        case .geojson:
            try TravelOutput.printJSON(QuakeFeatureCollection(geocoded))
        case .csv:
            print(QuakeCSV.text(geocoded), terminator: "")
        }
        if let map { try drawMap(geocoded, to: map, near: filter.near.map { (centreName ?? "", $0) }) }
        if !feed.skipped.isEmpty {
            throw SkippedQuakeRecordsError(source: source.displayName, skipped: feed.skipped.count, total: feed.recordCount)
        }
    }

    /// The events through the renderer of `travel411 map`: a file by its extension, or the terminal.
    private func drawMap(_ geocoded: [GeocodedQuake], to target: String, near centre: (String, Coordinate)?) throws {
        let scene = QuakeMap.scene(geocoded, near: centre.map { (name: $0.0, coordinate: $0.1) })
        // The database exists by now (the events were geocoded from it); this only resolves its path.
        let places = database.places()
        let basemap = try BasemapLoader(places: places.database())
        if target == "terminal" {
            let (columns, rows) = TerminalSize.current()
            let colour = TerminalColour.detect(environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) != 0)
            let (layout, text) = try MapRenderer.terminal(scene, columns: columns, rows: rows, colour: colour, basemap: basemap)
            FileHandle.standardOutput.write(Data(text.utf8))
            if checkLayout { try MapLayoutCheck.enforce(layout) }
            return
        }
        let url = URL(fileURLWithPath: target)
        let layout = try MapRenderer.layout(scene, width: 1280, height: 800, basemap: basemap)
        try MapRenderer.write(layout, as: MapOutputFormat(fileExtension: url.pathExtension) ?? .svg, to: url)
        if checkLayout { try MapLayoutCheck.enforce(layout) }
    }

    /// Many events are geocoded faster with the lookup tables read up front; a few, on demand.
    private func geocode(_ selected: [SelectedQuake]) throws -> [GeocodedQuake] {
        guard !selected.isEmpty else { return [] }
        let bar = ProgressBar()
        defer { bar.finish() }
        let geocoder = try PlacesDatabase.openGeocoder(
            explicitPath: database.databasePath, loading: selected.count > 50 ? .everything : .onDemand,
            announce: Diagnostics.print, progress: bar.update)
        return QuakeDescriber(geocoder: geocoder).geocode(selected)
    }

    /// Each skipped record is named on stderr (the first few hundred; then a count), and the summary
    /// follows as the command's error once the results are out.
    private func reportSkipped(_ feed: QuakeFeed, source: QuakeSource) {
        let shown = 200
        for record in feed.skipped.prefix(shown) {
            Diagnostics.warning("\(source.displayName) \(record.location): \(record.reason); skipped")
        }
        if feed.skipped.count > shown {
            Diagnostics.warning("\(source.displayName): \(feed.skipped.count - shown) more malformed records skipped")
        }
    }

    /// An empty answer after a --since is often an old feed file: say how old its newest event is.
    private func explainNothingSelected(_ feed: QuakeFeed, _ filter: QuakeFilter) {
        guard let since = filter.since, let newest = feed.quakes.map(\.time).max(), newest < since else { return }
        Diagnostics.warning("the newest event in the feed is at \(newest.iso8601), before --since \(since.iso8601)")
    }
}
