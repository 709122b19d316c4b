import Foundation
import Travel411Core
import Travel411Guide
import Travel411Store
import XCTest

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Bad input, damaged or busy state files, concurrent writers and killed processes.
final class TravelRobustnessTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func integrityCheck() throws -> String {
        let database = try SQLiteDatabase(path: cli.statePath, mode: .readOnly)
        return try database.query("PRAGMA integrity_check").compactMap { $0.first?.stringValue }.joined(separator: "; ")
    }

    private func moveCount() throws -> Int64 {
        let database = try SQLiteDatabase(path: cli.statePath, mode: .readOnly)
        return try XCTUnwrap(try database.query("SELECT count(*) FROM city_moves").first?.first?.int64Value)
    }

    private func cityRow() throws -> [SQLValue] {
        let database = try SQLiteDatabase(path: cli.statePath, mode: .readOnly)
        return try XCTUnwrap(
            try database.query("SELECT city_name, city_latitude, city_longitude FROM destinations WHERE name = 'London'").first)
    }

    // MARK: Bad input

    func testAnUnknownAirportCodeSuggestsClosestCodesAndWritesNothing() throws {
        let result = try cli.run(["destination", "create", "Trip", "--airport", "LHJ", "--city-at", "51.5", "-0.12"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(
            result.stderr.contains("no airport has the IATA or ICAO code 'LHJ'; did you mean LHR/EGLL (London Heathrow Airport, GB)"),
            result.stderr)
        XCTAssertEqual(try cli.succeed(["destination", "list", "--format", "json"]).contains("Trip"), false, "nothing half-written")

        let show = try cli.run(["airports", "show", "EGLX"])
        XCTAssertNotEqual(show.status, 0)
        XCTAssertTrue(show.stderr.contains("EGLL"), show.stderr)
    }

    func testAnUnknownDestinationIsNamed() throws {
        for arguments in [
            ["destination", "show", "Lodnon"], ["move-city", "51.5", "-0.1", "--destination", "Lodnon"],
            ["region", "--destination", "Lodnon"], ["distance", "--destination", "Lodnon"],
            ["destination", "use", "Lodnon"], ["destination", "delete", "Lodnon"],
        ] {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 1, arguments.joined(separator: " "))
            XCTAssertTrue(result.stderr.contains("no destination is named 'Lodnon'; did you mean 'London'?"), result.stderr)
        }
        XCTAssertEqual(try moveCount(), 0)
    }

    func testBadCoordinatesAreUsageErrors() throws {
        let cases: [([String], String)] = [
            (["move-city", "95", "0"], "latitude 95 is outside [-90, 90]"),
            (["move-city", "51.5", "-181"], "longitude -181 is outside [-180, 180]"),
            (["move-city", "north", "0"], "latitude 'north' is not a number"),
            (["move-city", "51.5"], "needs a latitude and a longitude"),
            (["move-city"], "give LAT LON, --undo or --history"),
            (["move-city", "51.5", "0", "--undo"], "give only one of"),
            (["distance", "--from", "51.5"], "--from needs a latitude and a longitude"),
            (["distance", "--from", "51.5", "0", "--from-airport"], "not both"),
            (["region", "--include", "51.5", "0", "52"], "odd number of values"),
            (["airports", "near", "0", "200"], "longitude 200 is outside"),
            (["destination", "create", "X", "--airport", "LHR", "--city", "London", "--city-at", "51", "0"], "not both"),
            (["destination", "create", "X", "--airport", "LHR", "--city-at", "91", "0"], "latitude 91 is outside"),
            (["destination", "create", " ", "--airport", "LHR"], "invalid destination name: it is empty"),
            (["destination", "rename", "London", ""], "invalid destination name: it is empty"),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, 64, "\(arguments.joined(separator: " ")): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments.joined(separator: " ")): expected '\(message)' in \(result.stderr)")
        }
    }

    func testACorruptStateFileIsReportedAndLeftAlone() throws {
        let garbage = Data(repeating: 0x5A, count: 4096)
        try garbage.write(to: URL(fileURLWithPath: cli.statePath))
        let result = try cli.run(["destination", "list"])
        XCTAssertEqual(result.status, 65, "bad data")
        XCTAssertTrue(result.stderr.contains("is not a SQLite database"), result.stderr)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: cli.statePath)), garbage, "not overwritten")
    }

    func testSomeOtherSQLiteFileIsRefused() throws {
        try SQLiteDatabase(path: cli.statePath).execute("CREATE TABLE localities (fid INTEGER PRIMARY KEY)")
        let result = try cli.run(["destination", "list"])
        XCTAssertEqual(result.status, 65, "bad data")
        XCTAssertTrue(result.stderr.contains("not a travel411 state file"), result.stderr)
    }

    func testAStateFileInAMissingFolderIsExplained() throws {
        let result = try cli.run(["destination", "list", "--state", cli.folder.appendingPathComponent("missing/travel.sqlite").path])
        XCTAssertEqual(result.status, 73, "cannot create")
        XCTAssertTrue(result.stderr.contains("missing does not exist"), result.stderr)
    }

    func testThePlacesDatabaseIsNeverUsedAsState() throws {
        let result = try cli.run(["destination", "list", "--state", PlacesForTests.path, "--db", PlacesForTests.path])
        XCTAssertEqual(result.status, 65, "bad data")
        XCTAssertTrue(result.stderr.contains("is the places database"), result.stderr)
    }

    func testALockedStateFileIsReportedAfterWaiting() throws {
        try cli.succeed(["destination", "list"])
        let holder = try SQLiteDatabase(path: cli.statePath)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let result = try cli.run(["move-city", "51.5010", "-0.1919"], environment: ["TRAVEL411_BUSY_TIMEOUT_MS": "300"])
        XCTAssertEqual(result.status, 75, "try again later")
        XCTAssertTrue(result.stderr.contains("stayed locked by another process for 0.3 s"), result.stderr)
        try holder.execute("ROLLBACK")
        XCTAssertEqual(try moveCount(), 0)
    }

    // MARK: Concurrency and crashes

    /// Two processes move the City at the same moment. Each pauses inside its transaction, so they
    /// certainly overlap: the second waits for the first's lock, and both moves land.
    func testTwoSimultaneousMovesBothLand() throws {
        try cli.succeed(["destination", "list"])
        let pause = ["TRAVEL411_TEST_PAUSE_IN_MOVE": "0.5"]
        let first = try cli.start(["move-city", "51.5010", "-0.1919"], environment: pause)
        let second = try cli.start(["move-city", "51.4875", "-0.1687"], environment: pause)
        let results = try [first.wait(), second.wait()]
        for result in results { XCTAssertEqual(result.status, 0, result.stderr) }
        XCTAssertEqual(try moveCount(), 2)
        XCTAssertEqual(try integrityCheck(), "ok")

        // The moves chain: the later one starts where the earlier one ended.
        let history = try XCTUnwrap(try cli.json(["move-city", "--history", "--format", "json"]) as? [[String: Any]])
        let firstTo = try XCTUnwrap(history[0]["to"] as? [String: Any])
        let secondFrom = try XCTUnwrap(history[1]["from"] as? [String: Any])
        XCTAssertEqual(firstTo["latitude"] as? Double, secondFrom["latitude"] as? Double)
    }

    /// Many processes on a brand-new state file: creation, migration and seeding race too.
    func testConcurrentFirstUseAndMovesOnAFreshFile() throws {
        let runs = try (0..<4).map { index in
            try cli.start(["move-city", "51.\(500 + index)", "-0.1\(index)"])
        }
        for run in runs {
            let result = try run.wait()
            XCTAssertEqual(result.status, 0, result.stderr)
        }
        XCTAssertEqual(try moveCount(), 4)
        XCTAssertEqual(try integrityCheck(), "ok")
        let destinations = try XCTUnwrap(try cli.json(["destination", "list", "--format", "json"]) as? [[String: Any]])
        XCTAssertEqual(destinations.count, 1, "London is seeded exactly once")
    }

    /// A move killed with SIGKILL inside its transaction leaves the state as before the move.
    func testAMoveKilledInsideItsTransactionLeavesTheStateConsistent() throws {
        try cli.succeed(["destination", "list"])
        let before = try cityRow()
        let move = try cli.start(["move-city", "51.5010", "-0.1919"], environment: ["TRAVEL411_TEST_PAUSE_IN_MOVE": "60"])
        let deadline = Date().addingTimeInterval(30)
        while !move.stderrSoFar.contains("paused inside the move transaction") {
            guard Date() < deadline, move.process.isRunning else {
                return XCTFail("the move never reached its transaction: \(move.stderrSoFar)")
            }
            Thread.sleep(forTimeInterval: 0.02)
        }
        XCTAssertEqual(kill(move.pid, SIGKILL), 0)
        let result = try move.wait()
        XCTAssertTrue(result.terminatedBySignal)

        XCTAssertEqual(try integrityCheck(), "ok")
        XCTAssertEqual(try moveCount(), 0, "the killed move was never committed")
        XCTAssertEqual(try cityRow(), before)
        // And the file is not left locked.
        try cli.succeed(["move-city", "51.5010", "-0.1919"], environment: ["TRAVEL411_BUSY_TIMEOUT_MS": "1000"])
        XCTAssertEqual(try moveCount(), 1)
        XCTAssertEqual(try integrityCheck(), "ok")
    }
}
