import Foundation
import XCTest

/// Golden-file checks of what the binary prints. Each case is two files in `Golden/`:
/// `<case>.args`, the arguments one per line (so "51.5174,-0.1200" stays one argument), and
/// `<case>.stdout`, the exact standard output expected (cases made in code pass their arguments and have
/// no .args file). Run with `TRAVEL411_UPDATE_GOLDEN=1` to rewrite the .stdout files from what the binary
/// prints now: each rewritten case then fails with "recorded a new baseline", so an update can never pass
/// by rewriting its own expectation. Review the change with `git diff` and run the tests again.
enum GoldenOutput {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    static var isUpdating: Bool { ProcessInfo.processInfo.environment["TRAVEL411_UPDATE_GOLDEN"] == "1" }

    struct MissingCase: Error, CustomStringConvertible { let description: String }

    static func arguments(_ name: String) throws -> [String] {
        let url = folder.appendingPathComponent(name + ".args")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else {
            throw MissingCase(description: "no golden arguments at \(url.path)")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).filter { !$0.isEmpty }
    }

    /// Runs the case's arguments, checks the exit status, and compares stdout with the golden file
    /// (or rewrites it when updating). Returns the run, for further checks of its output.
    @discardableResult
    static func check(
        _ name: String, with cli: TravelCLI, status: Int32 = 0,
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> TravelCLI.Result {
        try check(name, arguments: try arguments(name), with: cli, status: status, file: file, line: line)
    }

    /// As `check(_:with:)`, for a case whose arguments are given here rather than in a .args file.
    @discardableResult
    static func check(
        _ name: String, arguments: [String], with cli: TravelCLI, status: Int32 = 0,
        environment: [String: String] = [:],
        file: StaticString = #filePath, line: UInt = #line
    ) throws -> TravelCLI.Result {
        // Help text wraps at the terminal's width: fix it, so that the goldens do not depend on who runs them.
        let result = try cli.run(arguments, environment: environment.merging(["COLUMNS": "80"]) { given, _ in given })
        XCTAssertEqual(result.status, status, "travel411 \(arguments.joined(separator: " ")): \(result.stderr)", file: file, line: line)
        let expectedURL = folder.appendingPathComponent(name + ".stdout")
        if isUpdating {
            let previous = try? String(contentsOf: expectedURL, encoding: .utf8)
            if previous != result.stdout {
                try result.stdout.write(to: expectedURL, atomically: true, encoding: .utf8)
                XCTFail(
                    "recorded a new baseline for \(name) in \(expectedURL.lastPathComponent); review it with git diff and run the tests again without TRAVEL411_UPDATE_GOLDEN",
                    file: file, line: line)
            }
            return result
        }
        guard let expected = try? String(contentsOf: expectedURL, encoding: .utf8) else {
            XCTFail("no golden output at \(expectedURL.path); create it with TRAVEL411_UPDATE_GOLDEN=1", file: file, line: line)
            return result
        }
        if result.stdout != expected {
            XCTFail(
                "travel411 \(arguments.joined(separator: " ")) differs from \(name).stdout:\n\(firstDifference(expected, result.stdout))\n"
                    + "(if the change is intended, rerun with TRAVEL411_UPDATE_GOLDEN=1 and review the diff)", file: file, line: line)
        }
        return result
    }

    /// The first line that differs, as "line N: expected … / actual …".
    static func firstDifference(_ expected: String, _ actual: String) -> String {
        let expectedLines = expected.components(separatedBy: "\n"), actualLines = actual.components(separatedBy: "\n")
        for index in 0..<max(expectedLines.count, actualLines.count) {
            let want = index < expectedLines.count ? expectedLines[index] : "<end of output>"
            let got = index < actualLines.count ? actualLines[index] : "<end of output>"
            if want != got { return "line \(index + 1):\n  expected: \(want)\n  actual:   \(got)" }
        }
        return "(no line differs)"
    }
}
