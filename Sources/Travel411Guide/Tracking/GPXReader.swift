import Foundation
import Travel411Core

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// GPX 1.0 and 1.1 to fixes, with a real XML parser (Foundation's `XMLParser`, libxml2 underneath), which
/// honours the encoding the XML declaration names (ISO-8859-1 files exist). Track points (`trk/trkseg/trkpt`)
/// and route points (`rte/rtept`) are fixes, each segment and route numbered in `Fix.segment`; waypoints
/// are places, not a track, and are only counted. Elements inside `<extensions>` are skipped, so a vendor's
/// `<gpxtpx:speed>` is never mistaken for GPX 1.0's `<speed>`. Pure: bytes in, items out.
public enum GPXReader {
    public struct Result {
        /// Fixes and skipped points, in document order.
        public var items: [TrackItem]
        /// Set when the XML is broken or not GPX; `items` then holds what came before the fault.
        public var error: TrackingError?
        public var waypointsIgnored: Int
        /// The names of the tracks and routes, in order (nil for one without a name).
        public var trackNames: [String?]
        /// No point has a `<time>`: the fixes are a route, in document order, without times.
        public var untimed: Bool
    }

    public static func read(_ data: Data, name: String) -> Result {
        let guarded = XMLParserInputGuard.guarded(data)
        let parser = XMLParser(data: Data(guarded.bytes))
        let handler = Handler(inputName: name)
        parser.delegate = handler
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        let succeeded = parser.parse()
        var error = handler.notGPX
        if error == nil, let problem = guarded.problem {
            error = .brokenXML(name: name, line: problem.line, detail: problem.detail)
        }
        if !succeeded, error == nil {
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unknown XML error"
            error = .brokenXML(name: name, line: max(1, parser.lineNumber), detail: message)
        }
        // libxml2 through FoundationXML may accept a document cut off mid-way; elements left open say so.
        if error == nil, let open = handler.openElement {
            error = .brokenXML(name: name, line: max(1, parser.lineNumber), detail: "the file ends inside <\(open)>: it is cut off")
        }
        if error == nil, !handler.sawRoot {
            error = .brokenXML(name: name, line: max(1, parser.lineNumber), detail: "no <gpx> element")
        }
        let (items, untimed) = timedOrRoute(handler.items)
        return Result(items: items, error: error, waypointsIgnored: handler.waypoints, trackNames: handler.trackNames, untimed: untimed)
    }

    /// Points without a `<time>` come from the handler as untimed fixes. In a file where no point has one
    /// they stay so: the file is a route (GDAL's GPX driver reads such points too), in order. In a file
    /// where some points have times the others are skipped as missing their time, as before: the times
    /// are the track, and a point without one cannot be put among them.
    static func timedOrRoute(_ items: [TrackItem]) -> (items: [TrackItem], untimed: Bool) {
        let anyTimed = items.contains { item in
            if case .fix(let fix) = item { return fix.time != nil }
            return false
        }
        let anyUntimed = items.contains { item in
            if case .fix(let fix) = item { return fix.time == nil }
            return false
        }
        guard anyTimed, anyUntimed else { return (items, anyUntimed) }
        let items = items.map { item -> TrackItem in
            guard case .fix(let fix) = item, fix.time == nil else { return item }
            return .skipped(SkippedInput(line: fix.line, problem: .missingTime, detail: "a point at \(fix.coordinate) without a <time>"))
        }
        return (items, false)
    }

    private final class Handler: NSObject, XMLParserDelegate {
        let inputName: String
        var items: [TrackItem] = []
        var waypoints = 0
        var trackNames: [String?] = []
        var sawRoot = false
        var notGPX: TrackingError?

        private struct Point {
            var latitude: String?
            var longitude: String?
            var line: Int
            var values: [String: String] = [:]
        }

        private var point: Point?
        private var text = ""
        private var extensionsDepth = 0
        private var segment = -1
        private var path: [String] = []
        var openElement: String? { path.last }

        init(inputName: String) { self.inputName = inputName }

        private static func localName(_ qualified: String) -> String {
            qualified.split(separator: ":").last.map(String.init) ?? qualified
        }

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
            qualifiedName: String?, attributes: [String: String] = [:]
        ) {
            let name = Self.localName(elementName)
            defer { path.append(name) }
            if path.isEmpty {
                sawRoot = true
                if name != "gpx" {
                    notGPX = .brokenXML(
                        name: inputName, line: parser.lineNumber,
                        detail: "the root element is <\(DisplayText.sanitized(elementName, limit: 40))>, not <gpx>")
                    parser.abortParsing()
                }
                return
            }
            if extensionsDepth > 0 || name == "extensions" {
                extensionsDepth += 1
                return
            }
            switch name {
            case "trk", "rte":
                trackNames.append(nil)
                if name == "rte" { segment += 1 }
            case "trkseg":
                segment += 1
            case "trkpt", "rtept":
                if name == "trkpt" && segment < 0 { segment = 0 }
                point = Point(latitude: attributes["lat"], longitude: attributes["lon"], line: parser.lineNumber)
            case "wpt":
                waypoints += 1
            default:
                break
            }
            text = ""
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?) {
            let name = Self.localName(elementName)
            path.removeLast()
            if extensionsDepth > 0 {
                extensionsDepth -= 1
                return
            }
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            text = ""
            if name == "name", let parent = path.last, parent == "trk" || parent == "rte", !trackNames.isEmpty {
                trackNames[trackNames.count - 1] = value.isEmpty ? nil : value
            }
            guard var current = point else { return }
            if name == "trkpt" || name == "rtept" {
                items.append(item(from: current))
                point = nil
            } else if path.last == "trkpt" || path.last == "rtept" {
                current.values[name] = value
                point = current
            }
        }

        private func item(from point: Point) -> TrackItem {
            func problem(_ kind: ReadProblem, _ detail: String) -> TrackItem {
                .skipped(SkippedInput(line: point.line, problem: kind, detail: detail))
            }
            guard let latText = point.latitude, let lonText = point.longitude else {
                return problem(.malformed, "a point without lat and lon attributes")
            }
            guard let coordinate = try? Coordinate(parsingLatitude: latText, longitude: lonText) else {
                return problem(
                    .malformed,
                    "lat='\(DisplayText.sanitized(latText, limit: 40))' lon='\(DisplayText.sanitized(lonText, limit: 40))' is not a valid position"
                )
            }
            var time: Date?
            if let timeText = point.values["time"], !timeText.isEmpty {
                guard let parsed = TrackTime.parse(timeText) else {
                    return problem(.malformed, "<time>\(DisplayText.sanitized(timeText, limit: 40))</time> is not an ISO 8601 time")
                }
                time = parsed
            }
            func number(_ key: String) -> Double? { point.values[key].flatMap(Double.init).flatMap { $0.isFinite ? $0 : nil } }
            return .fix(
                Fix(
                    time: time, coordinate: coordinate, hdop: number("hdop"), elevation: number("ele"),
                    speed: number("speed"), course: number("course"), line: point.line, segment: max(0, segment)))
        }
    }
}
