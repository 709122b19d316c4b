import Foundation
import Travel411CLI
import Travel411TestSupport
import XCTest

/// `travel411` hands every command but `where`, `import` of shapefiles and `serve` to `travel411-tools`, the real
/// executable built beside it: installed as a pair, installed alone, and in a build folder whose tools are older
/// than the sources. (Every other CLI test goes through the hand-over too: TravelCLI runs `travel411`.)
final class ToolsHandOverTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private var tools: URL { TravelCLI.binary.deletingLastPathComponent().appendingPathComponent("travel411-tools") }

    /// Copies `travel411` (and `travel411-tools` when asked) into `folder`, as an installation would.
    private func install(in folder: URL, withTools: Bool) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = folder.appendingPathComponent("travel411")
        try FileManager.default.copyItem(at: TravelCLI.binary, to: copy)
        if withTools { try FileManager.default.copyItem(at: tools, to: folder.appendingPathComponent("travel411-tools")) }
        return copy
    }

    private func run(_ executable: URL, _ arguments: [String]) throws -> TravelCLI.Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = cli.environment()
        let output = Pipe(), errors = Pipe()
        (process.standardOutput, process.standardError) = (output, errors)
        try process.run()
        let stdout = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return TravelCLI.Result(status: process.terminationStatus, stdout: stdout, stderr: stderr, terminatedBySignal: false)
    }

    func testWhichCommandsAreHandedOver() {
        XCTAssertTrue(ToolsCommand.handles(["map", "--out", "x.svg"]))
        XCTAssertTrue(ToolsCommand.handles(["move-city", "51.5", "-0.19"]))
        XCTAssertTrue(ToolsCommand.handles(["help", "quakes"]))
        XCTAssertTrue(ToolsCommand.handles(["--generate-completion-script", "bash"]))
        XCTAssertFalse(ToolsCommand.handles(["where", "51.47", "-0.45"]))
        XCTAssertFalse(ToolsCommand.handles(["import", "x.osm.pbf"]))
        XCTAssertFalse(ToolsCommand.handles(["help", "where"]))
        XCTAssertFalse(ToolsCommand.handles(["--help"]))
        XCTAssertFalse(ToolsCommand.handles([]))
    }

    /// An installed pair answers as the build folder's does.
    func testAnInstalledPairRunsTheToolsCommands() throws {
        let pair = try install(in: cli.folder.appendingPathComponent("pair/bin"), withTools: true)
        for arguments in [["airports", "show", "LHR"], ["map", "--help"], ["help", "distance"]] {
            let installed = try run(pair, arguments)
            let built = try run(TravelCLI.binary, arguments)
            XCTAssertEqual(installed.status, 0, installed.stderr)
            XCTAssertEqual(installed.stdout, built.stdout, arguments.joined(separator: " "))
            XCTAssertFalse(installed.stdout.isEmpty)
        }
    }

    /// An installed travel411 without its tools says what to build, and exits 69; `where` still answers.
    func testInstalledAloneSaysWhatToBuild() throws {
        let alone = try install(in: cli.folder.appendingPathComponent("alone/bin"), withTools: false)
        let result = try run(alone, ["airports", "show", "LHR"])
        XCTAssertEqual(result.status, 69, result.stderr)
        XCTAssertTrue(
            result.stderr.contains("`travel411 airports` is run by travel411-tools, which is not beside travel411"), result.stderr)
        XCTAssertTrue(result.stderr.contains("swift build -c release --product travel411-tools"), result.stderr)
        XCTAssertEqual(try run(alone, ["where", "51.47", "-0.45"]).status, 0)
    }

    /// In a build folder, tools older than a source they are built from are built first (here the package is not
    /// one, so the build fails and says so); a newer source of travel411 alone does not make them old.
    func testToolsOlderThanTheirSourcesAreBuiltFirst() throws {
        let package = cli.folder.appendingPathComponent("package")
        let binary = try install(in: package.appendingPathComponent(".build/debug"), withTools: true)
        let copiedTools = package.appendingPathComponent(".build/debug/travel411-tools")
        try "// not a package manifest: the build fails\n".write(
            to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let hourAgo = Date(timeIntervalSinceNow: -3600)
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: copiedTools.path)
        for folder in ["travel411", "Travel411Guide"] {
            try FileManager.default.createDirectory(
                at: package.appendingPathComponent("Sources/\(folder)"), withIntermediateDirectories: true)
        }
        try "\n".write(to: package.appendingPathComponent("Sources/travel411/Main.swift"), atomically: true, encoding: .utf8)

        let current = try run(binary, ["airports", "show", "LHR"])
        XCTAssertEqual(current.status, 0, current.stderr)
        XCTAssertFalse(current.stderr.contains("building it first"), current.stderr)

        try "\n".write(to: package.appendingPathComponent("Sources/Travel411Guide/Guide.swift"), atomically: true, encoding: .utf8)
        let outdated = try run(binary, ["airports", "show", "LHR"])
        XCTAssertEqual(outdated.status, 69, outdated.stderr)
        XCTAssertTrue(
            outdated.stderr.contains(
                "travel411: `airports` is run by travel411-tools; building it first: swift build --product travel411-tools"),
            outdated.stderr)
        XCTAssertTrue(outdated.stderr.contains("`swift build --product travel411-tools` failed"), outdated.stderr)
        XCTAssertEqual(outdated.stdout, "")
    }
}
