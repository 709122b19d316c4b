import Foundation
import Travel411TestSupport
import XCTest

/// `travel411 serve` itself: its help, and what it says when the server executable is not built.
/// The server's behaviour is tested in Travel411ServeTests, against the running server.
final class ServeCommandTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    /// A travel411 with no travel411-serve beside it names the exact build command and exits 69.
    func testWithoutTheServerExecutableSaysHowToBuildIt() throws {
        let lonely = cli.folder.appendingPathComponent("bin/.build/debug")
        try FileManager.default.createDirectory(at: lonely, withIntermediateDirectories: true)
        let copy = lonely.appendingPathComponent("travel411")
        try FileManager.default.copyItem(at: TravelCLI.binary, to: copy)
        let (status, message) = try ChildProcess.run(copy, ["serve", "--port", "0"])
        XCTAssertEqual(status, 69, message)
        XCTAssertTrue(
            message.contains(
                "run `swift build --product travel411-serve --traits Server` in \(cli.folder.appendingPathComponent("bin").path)"), message)
    }

    func testBadOptionValuesAreUsageErrors() throws {
        let result = try cli.run(["serve", "--port", "eighty"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertEqual(result.stdout, "")
    }
}
