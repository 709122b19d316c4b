import Foundation
import Travel411Core
import Travel411Store
import Travel411TestSupport
import XCTest

/// Every command exits with the status docs/exit-codes.md gives for each class of error, and prints one
/// "travel411: error: " line (more for usage errors, which add the usage) on stderr and nothing on stdout.
final class ExitCodeTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func expect(
        _ status: ExitStatus, _ arguments: [String], environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let result = try cli.run(arguments, environment: environment)
        let command = "travel411 " + arguments.joined(separator: " ")
        XCTAssertEqual(result.status, status.rawValue, "\(command): \(result.stderr)", file: file, line: line)
        XCTAssertTrue(result.stderr.hasPrefix("travel411: error: "), "\(command): \(result.stderr)", file: file, line: line)
        XCTAssertFalse(result.stderr.contains("Error: "), "one prefix: \(command): \(result.stderr)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", command, file: file, line: line)
    }

    func testUsageErrorsExit64InEveryCommand() throws {
        try expect(.usage, ["where", "95", "0"])
        try expect(.usage, ["where", "51", "0", "--format", "xml"])
        try expect(.usage, ["import", "--level", "planet"])
        try expect(.usage, ["destination", "create", "X", "--airport", "LHR", "--city-at", "91", "0"])
        try expect(.usage, ["destination", "rename", "London", " "])
        try expect(.usage, ["move-city", "north", "0"])
        try expect(.usage, ["region", "--include", "51.5"])
        try expect(.usage, ["distance", "--from", "51.5", "0", "--to", "moon"])
        try expect(.usage, ["airports", "near", "0", "200"])
        try expect(.usage, ["airports", "show", "LHR", "--format", "yaml"])
        try expect(.usage, ["no-such-command"])
    }

    /// A usage error found only while the command runs (a pixel size depends on --out) shows that command's
    /// usage, as one found while parsing does, not the root command's list of subcommands.
    func testAUsageErrorFoundWhileRunningShowsTheCommandsOwnUsage() throws {
        let result = try cli.run(["map", "--out", cli.folder.appendingPathComponent("x.png").path, "--size", "100000x100"])
        XCTAssertEqual(result.status, ExitStatus.usage.rawValue, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("travel411: error: --size 100000x100: a map file is 64 to 8192 pixels"), result.stderr)
        XCTAssertTrue(result.stderr.contains("\nUsage: travel411 map [--destination <name>]"), result.stderr)
        XCTAssertTrue(result.stderr.hasSuffix("See 'travel411 map --help' for more information.\n"), result.stderr)
    }

    func testRequestsThatCannotBeCarriedOutExit1() throws {
        try expect(.failure, ["destination", "show", "Lodnon"])
        try expect(.failure, ["airports", "show", "LHJ"])
        try expect(.failure, ["move-city", "--undo"])
    }

    func testBadDataExits65() throws {
        let garbage = cli.folder.appendingPathComponent("garbage.gpkg")
        try Data(repeating: 0x5A, count: 4096).write(to: garbage)
        try expect(.dataError, ["where", "51.47", "-0.45", "--db", garbage.path])
        try expect(.dataError, ["destination", "list", "--state", garbage.path])
        try expect(.dataError, ["region", "--state", garbage.path])
        try expect(.dataError, ["distance", "--state", garbage.path])
        try expect(.dataError, ["move-city", "--history", "--state", garbage.path])
        let shapefile = cli.folder.appendingPathComponent("broken.shp")
        try Data(repeating: 0x01, count: 200).write(to: shapefile)
        try expect(.dataError, ["import", shapefile.path, "--db", cli.folder.appendingPathComponent("out.gpkg").path])
        // A batch whose rows carry errors still prints every row, so stdout is not empty there.
        let result = try cli.run(["where", "--input", try write("lat,lon\n91,0\n51.47,-0.45\n", named: "rows.csv")])
        XCTAssertEqual(result.status, ExitStatus.dataError.rawValue, result.stderr)
        XCTAssertEqual(result.stdout.split(separator: "\n").count, 3, result.stdout)
    }

    func testMissingInputsExit66() throws {
        let missing = cli.folder.appendingPathComponent("nowhere/points.csv").path
        try expect(.noInput, ["where", "--input", missing])
        try expect(.noInput, ["import", missing, "--db", cli.folder.appendingPathComponent("out.gpkg").path])
    }

    func testUnwritableStateExits73() throws {
        try expect(.cannotCreate, ["destination", "list", "--state", cli.folder.appendingPathComponent("missing/travel.sqlite").path])
    }

    func testLockedStateExits75() throws {
        try cli.succeed(["destination", "list"])
        let holder = try SQLiteDatabase(path: cli.statePath)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        try expect(.temporaryFailure, ["move-city", "51.5010", "-0.1919"], environment: ["TRAVEL411_BUSY_TIMEOUT_MS": "200"])
    }

    /// A binary file given as CSV: the message names the file and shows the header escaped, never its raw
    /// bytes (an escape sequence would repaint the user's terminal).
    func testInputBytesInMessagesAreEscaped() throws {
        let binary = cli.folder.appendingPathComponent("photo.csv")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x1B, 0x5B, 0x33, 0x31, 0x6D, 0x2C, 0x00, 0x07, 0x0A, 0x01, 0x02]).write(
            to: binary)
        let result = try cli.run(["where", "--input", binary.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertTrue(result.stderr.contains("photo.csv"), result.stderr)
        let controls = result.stderr.unicodeScalars.filter { $0.value < 0x20 && $0 != "\n" }
        XCTAssertTrue(controls.isEmpty, "raw control bytes in: \(result.stderr.debugDescription)")
    }

    private func write(_ text: String, named name: String) throws -> String {
        let url = cli.folder.appendingPathComponent(name)
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}
