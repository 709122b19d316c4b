import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Guide

struct MapCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.map.rawValue,
        abstract: ToolsCommand.map.abstract,
        discussion: """
            The airport pin is green, the City pin red, --pin adds purple pins and --me the blue dot \
            (or, out of view, an arrow on the edge with its distance). The basemap comes from the places \
            database. The format comes from the extension of --out (.svg, .png, .pdf); '--out -' writes SVG \
            to stdout. Without --out the map is drawn in the terminal. Southern or western values that \
            start with '-' in a comma list go after '=': --pin=-18.14,178.43,Suva.
            """)

    @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
    var destination: String?

    @Option(help: ArgumentHelp("Write the map to this file: .svg, .png or .pdf; '-' writes SVG to stdout.", valueName: "file"))
    var out: String?

    @Flag(help: "Draw the map in the terminal (the default without --out).")
    var terminal = false

    @Option(
        name: .customLong("color"),
        help: ArgumentHelp(
            "Colour in the terminal: auto (only when stdout is a terminal and NO_COLOR is not set), always or never.",
            valueName: "when"))
    var colour: TerminalColour.Choice = .auto

    @Option(
        help: ArgumentHelp(
            "Pixels for a file (default 1024x768), columns and rows for the terminal (default: its width).", valueName: "WxH"))
    var size: String?

    @Option(help: ArgumentHelp("auto (the pins, fitted as `travel411 region` does) or LAT,LON,LATSPAN,LONSPAN.", valueName: "region"))
    var region: String = "auto"

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Your location: the blue dot, or an arrow when it is out of view.", valueName: "lat lon"))
    var me: [String] = []

    @Option(help: "Which pins get a callout with their place and distance.")
    var callout: CalloutChoice = .none

    @Option(help: ArgumentHelp("Add a pin; give it more than once for more.", valueName: "lat,lon[,title]"))
    var pin: [String] = []

    @Option(
        help: ArgumentHelp(
            "Draw a track (any format `travel411 track` reads: GPX, NMEA, CSV, JSON Lines) as a line, with the destination's regions and their enter and exit events marked.",
            valueName: "file"))
    var track: String?

    // Hidden: a check for Scripts/render-samples and tests (docs/map.md), and a 13th option would fold the usage
    // line into `<options>`, hiding the others.
    @Flag(
        help: ArgumentHelp(
            "Check the drawing: fail, naming them on stderr, when two things drawn overlap or one is cut by the frame.",
            visibility: .hidden))
    var checkLayout = false

    @OptionGroup var options: TravelStateOptions

    func validate() throws {
        if terminal, let out { throw ValidationError("give either --terminal or --out \(DisplayText.sanitized(out)), not both") }
        if let out, out != "-" {
            let fileExtension = URL(fileURLWithPath: out).pathExtension
            if MapOutputFormat(fileExtension: fileExtension) == nil {
                throw ValidationError(
                    "--out \(DisplayText.sanitized(out)): the extension says the format; use .svg, .png or .pdf"
                        + (fileExtension.isEmpty ? "" : " (not .\(DisplayText.sanitized(fileExtension)))"))
            }
        }
        if let size { _ = try parsedSize(size) }
        if region != "auto" { _ = try usage { try RegionArgument.parse(region) } }
        if !me.isEmpty { _ = try CoordinateArguments.coordinate(from: me, naming: "--me") }
        for text in pin { _ = try usage { try ExtraPin(parsing: text) } }
    }

    func run() throws {
        let store = try options.openStore()
        var map = DestinationMap(destination: try store.destination(named: destination))
        map.extraPins = try pin.map(ExtraPin.init(parsing:))
        map.me = me.isEmpty ? nil : try CoordinateArguments.coordinate(from: me, naming: "--me")
        map.callouts = callout
        map.region = region == "auto" ? nil : try RegionArgument.parse(region)
        if let track {
            let (owner, regions) = try store.regions(of: destination)
            let (line, events) = try trackLine(track, destination: owner, regions: regions)
            map.track = line.map(\.coordinate)
            map.trackSegments = line.map(\.segment)
            map.trackEvents = events
            map.regions = regions
        }

        let places = options.places()
        let basemap = try BasemapLoader(places: places.database())
        let scene = try map.scene { coordinate in try places.placemark(for: coordinate) }

        if let out, out != "-" {
            let (width, height) = try size.map(parsedSize) ?? (1024, 768)
            try checkPixels(width, height)
            let layout = try MapRenderer.layout(scene, width: width, height: height, basemap: basemap)
            report(layout)
            let url = URL(fileURLWithPath: out)
            try MapRenderer.write(layout, as: MapOutputFormat(fileExtension: url.pathExtension) ?? .svg, to: url)
            try check(layout)
        } else if out == "-" {
            let (width, height) = try size.map(parsedSize) ?? (1024, 768)
            try checkPixels(width, height)
            let layout = try MapRenderer.layout(scene, width: width, height: height, basemap: basemap)
            report(layout)
            FileHandle.standardOutput.write(Data(MapRenderer.svg(layout).utf8))
            try check(layout)
        } else {
            let (columns, rows) = try size.map(parsedSize) ?? TerminalSize.current()
            guard (MapRenderer.minimumColumns...MapRenderer.maximumColumns).contains(columns), (5...500).contains(rows) else {
                throw ValidationError(
                    "--size \(columns)x\(rows): the terminal map takes \(MapRenderer.minimumColumns) to \(MapRenderer.maximumColumns) columns and 5 to 500 rows"
                )
            }
            let colour = TerminalColour.detect(
                environment: ProcessInfo.processInfo.environment, isTerminal: isatty(STDOUT_FILENO) != 0, choice: self.colour)
            let (layout, text) = try MapRenderer.terminal(scene, columns: columns, rows: rows, colour: colour, basemap: basemap)
            report(layout)
            FileHandle.standardOutput.write(Data(text.utf8))
            try check(layout)
        }
    }

    /// `--check-layout`: the layout's overlaps and cut items, each on stderr, and a failure if there is one.
    private func check(_ layout: MapLayout) throws {
        guard checkLayout else { return }
        try MapLayoutCheck.enforce(layout)
    }

    /// The track's fixes in order, and where it entered or left a region, by the same rules as
    /// `travel411 track` with no filter (every fix that is accurate, current and in order).
    private func trackLine(_ path: String, destination: Destination, regions: [MonitoredRegion]) throws
        -> ([Fix], [(coordinate: Coordinate, title: String)])
    {
        let reader = try TrackReader(path: path)
        var tracker = Tracker(rules: TrackingRules(), destination: TrackDestination(destination), regions: regions)
        var line: [Fix] = []
        var events: [(coordinate: Coordinate, title: String)] = []
        while let item = try reader.next() {
            if case .fix(let fix) = item { line.append(fix) }
            for event in tracker.process(item) where event.kind != .location {
                // The time (UTC, as `track` prints it) tells the events of one region apart and in order.
                let time = event.fix.time.map { " " + TrackTime.format($0).dropFirst(11).prefix(5) + " UTC" } ?? ""
                events.append((event.fix.coordinate, "\(event.kind.rawValue) \(event.region?.name ?? "")\(time)"))
            }
        }
        guard line.count >= 1 else { throw UserFacingError("\(DisplayText.sanitized(path)): no fixes to draw", exitStatus: .dataError) }
        let skipped = tracker.summary.skipped.values.reduce(0, +)
        if skipped > 0 { Diagnostics.warning("\(DisplayText.sanitized(path)): \(skipped) lines were not fixes and are not drawn") }
        if reader.untimed {
            Diagnostics.warning("\(DisplayText.sanitized(path)) has no <time> on any point: drawn as a route, in order")
        }
        return (line, events)
    }

    /// Says on stderr what did not fit, and how far the callouts moved the map.
    private func report(_ layout: MapLayout) {
        if !layout.omitted.isEmpty {
            let names = layout.omitted.map { "'\(DisplayText.sanitized($0))'" }.joined(separator: ", ")
            Diagnostics.warning("no room on the map for \(names): left out rather than drawn over something else")
        }
        if layout.calloutZoom < 1 {
            Diagnostics.warning(
                "zoomed the map out to \(Int((layout.calloutZoom * 100).rounded()))% of the region's scale so that the callouts and their pins fit"
            )
        }
        let (dx, dy) = layout.calloutShift
        guard dx != 0 || dy != 0 else { return }
        let degreesPerPixel = 1 / layout.viewport.pixelsPerDegree
        var parts: [String] = []
        if dx != 0 {
            parts.append("\(TravelOutput.degrees(abs(dx) * degreesPerPixel))° \(dx > 0 ? "west" : "east") (\(Int(abs(dx).rounded())) px)")
        }
        if dy != 0 {
            parts.append(
                "\(TravelOutput.degrees(abs(dy) * degreesPerPixel))° of Mercator latitude \(dy > 0 ? "north" : "south") (\(Int(abs(dy).rounded())) px)"
            )
        }
        Diagnostics.warning("moved the map \(parts.joined(separator: " and ")) so that every callout fits")
    }

    private func checkPixels(_ width: Int, _ height: Int) throws {
        let range = MapRenderer.minimumPixels...MapRenderer.maximumPixels
        guard range.contains(width), range.contains(height) else {
            throw ValidationError("--size \(width)x\(height): a map file is \(range.lowerBound) to \(range.upperBound) pixels on each side")
        }
    }

    private func parsedSize(_ text: String) throws -> (Int, Int) {
        let parts = text.lowercased().split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]) else {
            throw ValidationError("--size is WIDTHxHEIGHT, e.g. 1024x768 (or 80x40 in the terminal); got '\(DisplayText.sanitized(text))'")
        }
        guard width > 0, height > 0 else {
            throw ValidationError("--size \(DisplayText.sanitized(text)): both sides must be greater than 0")
        }
        return (width, height)
    }

    /// A library error about the arguments, as a usage error (exit 64) with its message.
    private func usage<T>(_ body: () throws -> T) throws -> T {
        do { return try body() } catch let error as MapRenderError { throw ValidationError(error.description) }
    }
}

/// The terminal's size in cells; 80 columns when stdout is not a terminal.
enum TerminalSize {
    static func current() -> (Int, Int) {
        var size = winsize()
        if isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            let columns = min(MapRenderer.maximumColumns, max(MapRenderer.minimumColumns, Int(size.ws_col)))
            // As tall as the screen allows (less a line for the prompt), and not taller than a square.
            let rows = max(10, min(Int(size.ws_row) - 1, columns / 2))
            return (columns, rows)
        }
        return (80, 32)
    }
}
extension CalloutChoice: ExpressibleByArgument {}
extension TerminalColour.Choice: ExpressibleByArgument {}
