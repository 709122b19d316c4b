import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Guide

struct TrackCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.track.rawValue,
        abstract: ToolsCommand.track.abstract,
        discussion: """
            Reads fixes from GPX (1.0 and 1.1: tracks, segments, routes), NMEA 0183 (RMC and GGA of any \
            talker, checksums verified), CSV or JSON Lines (columns found by name: time, lat, lon, accuracy, \
            ...). '-' reads standard input as a live stream: each fix is answered as soon as its line arrives. \
            Each fix passes, in order: --desired-accuracy, --max-age (against the newest fix seen so far, or \
            the clock with --live), time order (a fix not later than the last accepted one is skipped), then \
            the distance filter or the significant-change rule. Regions (stored with `travel411 regions`, or \
            --region) are watched on every accepted fix. --events regions prints the enter and exit events \
            alone. A summary goes to stderr (text) or ends the JSON Lines, and says what was not printed. A \
            GPX with no <time> on any point is read as a route, in order: the rules that need times \
            (--max-age, time order, significant change's 5 minutes, the regions' 10 s dwell) do not apply.
            """)

    enum OutputFormat: String, ExpressibleByArgument, CaseIterable { case text, jsonl }

    /// Which events are printed (and run --exec): every one, or the regions' enter and exit alone.
    enum EventChoice: String, ExpressibleByArgument, CaseIterable {
        case all, regions

        func prints(_ kind: TrackEvent.Kind) -> Bool { self == .all || kind != .location }
    }

    @Argument(help: ArgumentHelp("The track file, or '-' for standard input (the default).", valueName: "file"))
    var input: String?

    @Option(help: "The input format (default: from the extension, else the content).")
    var inputFormat: TrackInputFormat?

    @Option(help: "Output format.")
    var format: OutputFormat = .text

    @Option(help: "Which events to print: all (location, enter, exit) or regions (enter and exit only).")
    var events: EventChoice = .all

    @Option(help: "standard: every fix that passes the filters; significant-change: moves of 500 m or more, at most one every 5 minutes.")
    var mode: TrackingRules.Mode = .standard

    @Option(
        help: ArgumentHelp(
            "Report a fix only when it is at least this far from the last reported one (default: every fix).",
            valueName: "metres"))
    var distanceFilter: Double?

    @Option(help: "Ignore fixes less accurate than this (accuracy from the input, else 5 m per unit of HDOP).")
    var desiredAccuracy: TrackingRules.DesiredAccuracy = .best

    @Option(help: ArgumentHelp("Discard fixes older than this: cached, not current.", valueName: "seconds"))
    var maxAge: Double = 15

    @Flag(help: "Judge a fix's age against the clock instead of the newest fix seen (for a live receiver).")
    var live = false

    @Option(
        help: ArgumentHelp(
            "The destination whose City distances refer to, and whose regions are watched (default: the current one).",
            valueName: "name"))
    var destination: String?

    @Option(help: ArgumentHelp("Also watch this region; repeat for more.", valueName: "name=lat,lon,radius"))
    var region: [String] = []

    @Option(
        name: .customLong("exec"),
        help: ArgumentHelp(
            "Run this shell command for each event, with the event in TRAVEL411_EVENT, TRAVEL411_MESSAGE, TRAVEL411_LATITUDE, TRAVEL411_LONGITUDE, TRAVEL411_TIME, TRAVEL411_REGION, TRAVEL411_PLACE, ...",
            valueName: "command"))
    var execCommand: String?

    @OptionGroup var options: TravelStateOptions

    func validate() throws {
        if let distanceFilter, !(distanceFilter.isFinite && distanceFilter >= 0) {
            throw ValidationError("--distance-filter must be zero or more metres, not \(distanceFilter)")
        }
        if distanceFilter != nil && mode == .significantChange {
            throw ValidationError("--distance-filter applies to --mode standard; significant-change has its own 500 m rule")
        }
        guard maxAge.isFinite, maxAge > 0 else { throw ValidationError("--max-age must be a positive number of seconds, not \(maxAge)") }
        do { _ = try inlineRegions() } catch { throw ValidationError("--region: \(error.localizedDescription)") }
        if let execCommand, execCommand.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--exec needs a command") }
        // Waiting silently for a GPS that was never piped in looks like a hang.
        if input == nil, isatty(STDIN_FILENO) != 0 {
            throw ValidationError(
                "give a track FILE, or '-' to read a GPS stream from standard input (e.g. gpspipe -r | travel411 track -)")
        }
    }

    private func inlineRegions() throws -> [MonitoredRegion] {
        var regions: [MonitoredRegion] = []
        for text in region {
            let parsed = try MonitoredRegion.parse(inline: text)
            if regions.contains(where: { $0.name.caseInsensitiveCompare(parsed.name) == .orderedSame }) {
                throw TrackingError.invalidRegion("'\(DisplayText.sanitized(parsed.name))' is given twice")
            }
            regions.append(parsed)
        }
        if regions.count > MonitoredRegion.maximumCount { throw TrackingError.tooManyRegions(count: regions.count) }
        return regions
    }

    func run() throws {
        let (destination, stored) = try options.openStore().regions(of: self.destination)
        var regions = stored
        for inline in try inlineRegions() {
            if let clash = regions.first(where: { $0.name.caseInsensitiveCompare(inline.name) == .orderedSame }) {
                throw TrackingError.invalidRegion(
                    "--region '\(DisplayText.sanitized(inline.name))' has the name of \(destination.name)'s stored region '\(clash.name)'")
            }
            regions.append(inline)
        }
        if regions.count > MonitoredRegion.maximumCount { throw TrackingError.tooManyRegions(count: regions.count) }

        let reader = try TrackReader(path: input, format: inputFormat)
        let annotator = geocoderAnnotator()
        let hook = execCommand.map(TrackEventCommand.init(command:))
        var tracker = Tracker(
            rules: TrackingRules(
                mode: mode, distanceFilter: distanceFilter, desiredAccuracy: desiredAccuracy,
                maximumAge: maxAge),
            destination: TrackDestination(destination), regions: regions, clock: live ? .system : .track)
        var warnings = 0
        var printed = 0
        var fatal: (any Error)?
        var warnedUntimed = false
        do {
            while let item = try reader.next() {
                if reader.untimed, !warnedUntimed {
                    warnedUntimed = true
                    Diagnostics.warning(
                        "\(reader.name) has no <time> on any point: read as a route, in order; the rules that need times "
                            + "(--max-age, time order, significant change's 5 minutes, the regions' 10 s dwell) do not apply")
                }
                if case .skipped(let skipped) = item {
                    warnings += 1
                    if warnings <= Self.warningLimit {
                        Diagnostics.warning(
                            "\(reader.name) line \(skipped.line): \(skipped.problem == .badChecksum ? "bad checksum: " : "")\(skipped.detail)"
                        )
                    } else if warnings == Self.warningLimit + 1 {
                        Diagnostics.warning("further skipped lines are only counted in the summary")
                    }
                }
                for event in tracker.process(item) where events.prints(event.kind) {
                    printed += 1
                    let annotated = annotator?.annotate(event) ?? event
                    print(format == .jsonl ? TrackEventFormatter.jsonLine(annotated) : TrackEventFormatter.text(annotated))
                    // Each event as soon as it happens: a live stream's events must not wait in a buffer.
                    StandardStreams.flushStandardOutput()
                    if let hook, let problem = hook.run(for: annotated) { Diagnostics.warning(problem) }
                }
            }
        } catch {
            fatal = error
        }
        if reader.waypointsIgnored > 0 {
            let waypoints = reader.waypointsIgnored == 1 ? "1 waypoint" : "\(reader.waypointsIgnored) waypoints"
            Diagnostics.warning("\(reader.name): \(waypoints) ignored (a track is its <trkpt> and <rtept> points)")
        }
        var summary = tracker.summary
        summary.sentences = reader.nmeaSentences
        switch format {
        case .jsonl:
            print(
                TrackEventFormatter.summaryJSONLine(
                    summary, name: reader.name, format: reader.format, printed: (events.rawValue, printed)))
        case .text:
            TrackEventFormatter.summaryText(summary, name: reader.name).forEach(Diagnostics.print)
            Diagnostics.print(printedLine(summary, printed: printed))
        }
        if let fatal { throw fatal }
        if summary.fixesRead == 0 {
            let why =
                reader.isEmpty
                ? "it is empty"
                : reader.waypointsIgnored > 0
                    ? "it has \(reader.waypointsIgnored) waypoints but no track or route points"
                    : "none of its \(reader.format.rawValue) lines is a fix"
            throw TrackingError.nothingRead(name: reader.name, detail: why)
        }
    }

    static let warningLimit = 20

    /// What the output holds of the events: all, or which were left out and by what.
    private func printedLine(_ summary: TrackSummary, printed: Int) -> String {
        let regionEvents = summary.events(.enter) + summary.events(.exit)
        switch events {
        case .all:
            let hint =
                regionEvents > 0 && summary.events(.location) > 0
                ? " (--events regions prints the \(regionEvents) enter and exit alone)" : ""
            return "  printed      all \(printed) events\(hint)"
        case .regions:
            return
                "  printed      \(printed) enter and exit events; \(summary.events(.location)) location events left out (--events regions)"
        }
    }

    /// The reverse geocoder for events' placemarks; without a places database events go out without them.
    private func geocoderAnnotator() -> TrackEventAnnotator? {
        do {
            return TrackEventAnnotator(geocoder: try options.places().geocoder())
        } catch {
            Diagnostics.warning("events carry no placemark: \(error.localizedDescription)")
            return nil
        }
    }
}

extension TrackInputFormat: ExpressibleByArgument {}
extension TrackingRules.Mode: ExpressibleByArgument {}
extension TrackingRules.DesiredAccuracy: ExpressibleByArgument {}
