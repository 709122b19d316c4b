import Foundation
import Travel411Core
import Travel411Guide
import XCTest

/// `travel411 map` end to end: golden outputs, files, the terminal (in tmux when it exists) and bad input.
final class MapCommandTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws { cli = try TravelCLI() }
    override func tearDownWithError() throws { cli.removeFolder() }

    /// The London destination map as SVG on stdout, checked in as a golden file.
    func testTheLondonMapSVGIsGolden() throws {
        let result = try GoldenOutput.check("map-london-svg", with: cli)
        XCTAssertTrue(result.stdout.hasPrefix("<?xml"))
        XCTAssertEqual(result.stderr, "")
    }

    /// Under NO_COLOR the terminal map is braille and letters, and golden too.
    func testTheTerminalMapWithoutColourIsGolden() throws {
        let arguments = try GoldenOutput.arguments("map-london-terminal-nocolor")
        let result = try cli.run(arguments, environment: ["NO_COLOR": "1"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stdout.utf8.contains(0x1B))
        let lines = result.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 24)
        XCTAssertTrue(lines.allSatisfy { $0.count == 80 })
        XCTAssertTrue(result.stdout.contains("London Heathrow Airport"))
        XCTAssertTrue(result.stdout.contains("@"), "the user's dot")
    }

    func testFilesOfEveryFormatAreWrittenAndNothingElseIsLeft() throws {
        for name in ["london.svg", "london.png", "london.PDF"] {
            let path = cli.folder.appendingPathComponent("out").appendingPathComponent(name).path
            try cli.succeed(["map", "--out", path, "--size", "640x480", "--callout", "city", "--pin", "51.5014,-0.1419,Buckingham Palace"])
            XCTAssertGreaterThan(try Data(contentsOf: URL(fileURLWithPath: path)).count, 1000, name)
        }
        let left = try FileManager.default.contentsOfDirectory(atPath: cli.folder.appendingPathComponent("out").path).sorted()
        XCTAssertEqual(left, ["london.PDF", "london.png", "london.svg"])
    }

    func testACalloutAtTheEdgeSaysOnStderrHowFarTheMapMoved() throws {
        // A region of the user's own is kept as given: only the callout moves the map.
        let result = try cli.run([
            "map", "--out", "-", "--size", "900x200", "--callout", "city", "--me", "51.47", "-0.45", "--region", "51.49,-0.29,0.04,0.36",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.hasPrefix("travel411: warning: moved the map "), result.stderr)
        XCTAssertTrue(result.stderr.contains("so that every callout fits"), result.stderr)
        XCTAssertTrue(result.stdout.contains(">London</text>"))
        XCTAssertTrue(result.stdout.contains(" from you</text>"))
    }

    func testBadInputGetsAClearMessageAndAUsageExit() throws {
        let cases: [([String], Int32, String)] = [
            (["map", "--region", "51.5,-0.1,0,0.2"], 64, "greater than 0"),
            (["map", "--region=-17,179,-1,2"], 64, "greater than 0"),
            (["map", "--region", "north"], 64, "LAT,LON,LATSPAN,LONSPAN"),
            (["map", "--out", "x.svg", "--size", "0x0"], 64, "greater than 0"),
            (["map", "--out", "x.png", "--size", "100000x100"], 64, "64 to 8192 pixels"),
            (["map", "--size", "big"], 64, "WIDTHxHEIGHT"),
            (["map", "--out", "map.gif"], 64, "use .svg, .png or .pdf (not .gif)"),
            (["map", "--out", "map"], 64, "use .svg, .png or .pdf"),
            (["map", "--out", "x.svg", "--terminal"], 64, "not both"),
            (["map", "--pin", "91,0"], 64, "latitude 91"),
            (["map", "--me", "51.5"], 64, "--me needs a latitude and a longitude"),
            (["map", "--destination", "Atlantis"], 1, "Atlantis"),
        ]
        for (arguments, status, message) in cases {
            let result = try cli.run(arguments)
            XCTAssertEqual(result.status, status, "\(arguments): \(result.stderr)")
            XCTAssertTrue(result.stderr.contains(message), "\(arguments): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", "\(arguments)")
        }
    }

    func testAnUnwritablePathFailsWithoutLeavingAFile() throws {
        let blocker = cli.folder.appendingPathComponent("a-file")
        try Data("x".utf8).write(to: blocker)
        let result = try cli.run(["map", "--out", blocker.appendingPathComponent("map.png").path])
        XCTAssertEqual(result.status, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("cannot write the map to"), result.stderr)
    }

    /// Colour only on a terminal: into a pipe the map has no escape codes, unless `--color always` asks.
    func testColourOnlyOnATerminalOrWhenAskedAndCreditsUnderTheMap() throws {
        let piped = try cli.run(["map", "--size", "80x24"], environment: ["COLORTERM": "truecolor", "TERM": "xterm-256color"])
        XCTAssertEqual(piped.status, 0, piped.stderr)
        XCTAssertFalse(piped.stdout.utf8.contains(0x1B), "escape codes into a pipe")
        let lines = piped.stdout.split(separator: "\n")
        XCTAssertEqual(lines.count, 24)
        XCTAssertTrue(lines.last?.contains("OpenStreetMap contributors") == true, "the credits are under the map: \(lines.last ?? "")")
        let asked = try cli.run(["map", "--size", "80x24", "--color", "always"], environment: ["COLORTERM": "truecolor"])
        XCTAssertTrue(asked.stdout.contains("\u{1B}[0;38;2;"))
        let never = try cli.run(["map", "--size", "80x24", "--color", "never"])
        XCTAssertFalse(never.stdout.utf8.contains(0x1B))
    }

    /// `--check-layout` passes on the London map and names nothing.
    func testTheLayoutCheckPassesOnTheLondonMapWithACallout() throws {
        let result = try cli.run([
            "map", "--out", "-", "--callout", "city", "--me", "51.5007", "-0.1246", "--check-layout",
        ])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertFalse(result.stderr.contains("layout:"), result.stderr)
    }

    /// In a tmux pane 80 columns wide the map fills the pane's width and no more.
    func testTheTerminalMapInATmuxPane() throws {
        guard
            let tmux = ["/usr/bin/tmux", "/usr/local/bin/tmux", "/opt/homebrew/bin/tmux"].first(where: FileManager.default.isExecutableFile)
        else {
            throw XCTSkip("tmux is not installed")
        }
        let session = "travel411-map"
        // A socket in the test's own folder, removed with it.
        let socket = cli.folder.appendingPathComponent("tmux.sock").path
        // posix_spawn and waitpid, not Process: Foundation waits for every holder of its internal pipe
        // to go, and the tmux server that new-session leaves running would hold it for ever.
        let captured = cli.folder.appendingPathComponent("tmux.out").path
        let environment = cli.environment(["TERM": "xterm-256color"]).map { "\($0.key)=\($0.value)" }
        func tmuxRun(_ arguments: [String]) throws -> String {
            var actions = posix_spawn_file_actions_t()
            posix_spawn_file_actions_init(&actions)
            defer { posix_spawn_file_actions_destroy(&actions) }
            posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
            posix_spawn_file_actions_addopen(&actions, 1, captured, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
            let argv = ([tmux] + arguments).map { strdup($0) } + [nil]
            let envp = environment.map { strdup($0) } + [nil]
            defer { (argv + envp).forEach { free($0) } }
            var pid: pid_t = 0
            guard posix_spawn(&pid, tmux, &actions, nil, argv, envp) == 0 else { throw XCTSkip("cannot start tmux") }
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            return (try? String(contentsOf: URL(fileURLWithPath: captured), encoding: .utf8)) ?? ""
        }
        _ = try tmuxRun(["-S", socket, "new-session", "-d", "-s", session, "-x", "80", "-y", "40"])
        defer { _ = try? tmuxRun(["-S", socket, "kill-server"]) }
        // A colour terminal whatever the environment the tests run in (CI has no TERM): the half-block map.
        let settings = cli.environment().filter { $0.key.hasPrefix("TRAVEL411_") || $0.key == "XDG_DATA_HOME" }
            .map { "\($0.key)='\($0.value)'" }.sorted().joined(separator: " ")
        _ = try tmuxRun([
            "-S", socket, "send-keys", "-t", session,
            "clear; env -u NO_COLOR TERM=xterm-256color \(settings) '\(TravelCLI.binary.path)' map; echo MAP-DONE", "Enter",
        ])
        var screen = ""
        for _ in 0..<300 {
            Thread.sleep(forTimeInterval: 0.1)
            screen = try tmuxRun(["-S", socket, "capture-pane", "-p", "-t", session])
            if screen.split(separator: "\n").contains("MAP-DONE") { break }
        }
        XCTAssertTrue(screen.split(separator: "\n").contains("MAP-DONE"), "the map did not finish in the pane:\n\(screen)")
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        XCTAssertTrue(lines.allSatisfy { $0.count <= 80 }, screen)
        XCTAssertTrue(lines.contains { $0.count == 80 && $0.contains("▀") }, "no line fills the pane's 80 columns:\n\(screen)")
        XCTAssertTrue(screen.contains("London Heathrow Airport"), screen)
    }

    /// --track draws the drive as one line and marks where it left and entered the destination's regions,
    /// found by the same rules as `travel411 track`.
    func testATrackIsDrawnWithItsRegionEvents() throws {
        let log = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/tracks/nmea/dotMorten-NmeaParser/NmeaSampleData.txt").path
        try cli.succeed(["destination", "create", "Reno", "--airport", "RNO"])
        try cli.succeed(["regions", "add", "Home", "39.4328", "-119.7656", "--radius", "100"])
        try cli.succeed(["regions", "add", "Steamboat", "39.3813", "-119.8229", "--radius", "300"])
        let svg = cli.folder.appendingPathComponent("reno.svg")
        let result = try cli.run(["map", "--track", log, "--out", svg.path])
        XCTAssertEqual(result.status, 0, result.stderr)
        let text = try String(contentsOf: svg, encoding: .utf8)
        XCTAssertTrue(text.contains(">exit Home "), "the exit from Home is marked")
        XCTAssertTrue(text.contains(">enter Steamboat "), "the entry into Steamboat is marked")
        XCTAssertTrue(text.contains(">Steamboat (300 m)<"), "the region is drawn with its name and radius")
        XCTAssertTrue(text.contains("<polyline") || text.contains("<path"), "the track is a line")
        XCTAssertTrue(text.contains(">Track<"), "the legend names the track")

        let missing = try cli.run(["map", "--track", cli.folder.appendingPathComponent("none.gpx").path, "--out", svg.path])
        XCTAssertEqual(missing.status, 66, missing.stderr)
    }
}
