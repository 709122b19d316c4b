import Foundation
import Travel411Answers
import Travel411Core
import Travel411Geocoder

/// Events and the summary as text for people and as JSON Lines for scripts.
public enum TrackEventFormatter {
    /// One line per event: time, kind, position, what it says (the City sentence, or the region's name and
    /// message), why it fired in brackets, and the place:
    /// `2005-09-25T23:52:34Z  location  39.432837, -119.76559  You are now 8.6 km from Reno  [first fix]  United States, 11.4 km S of Sparks`
    public static func text(_ event: TrackEvent) -> String {
        var parts = [
            event.fix.time.map(TrackTime.format) ?? "untimed", event.kind.rawValue.padding(toLength: 8, withPad: " ", startingAt: 0),
            "\(degrees(event.fix.coordinate.latitude)), \(degrees(event.fix.coordinate.longitude))",
        ]
        if event.kind == .location {
            parts.append(event.sentence)
        } else {
            parts.append("\(event.region?.name ?? ""): \(event.message)")
        }
        parts.append("[\(event.reason)]")
        if let place = event.place { parts.append(place) }
        return parts.joined(separator: "  ")
    }

    /// One compact JSON object; every key is present (`null` when absent). The placemark has the flat keys
    /// of `travel411 where --format json`.
    public static func jsonLine(_ event: TrackEvent) -> String {
        let fix = event.fix
        var members: [(String, String)] = [
            ("type", JSONText.string(event.kind.rawValue)),
            ("time", fix.time.map { JSONText.string(TrackTime.format($0)) } ?? "null"),
            ("latitude", JSONText.number(rounded6(fix.coordinate.latitude))),
            ("longitude", JSONText.number(rounded6(fix.coordinate.longitude))),
            ("accuracy", optionalNumber(fix.estimatedAccuracy.map(tenths))),
            ("elevation", optionalNumber(fix.elevation.map(tenths))),
            ("speed", optionalNumber(fix.speed.map(tenths))),
            ("course", optionalNumber(fix.course.map(tenths))),
            ("line", String(fix.line)),
            ("reason", JSONText.string(event.reason)),
            ("message", JSONText.string(event.message)),
            ("region", event.region.map { JSONText.string($0.name) } ?? "null"),
            ("regionLatitude", optionalNumber(event.region.map { rounded6($0.center.latitude) })),
            ("regionLongitude", optionalNumber(event.region.map { rounded6($0.center.longitude) })),
            ("regionRadius", optionalNumber(event.region.map { tenths($0.radiusMetres) })),
            ("destination", JSONText.string(event.destination.name)),
            ("city", JSONText.string(event.destination.city.name)),
            ("distanceMetres", JSONText.number(tenths(event.distanceMetres))),
            ("bearingDegrees", JSONText.number(tenths(event.bearingDegrees))),
            ("compassPoint", JSONText.string(event.compassPoint.rawValue)),
            ("sentence", JSONText.string(event.sentence)),
            ("place", event.place.map(JSONText.string) ?? "null"),
            ("placemark", event.placemark.map { PlacemarkFormatter.jsonObject($0) } ?? "null"),
        ]
        members = members.map { ($0.0, $0.1) }
        return "{" + members.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The lines of the text summary (for stderr).
    public static func summaryText(_ summary: TrackSummary, name: String) -> [String] {
        var lines = ["travel411: \(name): \(summary.fixesRead) fixes read, \(summary.fixesUsed) used"]
        let skipped = SkipReason.allCases.filter { summary.skipped($0) > 0 }.map { "\(summary.skipped($0)) \($0.words)" }
        lines.append("  skipped      " + (skipped.isEmpty ? "none" : skipped.joined(separator: ", ")))
        if let sentences = summary.sentences {
            lines.append("  sentences    " + sentenceCountsText(sentences))
        }
        lines.append(
            "  distance     \(DistanceFormatter.humanReadable(metres: summary.distanceMetres)) over \(summary.fixesAccepted) accepted fixes"
        )
        let events = TrackEvent.Kind.allCases.map { "\(summary.events($0)) \($0.rawValue)" }
        lines.append("  events       \(summary.eventCount) (\(events.joined(separator: ", ")))")
        if let first = summary.firstTime, let last = summary.lastTime {
            lines.append(
                "  time span    \(TrackTime.duration(summary.spanSeconds)), \(TrackTime.format(first)) to \(TrackTime.format(last))")
        } else {
            lines.append("  time span    none" + (summary.fixesAccepted > 0 ? " (the points have no times)" : ""))
        }
        return lines
    }

    /// "61 RMC, 61 GGA, 61 GLL, 61 ZDA, 1098 other, 3 without checksum": the kinds read, those of none left out.
    static func sentenceCountsText(_ counts: NMEADecoder.SentenceCounts) -> String {
        let kinds = [
            (counts.rmc, "RMC"), (counts.gga, "GGA"), (counts.gns, "GNS"), (counts.gll, "GLL"), (counts.zda, "ZDA"),
            (counts.other, "other"), (counts.withoutChecksum, "without checksum"),
        ]
        let read = kinds.filter { $0.0 > 0 }.map { "\($0.0) \($0.1)" }
        return read.isEmpty ? "none" : read.joined(separator: ", ")
    }

    static func sentenceCountsJSON(_ counts: NMEADecoder.SentenceCounts?) -> String {
        guard let counts else { return "null" }
        let members = [
            ("RMC", counts.rmc), ("GGA", counts.gga), ("GNS", counts.gns), ("GLL", counts.gll), ("ZDA", counts.zda),
            ("other", counts.other), ("withoutChecksum", counts.withoutChecksum),
        ]
        return "{" + members.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// The final JSON Lines record.
    /// `printed` names the events the caller chose to print ("all", "regions") and how many it printed.
    public static func summaryJSONLine(
        _ summary: TrackSummary, name: String, format: TrackInputFormat, printed: (events: String, count: Int)? = nil
    ) -> String {
        let skipped = SkipReason.allCases.map { "\(JSONText.string($0.rawValue)):\(summary.skipped($0))" }.joined(separator: ",")
        let events = TrackEvent.Kind.allCases.map { "\(JSONText.string($0.rawValue)):\(summary.events($0))" }.joined(separator: ",")
        var members: [(String, String)] = [
            ("type", JSONText.string("summary")),
            ("input", JSONText.string(name)),
            ("inputFormat", JSONText.string(format.rawValue)),
            ("fixesRead", String(summary.fixesRead)),
            ("fixesUsed", String(summary.fixesUsed)),
            ("fixesAccepted", String(summary.fixesAccepted)),
            ("skipped", "{\(skipped)}"),
            ("sentences", sentenceCountsJSON(summary.sentences)),
            ("distanceMetres", JSONText.number(tenths(summary.distanceMetres))),
            ("events", "{\(events)}"),
            ("firstTime", summary.firstTime.map { JSONText.string(TrackTime.format($0)) } ?? "null"),
            ("lastTime", summary.lastTime.map { JSONText.string(TrackTime.format($0)) } ?? "null"),
            ("spanSeconds", JSONText.number(tenths(summary.spanSeconds))),
        ]
        if let printed {
            members.append(("eventsPrinted", JSONText.string(printed.events)))
            members.append(("printedCount", String(printed.count)))
        }
        return "{" + members.map { "\(JSONText.string($0.0)):\($0.1)" }.joined(separator: ",") + "}"
    }

    /// Degrees to six decimals without trailing zeros.
    public static func degrees(_ value: Double) -> String {
        var text = String(format: "%.6f", rounded6(value))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func rounded6(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    static func optionalNumber(_ value: Double?) -> String { value.map(JSONText.number) ?? "null" }
}

/// `--exec`: runs a command for each event, as the app raised a local notification. The event goes in
/// environment variables, never into the command line, so no text from a track can be run as shell.
public struct TrackEventCommand {
    public let command: String

    public init(command: String) { self.command = command }

    public static func environment(for event: TrackEvent) -> [String: String] {
        var values = [
            "TRAVEL411_EVENT": event.kind.rawValue,
            "TRAVEL411_MESSAGE": event.message,
            "TRAVEL411_SENTENCE": event.sentence,
            "TRAVEL411_REASON": event.reason,
            "TRAVEL411_TIME": event.fix.time.map(TrackTime.format) ?? "",
            "TRAVEL411_LATITUDE": TrackEventFormatter.degrees(event.fix.coordinate.latitude),
            "TRAVEL411_LONGITUDE": TrackEventFormatter.degrees(event.fix.coordinate.longitude),
            "TRAVEL411_DISTANCE_METRES": String(Int(event.distanceMetres.rounded())),
            "TRAVEL411_DESTINATION": event.destination.name,
            "TRAVEL411_CITY": event.destination.city.name,
            "TRAVEL411_REGION": event.region?.name ?? "",
            "TRAVEL411_PLACE": event.place ?? "",
            "TRAVEL411_LINE": String(event.fix.line),
        ]
        if let accuracy = event.fix.estimatedAccuracy { values["TRAVEL411_ACCURACY"] = String(Int(accuracy.rounded())) }
        return values
    }

    /// Runs `/bin/sh -c command` with the event's variables and waits for it. Returns nil on success,
    /// else what went wrong (the caller reports it and carries on tracking).
    public func run(for event: TrackEvent) -> String? {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in Self.environment(for: event) { environment[key] = value }
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            return "--exec could not start /bin/sh: \(error.localizedDescription)"
        }
        process.waitUntilExit()
        if process.terminationReason == .uncaughtSignal {
            return
                "--exec command was killed by signal \(process.terminationStatus) for the \(event.kind.rawValue) event at line \(event.fix.line)"
        }
        if process.terminationStatus != 0 {
            return "--exec command exited with \(process.terminationStatus) for the \(event.kind.rawValue) event at line \(event.fix.line)"
        }
        return nil
    }
}
