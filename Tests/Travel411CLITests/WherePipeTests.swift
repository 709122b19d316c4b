import Foundation
import Travel411TestSupport
import XCTest

/// `travel411 where` over real pipes, as README's "Using travel411 from other programs" tells a
/// program to use it: one row written, its answer read, the next row written.
final class WherePipeTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func start(_ arguments: [String]) throws -> (process: Process, input: Pipe, lines: LineCollector, stderr: URL) {
        let process = Process()
        process.executableURL = TravelCLI.binary
        process.arguments = arguments
        process.environment = cli.environment()
        let input = Pipe(), output = Pipe()
        let stderr = cli.folder.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardInput = input
        process.standardOutput = output
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        return (process, input, LineCollector(output.fileHandleForReading), stderr)
    }

    func testEachRowIsAnsweredBeforeTheNextIsWritten() throws {
        let batch = try start(["where", "--fields", "locality,isoCountryCode"])
        let launched = Date()
        defer { if batch.process.isRunning { batch.process.terminate() } }
        batch.input.fileHandleForWriting.write(Data("lat,lon\n51.47,-0.45\n".utf8))
        XCTAssertTrue(batch.lines.wait(forCount: 2, seconds: 60), "no answer to the first row")
        var slowest = 0.0
        for (index, row) in ["51.51651,-0.13739", "48.8566,2.3522", "40,-40"].enumerated() {
            let written = Date()
            batch.input.fileHandleForWriting.write(Data((row + "\n").utf8))
            XCTAssertTrue(batch.lines.wait(forCount: 3 + index, seconds: 10), "no answer to \(row)")
            slowest = max(slowest, Date().timeIntervalSince(written))
        }
        XCTAssertLessThanOrEqual(slowest, 0.1, "an answer took \(Int(slowest * 1000)) ms")
        try batch.input.fileHandleForWriting.close()
        let closed = Date()
        batch.process.waitUntilExit()
        XCTAssertEqual(batch.process.terminationStatus, 0)
        XCTAssertTrue(batch.lines.wait(forCount: 5, seconds: 10))
        XCTAssertEqual(
            batch.lines.all,
            [
                "lat,lon,locality,isoCountryCode,error", "51.47,-0.45,London,GB,", "51.51651,-0.13739,London,GB,",
                "48.8566,2.3522,Paris,FR,", "40,-40,,,",
            ])
        // The summary's time is the whole run's: at least from the launch to the end of the input.
        let summary = try String(contentsOf: batch.stderr, encoding: .utf8)
        XCTAssertTrue(summary.contains("travel411: 4 rows, 0 errors, "), summary)
        let secondsText = summary.components(separatedBy: ", ").first { $0.hasSuffix(" s") }?.dropLast(2)
        let seconds = try XCTUnwrap(secondsText.flatMap { Double($0) }, summary)
        XCTAssertGreaterThanOrEqual(seconds + 0.02, closed.timeIntervalSince(launched), summary)
    }

    /// Tab-separated rows on standard input come back tab-separated, as they do from a .tsv or .txt file.
    func testTSVOnStandardInputAndInATextFileComesBackAsTSV() throws {
        let batch = try start(["where", "--fields", "isoCountryCode"])
        batch.input.fileHandleForWriting.write(Data("lat\tlon\tnote\n51.47\t-0.45\tT5, arrivals\n".utf8))
        try batch.input.fileHandleForWriting.close()
        batch.process.waitUntilExit()
        XCTAssertEqual(batch.process.terminationStatus, 0)
        XCTAssertTrue(batch.lines.wait(forCount: 2, seconds: 10))
        XCTAssertEqual(batch.lines.all, ["lat\tlon\tnote\tisoCountryCode\terror", "51.47\t-0.45\tT5, arrivals\tGB\t"])

        let text = cli.folder.appendingPathComponent("points.txt")
        try Data("lat\tlon\n51.47\t-0.45\n".utf8).write(to: text)
        XCTAssertEqual(
            try cli.succeed(["where", "--input", text.path, "--fields", "isoCountryCode"]),
            "lat\tlon\tisoCountryCode\terror\n51.47\t-0.45\tGB\t\n")
    }
}
