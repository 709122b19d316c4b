import CSQLite
import Foundation
import Travel411Core
import Travel411Import
import Travel411Store
import Travel411TestSupport
import XCTest

/// `travel411 track` and `travel411 regions` run as a user runs them: the built binary on real logs.
final class TrackCommandTests: XCTestCase {
    private var cli: TravelCLI!

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tracks")
    static func fixture(_ relative: String) -> String { fixtures.appendingPathComponent(relative).path }

    override func setUpWithError() throws { cli = try TravelCLI() }
    override func tearDownWithError() throws { cli.removeFolder() }

    private func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let url = cli.folder.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    // MARK: Live stream

    /// A writer feeds the Reno log's first epochs through a pipe, one sentence every 100 ms; each epoch's
    /// event must be on stdout before the next epoch's first line is written.
    func testALiveStreamAnswersEachFixBeforeTheNextLineIsWritten() throws {
        let text = try String(contentsOfFile: Self.fixture("nmea/dotMorten-NmeaParser/NmeaSampleData.txt"), encoding: .utf8)
        let sentences = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("$GPRMC") || $0.hasPrefix("$GPGGA") }.prefix(12)
        let process = Process()
        process.executableURL = TravelCLI.binary
        process.arguments = ["track", "-", "--format", "jsonl"]
        process.environment = cli.environment()
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let lines = LineCollector(output.fileHandleForReading)
        for (index, sentence) in sentences.enumerated() {
            input.fileHandleForWriting.write(Data((sentence + "\r\n").utf8))
            Thread.sleep(forTimeInterval: 0.1)
            if index % 2 == 1 {
                let epoch = index / 2 + 1
                XCTAssertTrue(lines.wait(forCount: epoch, seconds: 10), "no event for epoch \(epoch) before the next line")
                XCTAssertEqual(lines.count, epoch, "exactly one event per epoch so far")
            }
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        XCTAssertTrue(lines.wait(forCount: 7, seconds: 10))
        let events = lines.all
        XCTAssertTrue(events[0].contains("\"time\":\"2005-09-25T23:52:34Z\""), events[0])
        XCTAssertTrue(events[6].contains("\"type\":\"summary\""), events[6])
        XCTAssertTrue(events[6].contains("\"fixesRead\":6"), events[6])
    }

    // MARK: Real logs

    func testTextOutputWithARegionAndTheSummaryOnStderr() throws {
        let result = try cli.run(["track", Self.fixture("nmea/gpsd/gpsdf.log"), "--region", "Bend=44.0683,-121.3032,150"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 51)
        XCTAssertTrue(result.stdout.contains("You are now 7"), result.stdout)
        XCTAssertTrue(result.stderr.contains("51 fixes read, 51 used"), result.stderr)
        XCTAssertTrue(result.stderr.contains("46 bad checksum"), result.stderr)
        XCTAssertTrue(result.stderr.contains("line 50: bad checksum: checksum *00 does not match the sentence's 07"), result.stderr)
    }

    func testExecGetsTheEventInEnvironmentVariablesAndAFailingCommandDoesNotStopTracking() throws {
        let log = cli.folder.appendingPathComponent("exec.log").path
        let region = "home=39.41,-119.75,800"
        try cli.succeed([
            "regions", "add", "Home", "39.41", "-119.75", "--radius", "800", "--message", "Bye $(touch \(cli.folder.path)/pwned)",
        ])
        let command =
            "printf '%s|%s|%s|%s\\n' \"$TRAVEL411_EVENT\" \"$TRAVEL411_REGION\" \"$TRAVEL411_MESSAGE\" \"$TRAVEL411_LATITUDE\" >> '\(log)'"
        let result = try cli.run([
            "track", Self.fixture("nmea/dotMorten-NmeaParser/NmeaSampleData.txt"), "--mode", "significant-change",
            "--exec", command,
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        let calls = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(calls.count, result.stdout.split(separator: "\n").count, "one command per event")
        XCTAssertTrue(calls.contains { $0.hasPrefix("enter|Home|Bye $(touch ") }, calls.joined(separator: "\n"))
        XCTAssertTrue(calls.contains { $0.hasPrefix("exit|Home|") })
        XCTAssertFalse(
            FileManager.default.fileExists(atPath: cli.folder.appendingPathComponent("pwned").path),
            "text from the state never reaches the shell as code")
        _ = region

        let failing = try cli.run(["track", Self.fixture("nmea/gpsd/com-1289.log"), "--exec", "exit 3"])
        XCTAssertEqual(failing.status, 0)
        XCTAssertEqual(failing.stdout.split(separator: "\n").count, 14, "every event is still printed")
        XCTAssertEqual(failing.stderr.components(separatedBy: "--exec command exited with 3").count - 1, 14)
    }

    // MARK: Bad input

    func testBadInputGivesAMessageASummaryAndANonZeroExit() throws {
        let cases: [(String, [UInt8], String)] = [
            ("empty.gpx", [], "it is empty"),
            ("empty.nmea", [], "it is empty"),
            ("blob.bin", (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 7919) }, "looks like a binary file"),
            ("names.csv", Array("id,name\n1,a\n2,b\n".utf8), "no latitude and longitude columns"),
            ("garbage.nmea", Array(String(repeating: "$GPRMC,garbage*00\nhello\n", count: 500).utf8), "none of its nmea lines is a fix"),
            (
                "cut.gpx", Array(try Data(contentsOf: URL(fileURLWithPath: Self.fixture("gpx/gpxgo/visnjan.gpx"))).prefix(9000)),
                "the GPX is broken or cut off"
            ),
        ]
        for (name, bytes, message) in cases {
            let path = try write(name, bytes)
            let result = try cli.run(["track", path])
            XCTAssertNotEqual(result.status, 0, name)
            XCTAssertFalse(result.terminatedBySignal, name)
            XCTAssertTrue(result.stderr.contains(message), "\(name): \(result.stderr)")
            if name != "blob.bin" {
                XCTAssertTrue(result.stderr.contains("fixes read"), "\(name) has a summary: \(result.stderr)")
            }
        }
        let missing = try cli.run(["track", cli.folder.appendingPathComponent("nope.gpx").path])
        XCTAssertNotEqual(missing.status, 0)
        XCTAssertTrue(missing.stderr.contains("cannot open"), missing.stderr)
    }

    func testOptionsAreChecked() throws {
        for arguments in [
            ["--distance-filter", "-5"], ["--max-age", "0"], ["--region", "home=51.5,-0.12"],
            ["--region", "home=51.5,-0.12,0"], ["--desired-accuracy", "5m"], ["--mode", "significant-change", "--distance-filter", "10"],
        ] {
            let result = try cli.run(["track", Self.fixture("nmea/gpsd/com-1289.log")] + arguments)
            XCTAssertEqual(result.status, 64, "\(arguments): \(result.stderr)")
        }
        let tooMany = (1...21).flatMap { ["--region", "r\($0)=51.5,-0.12,\($0 * 10)"] }
        let result = try cli.run(["track", Self.fixture("nmea/gpsd/com-1289.log")] + tooMany)
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("more than the 20 a device monitors"), result.stderr)
    }

    // MARK: Regions

    func testRegionsAddListRemove() throws {
        XCTAssertTrue(try cli.succeed(["regions", "list"]).contains("London has no regions"))
        XCTAssertEqual(
            try cli.succeed(["regions", "add", "Home", "51.4613", "-0.3037", "--radius", "100", "--message", "Don't forget your passport"]),
            "Added region Home to London: 51.4613, -0.3037, radius 100 m, message \"Don't forget your passport\"\n")
        let duplicate = try cli.run(["regions", "add", "home", "51", "0", "--radius", "10"])
        XCTAssertNotEqual(duplicate.status, 0)
        XCTAssertTrue(duplicate.stderr.contains("already exists"))
        XCTAssertEqual(try cli.run(["regions", "add", "x", "51", "0", "--radius", "0"]).status, 64)
        XCTAssertEqual(try cli.run(["regions", "add", "x", "95", "0", "--radius", "10"]).status, 64)
        let json = try XCTUnwrap(try cli.json(["regions", "list", "--format", "json"]) as? [String: Any])
        let regions = try XCTUnwrap(json["regions"] as? [[String: Any]])
        XCTAssertEqual(regions.first?["name"] as? String, "Home")
        XCTAssertEqual(regions.first?["radiusMetres"] as? Double, 100)
        XCTAssertEqual(try cli.succeed(["regions", "remove", "HOME"]), "Removed region Home from London\n")
        let gone = try cli.run(["regions", "remove", "Home"])
        XCTAssertNotEqual(gone.status, 0)
        XCTAssertTrue(gone.stderr.contains("London has no region named 'Home'"), gone.stderr)
    }

    /// `regions add` killed with SIGKILL inside its transaction leaves a sound file without the region.
    func testARegionsAddKilledInsideItsTransactionLeavesTheStateConsistent() throws {
        try cli.succeed(["regions", "add", "Office", "51.5", "-0.12", "--radius", "50"])
        let add = try cli.start(
            ["regions", "add", "Home", "51.4613", "-0.3037", "--radius", "100"],
            environment: ["TRAVEL411_TEST_PAUSE_IN_REGIONS_ADD": "60"])
        let deadline = Date().addingTimeInterval(30)
        while !add.stderrSoFar.contains("paused inside the regions add transaction") {
            guard Date() < deadline, add.process.isRunning else { return XCTFail("never reached the transaction: \(add.stderrSoFar)") }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertEqual(kill(add.pid, SIGKILL), 0)
        XCTAssertTrue(try add.wait().terminatedBySignal)

        let database = try SQLiteDatabase(path: cli.statePath, mode: .readOnly)
        XCTAssertEqual(try database.query("PRAGMA integrity_check").first?.first?.stringValue, "ok")
        XCTAssertEqual(try database.query("SELECT name FROM monitored_regions").map { $0.first?.stringValue }, ["Office"])
        try cli.succeed(
            ["regions", "add", "Home", "51.4613", "-0.3037", "--radius", "100"], environment: ["TRAVEL411_BUSY_TIMEOUT_MS": "1000"])
        XCTAssertTrue(try cli.succeed(["regions", "list"]).contains("Home"))
    }

    // MARK: Region events alone, and routes without times

    /// The walk by Cerknica lake passes a 150 m region twice: `--events regions` prints its two enters and
    /// two exits alone, and the summary says what was left out; by default it says how to get them alone.
    func testEventsRegionsPrintsTheEntersAndExitsAlone() throws {
        let walk = Self.fixture("gpx/gpxpy/cerknicko-jezero.gpx")
        let region = ["--region", "Cerknica=45.7693,14.3592,150"]
        let alone = try cli.run(["track", walk, "--events", "regions"] + region)
        XCTAssertEqual(alone.status, 0, alone.stderr)
        let lines = alone.stdout.split(separator: "\n")
        XCTAssertEqual(lines.map { $0.split(separator: " ", omittingEmptySubsequences: true)[1] }, ["enter", "exit", "enter", "exit"])
        XCTAssertTrue(lines.allSatisfy { $0.contains("Cerknica: ") }, alone.stdout)
        XCTAssertTrue(
            alone.stderr.contains("printed      4 enter and exit events; 296 location events left out (--events regions)"), alone.stderr)
        let all = try cli.run(["track", walk] + region)
        XCTAssertEqual(all.stdout.split(separator: "\n").count, 300)
        XCTAssertTrue(all.stderr.contains("printed      all 300 events (--events regions prints the 4 enter and exit alone)"), all.stderr)
        let jsonl = try cli.run(["track", walk, "--events", "regions", "--format", "jsonl"] + region)
        XCTAssertTrue(jsonl.stdout.contains("\"eventsPrinted\":\"regions\",\"printedCount\":4}"), jsonl.stdout)
    }

    /// A GPX without any `<time>` was refused ("0 fixes read"); it is a route, read in order, with a warning.
    func testAGPXWithoutTimesIsReadAsARouteWithAWarning() throws {
        let result = try cli.run(["track", Self.fixture("gpx/gpxpy/track_with_dilution_errors.gpx")])
        XCTAssertEqual(result.status, 0, result.stderr)
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertTrue(lines.allSatisfy { $0.hasPrefix("untimed  location  12.1, 13.2  ") }, result.stdout)
        XCTAssertTrue(result.stderr.contains("has no <time> on any point: read as a route, in order"), result.stderr)
        XCTAssertTrue(result.stderr.contains("2 fixes read, 2 used"), result.stderr)
        XCTAssertTrue(result.stderr.contains("1 waypoint ignored"), result.stderr)
        let json = try cli.run(["track", Self.fixture("gpx/gpxpy/track_with_dilution_errors.gpx"), "--format", "jsonl"])
        XCTAssertTrue(json.stdout.hasPrefix("{\"type\":\"location\",\"time\":null,"), json.stdout)
    }

    // MARK: Golden output

    func testGoldenHelpAndOutputs() throws {
        // The --help goldens of track and regions are with every other command's, in GoldenCommandsTests.
        for name in ["track-rennes-text", "track-rennes-jsonl"] {
            try GoldenOutput.check(name, with: cli)
        }
    }
}
