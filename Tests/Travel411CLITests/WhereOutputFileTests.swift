import Foundation
import XCTest

/// `where --output FILE`: the batch's output appears whole or not at all (a temporary file renamed into
/// place when the run is complete), so a failed or killed run never leaves a partial FILE.
final class WhereOutputFileTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func write(_ text: String, _ name: String) throws -> String {
        let path = cli.folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// The folder's files other than the given ones: temporary files left behind.
    private func strays(in folder: URL, besides names: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { !names.contains($0) }.sorted()
    }

    func testOutputFileHoldsWhatStandardOutputWouldAndTakesItsFormatFromTheExtension() throws {
        let points = try write("id,lat,lon\n1,51.47,-0.45\n2,48.8566,2.3522\n", "points.csv")
        let out = cli.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let csvPath = out.appendingPathComponent("placemarks.csv").path
        let fields = ["--fields", "country,locality"]
        let printed = try cli.succeed(["where", "--input", points] + fields)
        let run = try cli.run(["where", "--input", points, "--output", csvPath] + fields)
        XCTAssertEqual(run.status, 0, run.stderr)
        XCTAssertEqual(run.stdout, "")
        XCTAssertEqual(try String(contentsOfFile: csvPath, encoding: .utf8), printed)

        let geoJSONPath = out.appendingPathComponent("placemarks.geojson").path
        try cli.succeed(["where", "--input", points, "--output", geoJSONPath] + fields)
        let geoJSON = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: geoJSONPath))) as? [String: Any]
        XCTAssertEqual(geoJSON?["type"] as? String, "FeatureCollection")
        XCTAssertEqual((geoJSON?["features"] as? [Any])?.count, 2)
        XCTAssertEqual(try strays(in: out, besides: ["placemarks.csv", "placemarks.geojson"]), [])
    }

    func testRowsWithErrorsStillGiveTheWholeFileAndExit65() throws {
        let points = try write("lat,lon\n51.47,-0.45\nnorth,west\n", "points.csv")
        let output = cli.folder.appendingPathComponent("out.csv").path
        let run = try cli.run(["where", "--input", points, "--output", output, "--fields", "country"])
        XCTAssertEqual(run.status, 65, run.stderr)
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n")
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual(lines.first, "lat,lon,country,error")
    }

    func testAFailedRunLeavesThePreviousFileAsItWasAndNoTemporaryFile() throws {
        let output = try write("an earlier complete output\n", "out.csv")
        let noCoordinates = try write("name,height\nBen Nevis,1345\n", "hills.csv")
        let run = try cli.run(["where", "--input", noCoordinates, "--output", output])
        XCTAssertEqual(run.status, 65, run.stderr)
        XCTAssertTrue(run.stderr.contains("travel411: error:"), run.stderr)
        XCTAssertEqual(try String(contentsOfFile: output, encoding: .utf8), "an earlier complete output\n")
        XCTAssertEqual(
            try strays(in: cli.folder, besides: ["out.csv", "hills.csv", "travel.sqlite", "xdg"])
                .filter { !$0.hasSuffix(".out") && !$0.hasSuffix(".err") }, [])
    }

    func testAKilledRunLeavesNoPartialFileAndTheNextRunCleansUp() throws {
        var text = "id,lat,lon\n"
        for index in 0..<400_000 { text += "\(index),\(50 + Double(index % 800) / 100),\(-5 + Double(index % 900) / 100)\n" }
        let points = try write(text, "many.csv")
        let out = cli.folder.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        let output = out.appendingPathComponent("placemarks.csv").path
        let arguments = ["where", "--input", points, "--output", output, "--jobs", "1"]
        let running = try cli.start(arguments)
        // Killed once it has written part of the output into its temporary file.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, running.process.isRunning {
            let sizes = try FileManager.default.contentsOfDirectory(atPath: out.path).map {
                (try? FileManager.default.attributesOfItem(atPath: out.appendingPathComponent($0).path)[.size] as? Int) ?? 0
            }
            if sizes.contains(where: { $0 > 0 }) { break }
            usleep(2_000)
        }
        XCTAssertTrue(running.process.isRunning, "the run finished before it could be killed")
        kill(running.pid, SIGKILL)
        let killed = try running.wait()
        XCTAssertTrue(killed.terminatedBySignal)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output), "a killed run left a partial \(output)")

        try cli.succeed(["where", "--input", points, "--output", output, "--fields", "country"])
        XCTAssertEqual(try strays(in: out, besides: ["placemarks.csv"]), [])
    }

    func testOutputIsForManyPoints() throws {
        let run = try cli.run(["where", "51.47", "-0.45", "--output", cli.folder.appendingPathComponent("x.csv").path])
        XCTAssertEqual(run.status, 64)
        XCTAssertTrue(run.stderr.contains("--output is for many points"), run.stderr)
    }
}
