import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store
@testable import Travel411StoreWriters

final class AtomicFileReplacementTests: XCTestCase {
    private struct BuildFailed: Error {}

    private func temporaryNames(in directory: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.contains(".building-") }.sorted()
    }

    func testFailedBuildLeavesThePreviousFileByteForByte() throws {
        let directory = try makeTemporaryDirectory(self)
        let target = directory.appendingPathComponent("places.gpkg")
        try Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: target)
        let before = try SourceChecksum.sha256Hex(ofFiles: [target])

        XCTAssertThrowsError(
            try AtomicFileReplacement.replace(target) { url in
                // Half a GeoPackage, with a journal beside it, then a failure.
                let writer = try GeoPackageWriter(database: SQLiteDatabase(path: url.path))
                _ = try writer.createFeatureTable("half", geometryType: .point, columns: [], description: "")
                try Data("journal".utf8).write(to: URL(fileURLWithPath: url.path + "-journal"))
                throw BuildFailed()
            }
        ) { error in XCTAssertTrue(error is BuildFailed, "\(error)") }

        XCTAssertEqual(try SourceChecksum.sha256Hex(ofFiles: [target]), before)
        XCTAssertEqual(try temporaryNames(in: directory), [])
    }

    func testTargetAppearsOnlyAfterASuccessfulBuild() throws {
        let directory = try makeTemporaryDirectory(self).appendingPathComponent("new/nested", isDirectory: true)
        let target = directory.appendingPathComponent("places.gpkg")
        try AtomicFileReplacement.replace(target) { url in
            XCTAssertEqual(url.deletingLastPathComponent().standardizedFileURL, directory.standardizedFileURL)
            XCTAssertEqual(url.lastPathComponent, ".places.gpkg.building-\(getpid())")
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
            try Data("new contents".utf8).write(to: url)
            XCTAssertFalse(FileManager.default.fileExists(atPath: target.path))
        }
        XCTAssertEqual(try Data(contentsOf: target), Data("new contents".utf8))
        XCTAssertEqual(try temporaryNames(in: directory), [])
    }

    func testABuildThatWritesNothingFailsAndKeepsTheTarget() throws {
        let directory = try makeTemporaryDirectory(self)
        let target = directory.appendingPathComponent("places.gpkg")
        try Data("old".utf8).write(to: target)
        XCTAssertThrowsError(try AtomicFileReplacement.replace(target) { _ in }) { error in
            XCTAssertTrue("\(error)".contains(target.path), "\(error)")
        }
        XCTAssertEqual(try Data(contentsOf: target), Data("old".utf8))
    }

    func testTemporaryFilesOfDeadProcessesAreRemovedAndLiveOnesKept() throws {
        let directory = try makeTemporaryDirectory(self)
        let target = directory.appendingPathComponent("places.gpkg")
        let deadProcessID = try processIDOfAFinishedProcess()
        let liveProcessID = getppid()  // whoever started the tests is still running
        let stale = [".places.gpkg.building-\(deadProcessID)", ".places.gpkg.building-\(deadProcessID)-journal"]
        let live = ".places.gpkg.building-\(liveProcessID)"
        let unrelated = [".other.gpkg.building-\(deadProcessID)", "notes.txt"]
        for name in stale + [live] + unrelated {
            try Data("x".utf8).write(to: directory.appendingPathComponent(name))
        }

        try AtomicFileReplacement.replace(target) { url in try Data("built".utf8).write(to: url) }

        let remaining = Set(try FileManager.default.contentsOfDirectory(atPath: directory.path))
        XCTAssertEqual(remaining, Set([live, "places.gpkg"] + unrelated))
    }

    /// Container runs give their first process the same low id every time: a file named after a process
    /// id that is alive again, but last written before that process started, is a dead build's.
    func testATemporaryFileOlderThanTheLiveProcessOfItsIdIsRemoved() throws {
        let directory = try makeTemporaryDirectory(self)
        let target = directory.appendingPathComponent("places.gpkg")
        let liveProcessID = getppid()
        let reused = directory.appendingPathComponent(".places.gpkg.building-\(liveProcessID)")
        try Data("x".utf8).write(to: reused)
        let started = try XCTUnwrap(AtomicFileReplacement.startDate(ofProcess: liveProcessID))
        XCTAssertTrue(AtomicFileReplacement.isBuilding(liveProcessID, file: reused), "written after the process started")

        try FileManager.default.setAttributes([.modificationDate: started.addingTimeInterval(-3600)], ofItemAtPath: reused.path)
        XCTAssertFalse(AtomicFileReplacement.isBuilding(liveProcessID, file: reused))
        AtomicFileReplacement.removeStaleTemporaryFiles(for: target)
        XCTAssertFalse(FileManager.default.fileExists(atPath: reused.path))
    }

    /// The start time read from /proc agrees with the clock: this process started before now, and not long before.
    func testTheStartDateOfThisProcess() throws {
        let started = try XCTUnwrap(AtomicFileReplacement.startDate(ofProcess: getpid()))
        XCTAssertLessThan(started.timeIntervalSinceNow, 2)
        XCTAssertGreaterThan(started.timeIntervalSinceNow, -24 * 3600)
    }

    /// A real process is killed with SIGKILL while it writes the temporary file (named with its own pid,
    /// as replace() would name it): the old target survives and the next build cleans up after it.
    func testAProcessKilledMidBuildLeavesTheTargetIntact() throws {
        let directory = try makeTemporaryDirectory(self)
        let target = directory.appendingPathComponent("places.gpkg")
        try Data("previous release".utf8).write(to: target)
        let before = try SourceChecksum.sha256Hex(ofFiles: [target])

        // The shell writes under its own pid ($$), then `exec` turns that same process into `sleep`.
        let builder = Process()
        builder.executableURL = URL(fileURLWithPath: "/bin/sh")
        builder.currentDirectoryURL = directory
        builder.arguments = ["-c", #"printf partial > ".places.gpkg.building-$$"; exec sleep 30"#]
        try builder.run()
        let temporary = directory.appendingPathComponent(".places.gpkg.building-\(builder.processIdentifier)")
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: temporary.path), Date() < deadline { usleep(10_000) }
        XCTAssertTrue(FileManager.default.fileExists(atPath: temporary.path))
        kill(builder.processIdentifier, SIGKILL)
        builder.waitUntilExit()
        XCTAssertEqual(builder.terminationReason, .uncaughtSignal)

        XCTAssertEqual(try SourceChecksum.sha256Hex(ofFiles: [target]), before)
        XCTAssertThrowsError(
            try AtomicFileReplacement.replace(target) { url in
                try Data("doomed".utf8).write(to: url)
                throw BuildFailed()
            })
        XCTAssertEqual(try SourceChecksum.sha256Hex(ofFiles: [target]), before)
        XCTAssertEqual(try temporaryNames(in: directory), [])
    }

    func testCannotCreateTheDirectoryNamesIt() throws {
        let directory = try makeTemporaryDirectory(self)
        let blocker = directory.appendingPathComponent("file")
        try Data().write(to: blocker)
        let target = blocker.appendingPathComponent("sub/places.gpkg")
        XCTAssertThrowsError(try AtomicFileReplacement.replace(target) { _ in XCTFail("must not build") }) { error in
            XCTAssertTrue("\(error)".contains(blocker.path), "\(error)")
        }
    }

    /// The pid of a process that has exited and been reaped.
    private func processIDOfAFinishedProcess() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }
}
