import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411TestSupport
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// `travel411 quakes` end to end on the sample USGS feeds and the real places database: golden
/// output in every format, the URL path against a loopback server, standard input, and the bad
/// input the issue names.
final class QuakesCommandTests: XCTestCase {
    private var cli: TravelCLI!

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/earthquakes")
    static var geoJSON: String { fixtures.appendingPathComponent("4.5_month.geojson").path }
    static var csv: String { fixtures.appendingPathComponent("2.5_month.csv").path }

    override func setUpWithError() throws {
        cli = try TravelCLI()
        // Help text wraps at $COLUMNS; the golden help is 80 columns wide. The golden cases name the
        // fixtures relative to the package root, where `swift test` runs.
        setenv("COLUMNS", "80", 1)
        FileManager.default.changeCurrentDirectoryPath(
            Self.fixtures.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path)
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    /// Failures end through the executable's one error path, with each error's own exit status.
    private func assertFails(
        _ result: TravelCLI.Result, _ status: ExitStatus, saying message: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(result.status, status.rawValue, result.stderr, file: file, line: line)
        XCTAssertTrue(result.stderr.contains("travel411: error: "), "stderr: \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.contains(message), "stderr: \(result.stderr)", file: file, line: line)
    }

    // MARK: Golden output

    func testNearTokyoText() throws {
        let result = try GoldenOutput.check("quakes-near-tokyo-text", with: cli)
        XCTAssertEqual(result.stderr, "")
    }

    func testNearTokyoJSONDistancesAreGreatCircle() throws {
        let result = try GoldenOutput.check("quakes-near-tokyo-json", with: cli)
        let events = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(events.count, 6)
        let tokyo = (latitude: 35.68 * Double.pi / 180, longitude: 139.69 * Double.pi / 180)
        var previous = 0.0
        for event in events {
            let latitude = try XCTUnwrap(event["latitude"] as? Double) * .pi / 180
            let longitude = try XCTUnwrap(event["longitude"] as? Double) * .pi / 180
            // Spherical law of cosines, a different formula from the haversine the code uses.
            let angle = acos(sin(tokyo.latitude) * sin(latitude) + cos(tokyo.latitude) * cos(latitude) * cos(longitude - tokyo.longitude))
            let metres = try XCTUnwrap(event["distanceMetres"] as? Double)
            XCTAssertEqual(metres, angle * 6_371_008.8, accuracy: 1)  // 0.1 m rounding + coordinates to 6 decimals
            XCTAssertLessThanOrEqual(metres, 300_000)
            XCTAssertGreaterThanOrEqual(metres, previous)
            previous = metres
            let placemark = try XCTUnwrap(event["placemark"] as? [String: Any])
            XCTAssertEqual(Set(placemark.keys), Set(["latitude", "longitude"] + PlacemarkField.standard.map(\.rawValue)))
        }
    }

    func testThePlacemarkIsWhatWhereSays() throws {
        let output = try cli.succeed(["quakes", Self.geoJSON, "--last", "20", "--format", "json"])
        let events = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String: Any]])
        for event in events.prefix(5) {
            let latitude = try XCTUnwrap(event["latitude"] as? Double), longitude = try XCTUnwrap(event["longitude"] as? Double)
            let whereOutput = try cli.succeed(["where", "\(latitude),\(longitude)", "--format", "json"])
            let expected = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(whereOutput.utf8)) as? NSDictionary)
            XCTAssertEqual(event["placemark"] as? NSDictionary, expected, "\(latitude), \(longitude)")
        }
    }

    func testLastTwelveText() throws {
        try GoldenOutput.check("quakes-last12-text", with: cli)
    }

    func testCSVOutputOfTheCSVFeed() throws {
        let result = try GoldenOutput.check("quakes-csv-last3-csv", with: cli)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 4)
    }

    func testGeoJSONOutput() throws {
        let result = try GoldenOutput.check("quakes-last2-geojson", with: cli)
        let collection = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertEqual((features.first?["geometry"] as? [String: Any])?["coordinates"] as? [Double], [138.5063, -2.2439, 34.89])
    }

    func testNearTheCurrentDestinationLondonByDefault() throws {
        let result = try GoldenOutput.check("quakes-near-destination-text", with: cli)
        XCTAssertTrue(result.stdout.hasPrefix("Within 2000 km of London, nearest first:\n"), result.stdout)
    }

    /// An empty answer near a destination says the radius it searched.
    func testNoEventNearTheDestinationSaysTheRadius() throws {
        let result = try cli.run(["quakes", Self.geoJSON, "--near-destination", "--radius", "100"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stdout.hasSuffix(" match within 100 km of London.\n"), result.stdout)
    }

    // MARK: Sources

    func testAURLIsFetchedLikeTheFile() throws {
        let server = try LoopbackFeedServer(.file(Self.geoJSON))
        defer { server.stop() }
        let fromURL = try cli.succeed(["quakes", server.url("/4.5_month.geojson"), "--last", "5", "--format", "json"])
        let fromFile = try cli.succeed(["quakes", Self.geoJSON, "--last", "5", "--format", "json"])
        XCTAssertEqual(fromURL, fromFile)
    }

    func testAServerAnswering500IsUnavailable() throws {
        let server = try LoopbackFeedServer(.status(500))
        defer { server.stop() }
        let result = try cli.run(["quakes", server.url("/4.5_month.geojson")])
        assertFails(result, .unavailable, saying: "cannot fetch \(server.url("/4.5_month.geojson")): the server answered HTTP 500")
        XCTAssertEqual(result.stdout, "")
    }

    func testOfflineIsUnavailableWithAClearMessage() throws {
        // .invalid never resolves: what an offline machine sees for earthquake.usgs.gov.
        let result = try cli.run(["quakes", "https://earthquake.usgs.invalid/earthquakes/feed/v1.0/summary/4.5_month.geojson"])
        assertFails(result, .unavailable, saying: "this machine may be offline")
    }

    func testStandardInput() throws {
        let process = Process()
        process.executableURL = TravelCLI.binary
        process.arguments = ["quakes", "-", "--last", "3", "--format", "csv"]
        process.environment = cli.environment()
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.csv))
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertEqual(String(decoding: data, as: UTF8.self), try cli.succeed(["quakes", Self.csv, "--last", "3", "--format", "csv"]))
    }

    func testTheSourceMayFollowABareNearDestination() throws {
        let output = try cli.succeed(["quakes", "--near-destination", Self.csv, "--radius", "1500"])
        XCTAssertTrue(output.hasPrefix("Within 1500 km of London, nearest first:"), output)
    }

    func testSinceCountsBackFromNow() throws {
        let output = try cli.succeed(
            ["quakes", Self.csv, "--since", "2h", "--format", "csv"], environment: ["TRAVEL411_TEST_NOW": "2024-08-07T14:00:00Z"])
        XCTAssertEqual(output.split(separator: "\n").count, 1 + 6)
        let old = try cli.run(["quakes", Self.csv, "--since", "7d"], environment: ["TRAVEL411_TEST_NOW": "2026-01-01T00:00:00Z"])
        XCTAssertEqual(old.status, 0)
        XCTAssertTrue(old.stdout.hasPrefix("No events in "), old.stdout)
        XCTAssertTrue(old.stderr.contains("travel411: warning: the newest event in the feed is at 2024-08-07T13:27:10.850Z"), old.stderr)
    }

    // MARK: Bad input

    func testMalformedRowsAreSkippedNamedAndCounted() throws {
        var lines = try String(contentsOfFile: Self.csv, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).prefix(5)
            .map(String.init)
        lines[2] = lines[2].replacingOccurrences(of: ",3.4,ml,", with: ",NaN,ml,")
        lines[4] = "not,a,row"
        let path = cli.folder.appendingPathComponent("bad.csv").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try cli.run(["quakes", path, "--format", "json"])
        assertFails(result, .dataError, saying: "bad.csv: skipped 2 of 4 events as malformed")
        XCTAssertTrue(result.stderr.contains("travel411: warning: \(path) line 3: mag 'NaN' is not a number; skipped"), result.stderr)
        XCTAssertTrue(
            result.stderr.contains("travel411: warning: \(path) line 5: 3 fields where the header has 22; skipped"), result.stderr)
        // The good events are still printed.
        let events = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [[String: Any]])
        XCTAssertEqual(events.map { $0["id"] as? String }, ["ci40867520", "us6000nim4"])
    }

    func testFilesThatAreNoFeed() throws {
        let empty = cli.folder.appendingPathComponent("empty.geojson").path
        FileManager.default.createFile(atPath: empty, contents: Data())
        assertFails(try cli.run(["quakes", empty]), .dataError, saying: "empty.geojson is empty")
        let points = cli.folder.appendingPathComponent("points.csv").path
        try "id,lat,lon\n1,51.5,-0.1\n".write(toFile: points, atomically: true, encoding: .utf8)
        assertFails(try cli.run(["quakes", points]), .dataError, saying: "points.csv is not a USGS earthquake feed")
        let image = cli.folder.appendingPathComponent("photo.jpg").path
        FileManager.default.createFile(atPath: image, contents: Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00]))
        assertFails(try cli.run(["quakes", image]), .dataError, saying: "photo.jpg is not a USGS earthquake feed: it holds binary data")
        assertFails(
            try cli.run(["quakes", cli.folder.appendingPathComponent("missing.csv").path]), .noInput, saying: "missing.csv: no such file")
    }

    func testUsageErrors() throws {
        let cases: [([String], String)] = [
            (["quakes"], "give a USGS feed"),
            (["quakes", Self.csv, "--near", "35", "139", "--near-destination"], "give either --near or --near-destination, not both"),
            (["quakes", Self.csv, "--radius", "100"], "--radius needs --near LAT LON or --near-destination"),
            (["quakes", Self.csv, "--near", "35", "139", "--radius", "-5"], "--radius must be a distance in km"),
            (["quakes", Self.csv, "--near", "95", "139"], "latitude 95 is outside [-90, 90]"),
            (["quakes", Self.csv, "--since", "yesterday"], "--since 'yesterday' is neither an ISO 8601 time"),
            (["quakes", Self.csv, "--last", "0"], "--last must be at least 1"),
            (["quakes", Self.csv, "--min-magnitude", "big"], "--min-magnitude 'big' is not a number"),
            (
                ["quakes", "http://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/4.5_month.geojson"],
                "plain http:// is accepted for localhost alone"
            ),
            (["quakes", Self.csv, "--format", "xml"], "--format"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
        }
    }

    func testNegativeMagnitudesAndSouthernPointsAreAccepted() throws {
        let output = try cli.succeed([
            "quakes", Self.geoJSON, "--near", "-17.7", "178.0", "--radius", "800", "--min-magnitude", "-1", "--format", "csv",
        ])
        XCTAssertGreaterThan(output.split(separator: "\n").count, 5)
    }

    // MARK: The map

    /// --map draws every selected event as a circle with the seed's rule (diameter magnitude² × 0.75
    /// points, fill RGB (1, 1 − 0.015·m², 0.211) at 60 %), through the renderer of `travel411 map`.
    func testTheMapDrawsACirclePerEventByTheSeedsRule() throws {
        let svg = cli.folder.appendingPathComponent("quakes.svg")
        try cli.succeed(["quakes", Self.geoJSON, "--last", "20", "--map", svg.path])
        let text = try String(contentsOf: svg, encoding: .utf8)
        XCTAssertTrue(text.contains(">20 earthquakes<"), "legend title")
        let parser = XMLParser(data: Data(text.utf8))
        let collector = CircleCollector()
        parser.delegate = collector
        XCTAssertTrue(parser.parse(), "well-formed SVG")
        // The events come first in drawing order; the legend's circles (drawn last) follow them.
        let quakeCircles = collector.circles.filter { $0["fill-opacity"] == "0.6" }.prefix(20)
        XCTAssertEqual(quakeCircles.count, 20, "a circle per event")
        for circle in quakeCircles {
            let radius = try XCTUnwrap(circle["r"].flatMap(Double.init))
            // The radius gives the magnitude; the fill's green must follow from it.
            let magnitude = (radius * 2 / 0.75).squareRoot()
            let green = Int((max(0, 1 - 0.015 * magnitude * magnitude) * 255).rounded())
            let fill = try XCTUnwrap(circle["fill"])
            let actualGreen = Int(fill.dropFirst(3).prefix(2), radix: 16) ?? -1
            XCTAssertEqual(Double(actualGreen), Double(green), accuracy: 3, "\(fill) for r=\(radius)")
            XCTAssertTrue(fill.hasPrefix("#ff") && fill.hasSuffix("36"), fill)
        }
    }

    func testTheMapNeedsAKnownFormat() throws {
        let result = try cli.run(["quakes", Self.geoJSON, "--map", cli.folder.appendingPathComponent("quakes.gif").path])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("use .svg, .png or .pdf, or 'terminal'"), result.stderr)
    }
}

/// The attributes of every <circle> of an SVG.
private final class CircleCollector: NSObject, XMLParserDelegate {
    var circles: [[String: String]] = []
    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        if name == "circle" { circles.append(attributes) }
    }
}
