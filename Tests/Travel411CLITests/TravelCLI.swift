import Foundation
import Travel411Core
import Travel411TestSupport
import XCTest

/// Runs the built `travel411` binary against a state file in a fresh temporary folder.
struct TravelCLI {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
        var terminatedBySignal: Bool
    }

    let folder: URL
    var statePath: String { folder.appendingPathComponent("travel.sqlite").path }

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func removeFolder() { try? FileManager.default.removeItem(at: folder) }

    /// The build products folder, where SwiftPM puts `travel411` next to the test bundle.
    static var binary: URL {
        if let path = ProcessInfo.processInfo.environment["TRAVEL411_BINARY"], !path.isEmpty {
            return URL(fileURLWithPath: path)
        }
        #if os(macOS)
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                return bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("travel411")
            }
        #endif
        return Bundle.main.bundleURL.appendingPathComponent("travel411")
    }

    /// The environment every run gets: our state file, a private XDG folder, the shared test
    /// places database, and none of the caller's TRAVEL411_* settings.
    func environment(_ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TRAVEL411_") && $0.key != "XDG_DATA_HOME" }
        environment["TRAVEL411_STATE"] = statePath
        environment["XDG_DATA_HOME"] = folder.appendingPathComponent("xdg").path
        environment["TRAVEL411_DB"] = PlacesForTests.path
        environment["TRAVEL411_BUSY_TIMEOUT_MS"] = "10000"
        for (key, value) in extra { environment[key] = value }
        return environment
    }

    /// Starts the binary; its output goes to files so that no pipe can fill up and block it.
    func start(_ arguments: [String], environment extra: [String: String] = [:]) throws -> RunningCLI {
        let id = UUID().uuidString
        let stdout = folder.appendingPathComponent("\(id).out"), stderr = folder.appendingPathComponent("\(id).err")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = Self.binary
        process.arguments = arguments
        process.environment = environment(extra)
        process.standardOutput = try FileHandle(forWritingTo: stdout)
        process.standardError = try FileHandle(forWritingTo: stderr)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return RunningCLI(process: process, stdoutURL: stdout, stderrURL: stderr)
    }

    @discardableResult
    func run(_ arguments: [String], environment extra: [String: String] = [:]) throws -> Result {
        try start(arguments, environment: extra).wait()
    }

    /// Runs and expects success, returning stdout.
    @discardableResult
    func succeed(
        _ arguments: [String], environment extra: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> String {
        let result = try run(arguments, environment: extra)
        XCTAssertEqual(result.status, 0, "travel411 \(arguments.joined(separator: " ")) failed: \(result.stderr)", file: file, line: line)
        return result.stdout
    }

    /// Runs and decodes stdout as JSON.
    func json(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> Any {
        let output = try succeed(arguments, file: file, line: line)
        return try JSONSerialization.jsonObject(with: Data(output.utf8))
    }
}

struct RunningCLI {
    let process: Process
    let stdoutURL: URL
    let stderrURL: URL

    var pid: Int32 { process.processIdentifier }

    /// What it has written to stderr so far.
    var stderrSoFar: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    func wait() throws -> TravelCLI.Result {
        process.waitUntilExit()
        return TravelCLI.Result(
            status: process.terminationStatus,
            stdout: try String(contentsOf: stdoutURL, encoding: .utf8),
            stderr: try String(contentsOf: stderrURL, encoding: .utf8),
            terminatedBySignal: process.terminationReason == .uncaughtSignal)
    }
}

/// The places database the CLI tests geocode with: the real one, shared with the library tests.
enum PlacesForTests {
    static var path: String { TestPlaces.databasePath }
}
