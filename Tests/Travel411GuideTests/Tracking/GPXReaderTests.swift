import Travel411Core
import XCTest

@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

final class GPXReaderTests: XCTestCase {
    func testPointsWithoutTimeAreSkippedAndCounted() throws {
        let (items, error, reader) = try TrackFixtures.read("gpx/gpxpy/korita-zbevnica.gpx")
        XCTAssertNil(error)
        XCTAssertEqual(reader.format, .gpx)
        XCTAssertEqual(items.fixes.count + items.count(.missingTime), 871)
        XCTAssertEqual(items.fixes.count, 513)
        XCTAssertEqual(items.count(.missingTime), 358)
        // Four segments: the first empty, the second (358 points) without any time, the last two timed.
        XCTAssertEqual(Set(items.fixes.map(\.segment)), [2, 3])
        XCTAssertEqual(Set(items.skipped.map { $0.line }).count, 358)
        XCTAssertTrue(items.fixes.allSatisfy { $0.elevation != nil })
    }

    func testIdenticalTimesAreReadAndTheTrackerSkipsTheRepeats() throws {
        let fixes = try TrackFixtures.read("gpx/gpxpy/Mojstrovka.gpx").items.fixes
        XCTAssertEqual(fixes.count, 184)
        // 183 say 20:45:52.2073437 and one (the second) 20:45:52.207, 0.34 ms earlier: all out of order after the first.
        XCTAssertEqual(Set(fixes.map(\.time)).count, 2)
        XCTAssertEqual(TrackTime.format(try XCTUnwrap(fixes[0].time)), "1901-12-13T20:45:52.207Z")
        var tracker = Tracker(rules: TrackingRules(), destination: TrackDestination(name: "London", city: BookLondon.city))
        for fix in fixes { _ = tracker.process(fix) }
        XCTAssertEqual(tracker.summary.fixesUsed, 1)
        XCTAssertEqual(tracker.summary.skipped(.outOfOrder), 183)
    }

    func testSegmentsAndGPX10() throws {
        let fixes = try TrackFixtures.read("gpx/gpxpy/cerknicko-jezero.gpx").items.fixes
        XCTAssertEqual(fixes.count, 296)
        XCTAssertEqual(Set(fixes.map(\.segment)).count, 7, "eight segments, the first of them empty")
        XCTAssertEqual(try TrackFixtures.read("gpx/gpxgo/visnjan.gpx").items.fixes.count, 413)
    }

    func testHDOPAndElevationWhereGiven() throws {
        let fixes = try TrackFixtures.read("gpx/georust-gpx/with_accuracy.gpx").items.fixes
        XCTAssertEqual(fixes.map(\.hdop), [5, 3.6, nil])
        XCTAssertEqual(fixes.map(\.elevation), [50.3, 0, nil])
        XCTAssertEqual(fixes.map(\.estimatedAccuracy), [25, 18, nil])
    }

    /// A GPX with no `<time>` at all is a route: its points are fixes without times, in document order
    /// (the route point, then the track point, each its own segment), and the waypoint is still not a fix.
    func testAFileWithoutAnyTimeIsReadAsARouteInOrder() throws {
        let (items, error, reader) = try TrackFixtures.read("gpx/gpxpy/track_with_dilution_errors.gpx")
        XCTAssertNil(error)
        XCTAssertTrue(reader.untimed)
        XCTAssertEqual(items.count(.missingTime), 0)
        XCTAssertEqual(items.fixes.map(\.time), [nil, nil])
        XCTAssertEqual(items.fixes.map(\.hdop), [200.1, 300.1])
        XCTAssertEqual(items.fixes.map(\.segment), [0, 1], "the route and the track segment are apart")
        XCTAssertEqual(reader.waypointsIgnored, 1)
        // The tracker takes them in order: no age, no order by time; both are used.
        var tracker = Tracker(rules: TrackingRules(), destination: TrackDestination(name: "London", city: BookLondon.city))
        for fix in items.fixes { _ = tracker.process(fix) }
        XCTAssertEqual(tracker.summary.fixesUsed, 2)
        XCTAssertNil(tracker.summary.firstTime)
    }

    /// Without times the region monitor judges each point alone and reports a crossing at once: the walk by
    /// Cerknica lake, its times taken away, still enters and leaves the 150 m region twice.
    func testARouteWithoutTimesStillEntersAndLeavesRegions() throws {
        let fixes = try TrackFixtures.read("gpx/gpxpy/cerknicko-jezero.gpx").items.fixes.map { fix -> Fix in
            var route = fix
            route.time = nil
            return route
        }
        let region = MonitoredRegion(name: "Cerknica", center: Coordinate(latitude: 45.7693, longitude: 14.3592), radiusMetres: 150)
        var tracker = Tracker(
            rules: TrackingRules(), destination: TrackDestination(name: "London", city: BookLondon.city), regions: [region])
        let kinds = fixes.flatMap { tracker.process($0) }.map(\.kind).filter { $0 != .location }
        XCTAssertEqual(kinds, [.enter, .exit, .enter, .exit])
        XCTAssertEqual(tracker.summary.fixesUsed, 296)
    }

    func testDeclaredISO88591EncodingIsHonoured() throws {
        let (items, error, reader) = try TrackFixtures.read("gpx/gpxgo/iso8859-1encoded.gpx")
        XCTAssertNil(error)
        XCTAssertTrue(items.isEmpty)
        XCTAssertEqual(reader.waypointsIgnored, 8)
        // The sample has no byte above 0x7F, so also a file whose track name is Latin-1: "Zürich" as 0xFC
        // is invalid UTF-8 and would fail to parse if the declaration were ignored.
        var bytes = Array(
            "<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><name>Z"
                .utf8)
        bytes.append(0xFC)
        bytes += Array(
            "rich</name><trkseg><trkpt lat=\"47.37\" lon=\"8.54\"><time>2024-01-01T10:00:00Z</time></trkpt></trkseg></trk></gpx>\n".utf8)
        let latin1 = try TrackReader(data: Data(bytes), name: "zurich.gpx")
        XCTAssertEqual(try latin1.readAll().fixes.count, 1)
        XCTAssertEqual(latin1.trackNames, ["Zürich"])
    }

    func testTruncatedGPXKeepsThePointsBeforeTheCutAndSaysWhere() throws {
        let whole = try Data(contentsOf: URL(fileURLWithPath: TrackFixtures.path("gpx/gpxgo/visnjan.gpx")))
        let reader = try TrackReader(data: whole.prefix(whole.count / 2), name: "visnjan-half.gpx")
        var fixes = 0
        XCTAssertThrowsError(try { while let item = try reader.next() { if case .fix = item { fixes += 1 } } }()) { error in
            guard case TrackingError.brokenXML(let name, let line, _) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(name, "visnjan-half.gpx")
            XCTAssertGreaterThan(line, 100)
            XCTAssertEqual((error as? TrackingError)?.exitStatus, .dataError)
        }
        XCTAssertGreaterThan(fixes, 100)
        XCTAssertLessThan(fixes, 413)
    }

    func testNotGPXAndBinaryInput() throws {
        let (items, error) = try TrackFixtures.read(data: "<html><body>hello</body></html>", name: "page.gpx")
        XCTAssertTrue(items.isEmpty)
        XCTAssertTrue((error as? TrackingError)?.description.contains("not <gpx>") ?? false, "\(String(describing: error))")
        XCTAssertThrowsError(try TrackReader(data: Data([0x7F, 0x45, 0x4C, 0x46, 0, 0, 0, 1, 2, 3]), name: "a.out")) { error in
            XCTAssertEqual(error as? TrackingError, .binaryInput(name: "a.out"))
        }
    }

    func testGPX10SpeedAndCourseButNotExtensions() throws {
        let gpx = """
            <?xml version="1.0"?>
            <gpx version="1.0" xmlns="http://www.topografix.com/GPX/1/0" xmlns:x="urn:x">
            <rte><rtept lat="51.5" lon="-0.12"><time>2024-01-01T10:00:00Z</time><speed>1.5</speed><course>90</course></rtept></rte>
            <trk><trkseg><trkpt lat="51.6" lon="-0.12"><time>2024-01-01T10:00:05+01:00</time>
            <extensions><x:speed>99</x:speed></extensions></trkpt></trkseg></trk>
            </gpx>
            """
        let fixes = try TrackFixtures.read(data: gpx, name: "route.gpx").items.fixes
        XCTAssertEqual(fixes.map(\.speed), [1.5, nil])
        XCTAssertEqual(fixes.map(\.course), [90, nil])
        XCTAssertEqual(fixes.map(\.segment), [0, 1])
        XCTAssertEqual(fixes.map { TrackTime.format($0.recordedTime) }, ["2024-01-01T10:00:00Z", "2024-01-01T09:00:05Z"])
    }
}
