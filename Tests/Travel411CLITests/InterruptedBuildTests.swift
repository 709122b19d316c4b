import Foundation
import Travel411Core
import Travel411Store
import XCTest

/// A build of the places database that the user interrupts (Ctrl-C, or SIGTERM from a service manager)
/// leaves no half-built file behind, and one that was killed outright (SIGKILL, a power cut) is cleaned
/// up by the next start. Real processes, real signals, the real Data/ import.
final class InterruptedBuildTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func temporaryNames(in folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0.contains(".building-") }.sorted()
    }

    /// Waits until the build has written into its temporary file, so that the signal lands mid-build.
    private func waitForBuilding(_ running: RunningCLI, in folder: URL, file: StaticString = #filePath, line: UInt = #line) {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline, running.process.isRunning {
            let sizes = temporaryNames(in: folder).compactMap {
                (try? FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent($0).path))?[.size] as? Int
            }
            if sizes.contains(where: { $0 > 1_000_000 }) { return }
            usleep(20_000)
        }
        XCTFail("no temporary file of over 1 MB appeared; stderr: \(running.stderrSoFar)", file: file, line: line)
    }

    /// `where` on an empty data folder builds the database from Data/ first; SIGTERM mid-way.
    func testSIGTERMDuringTheFirstUseBuildLeavesNothing() throws {
        let folder = cli.folder.appendingPathComponent("xdg/travel411")
        let running = try cli.start(["where", "51.47", "-0.45"], environment: ["TRAVEL411_DB": ""])
        waitForBuilding(running, in: folder)
        kill(running.pid, SIGTERM)
        let result = try running.wait()

        XCTAssertTrue(result.terminatedBySignal, "status \(result.status), stderr: \(result.stderr)")
        XCTAssertEqual(result.status, SIGTERM)
        XCTAssertEqual(temporaryNames(in: folder), [])
        XCTAssertFalse(FileManager.default.fileExists(atPath: folder.appendingPathComponent("places.gpkg").path))
    }

    /// `import` over an existing database, Ctrl-C mid-way: the old database stays as it was, byte for byte.
    func testSIGINTDuringAnImportLeavesNothingAndKeepsTheOldDatabase() throws {
        let database = cli.folder.appendingPathComponent("places.gpkg")
        try Data("the previous database".utf8).write(to: database)
        let running = try cli.start(["import", "--db", database.path, try EmbeddedData.locate().path])
        waitForBuilding(running, in: cli.folder)
        kill(running.pid, SIGINT)
        let result = try running.wait()

        XCTAssertTrue(result.terminatedBySignal, "status \(result.status), stderr: \(result.stderr)")
        XCTAssertEqual(result.status, SIGINT)
        XCTAssertEqual(temporaryNames(in: cli.folder), [])
        XCTAssertEqual(try Data(contentsOf: database), Data("the previous database".utf8))
    }

    /// `import` of an OpenStreetMap extract, Ctrl-C mid-way: nothing is left beside the database, neither the
    /// database being built nor the files the extract's addresses, objects and sort runs wait in (named after it,
    /// `.places.gpkg.building-PID-osm-…`, and unlinked as soon as they are open).
    func testSIGINTDuringAnExtractsImportLeavesNothing() throws {
        let extract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/osm/helsinki.osm.pbf")
        let database = cli.folder.appendingPathComponent("places.gpkg")
        let running = try cli.start(["import", "--db", database.path, extract.path])
        waitForBuilding(running, in: cli.folder)
        kill(running.pid, SIGINT)
        let result = try running.wait()

        XCTAssertTrue(result.terminatedBySignal, "status \(result.status), stderr: \(result.stderr)")
        XCTAssertEqual(result.status, SIGINT)
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.folder.path).filter { $0.contains("places.gpkg") }
        XCTAssertEqual(left, [])
    }

    /// What a build killed with SIGKILL left (its process is gone) is removed by the next start, even one
    /// that builds nothing; the file of a build still running is kept, and so is that of another target.
    func testTheNextStartRemovesTheFilesOfDeadBuildsAndKeepsLiveOnes() throws {
        // A symbolic link to the tests' database, so that the folder beside "the database" is ours.
        let database = cli.folder.appendingPathComponent("places.gpkg")
        try FileManager.default.createSymbolicLink(atPath: database.path, withDestinationPath: PlacesForTests.path)

        let finished = Process()
        finished.executableURL = URL(fileURLWithPath: "/bin/true")
        try finished.run()
        finished.waitUntilExit()
        let builder = Process()
        builder.executableURL = URL(fileURLWithPath: "/bin/sleep")
        builder.arguments = ["60"]
        try builder.run()
        defer {
            builder.terminate()
            builder.waitUntilExit()
        }

        let dead = [".places.gpkg.building-\(finished.processIdentifier)", ".places.gpkg.building-\(finished.processIdentifier)-journal"]
        let live = ".places.gpkg.building-\(builder.processIdentifier)"
        let otherTarget = ".other.gpkg.building-\(finished.processIdentifier)"
        for name in dead + [live, otherTarget] {
            try Data("half a database".utf8).write(to: cli.folder.appendingPathComponent(name))
        }

        let result = try cli.run(["where", "51.47", "-0.45", "--db", database.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stderr, "", "nothing was built")
        XCTAssertEqual(temporaryNames(in: cli.folder), [otherTarget, live].sorted())
    }
}
