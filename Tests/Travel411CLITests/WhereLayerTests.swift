import Foundation
import XCTest

/// `travel411 where --layer` through the binary, on Helsinki's extract imported by the binary itself: the kinds
/// of object that may answer, as Nominatim's `layer`, for one point and many.
final class WhereLayerTests: XCTestCase {
    private var cli: TravelCLI!
    private var databasePath: String { cli.folder.appendingPathComponent("helsinki.gpkg").path }

    private static let extract = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/osm/helsinki.osm.pbf").path

    override func setUpWithError() throws {
        cli = try TravelCLI()
        try cli.succeed(["import", Self.extract, "--db", databasePath])
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    /// By Savotta, a restaurant on Aleksanterinkatu without a house number: the restaurant by default and with
    /// `poi`; with `address` alone the nearest numbered house, 3 Sofiankatu; `natural` alone nothing.
    func testTheLayersChooseWhatAnswers() throws {
        let point = ["where", "60.168511,24.952699", "--db", databasePath, "--format", "csv", "--fields", "name,osmType,osmId"]
        XCTAssertTrue(try cli.succeed(point).contains(",Savotta,node,600082952,"))
        XCTAssertTrue(try cli.succeed(point + ["--layer", "poi"]).contains(",Savotta,node,600082952,"))
        XCTAssertTrue(try cli.succeed(point + ["--layer", "Address"]).contains(",3 Sofiankatu,node,448156825,"))
        XCTAssertTrue(try cli.succeed(point + ["--layer", "natural"]).contains("60.168511,24.952699,,,,"))
        let points = cli.folder.appendingPathComponent("points.csv")
        try Data("lat,lon\n60.168511,24.952699\n60.165559,24.941401\n".utf8).write(to: points)
        let many = try cli.succeed(["where", "--input", points.path, "--db", databasePath, "--layer", "address", "--fields", "name"])
        XCTAssertEqual(many, "lat,lon,name,error\n60.168511,24.952699,3 Sofiankatu,\n60.165559,24.941401,8 Bulevardi,\n")
    }

    func testAnUnknownLayerIsAUsageError() throws {
        for layer in ["trees", ",", "poi,,shops"] {
            let result = try cli.run(["where", "60.1719,24.9423", "--db", databasePath, "--layer", layer])
            XCTAssertEqual(result.status, 64, layer)
            XCTAssertTrue(result.stderr.contains("--layer takes address, poi, railway, natural, manmade"), result.stderr)
        }
    }
}
