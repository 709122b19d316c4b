import Foundation
import XCTest

/// `travel411 where` through the binary, on Helsinki's extract imported by the binary itself: `--language` (the
/// streets, suburbs and city in the extract's `name:sv` and `name:fi`) and `--layer` (the kinds of object that
/// may answer, as Nominatim's `layer`), one point and many alike.
final class WhereOnAnExtractTests: XCTestCase {
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

    /// Ravintola Bank, Unioninkatu 20, Kaartinkaupunki; and Vilhonkatu, whose name follows its street.
    func testOnePointAndManyInTheLanguagesAsked() throws {
        let fields = "name,thoroughfare,subLocality,locality"
        let swedish = try cli.succeed(["where", "60.166165,24.950632", "--db", databasePath, "--language", "sv", "--fields", fields])
        XCTAssertEqual(
            swedish,
            """
            location               60.166165, 24.950632
            name                   Ravintola Bank
            thoroughfare           Unionsgatan
            subLocality            Gardesstaden
            locality               Helsingfors

            """)
        // An unknown language first, then Finnish: Finnish.
        let finnish = try cli.succeed(["where", "60.166165", "24.950632", "--db", databasePath, "--language", "xx,fi", "--format", "csv"])
        XCTAssertTrue(finnish.contains(",Ravintola Bank,Unioninkatu,20,Helsinki,Kaartinkaupunki,"), finnish)

        let points = try TemporaryInput.write("lat,lon\n60.166165,24.950632\n60.1719,24.9423\n", in: cli.folder, as: "points.csv")
        let many = try cli.succeed(["where", "--input", points, "--db", databasePath, "--language", "sv", "--fields", fields])
        XCTAssertEqual(
            many,
            """
            lat,lon,name,thoroughfare,subLocality,locality,error
            60.166165,24.950632,Ravintola Bank,Unionsgatan,Gardesstaden,Helsingfors,
            60.1719,24.9423,Vilhelmsgatan,Vilhelmsgatan,Kajsaniemi,Helsingfors,

            """)
        // The nearest locality is Helsinki's own node, named as the locality is, in the description too.
        let nearest = try cli.succeed([
            "where", "60.1699,24.9384", "--db", databasePath, "--language", "sv", "--fields", "locality,nearestLocality,description",
        ])
        XCTAssertEqual(
            nearest,
            """
            location               60.1699, 24.9384
            locality               Helsingfors
            nearestLocality        Helsingfors
            description            361 m NW of Helsingfors

            """)
        let nominatim = try cli.succeed(["where", "60.1719,24.9423", "--db", databasePath, "--language", "sv", "--format", "nominatim"])
        // The neighbourhood too, as Nominatim names it in Swedish (Keskusta: Centrum).
        XCTAssertTrue(nominatim.contains(#""display_name":"Vilhelmsgatan, Centrum, Kajsaniemi, Helsingfors, 00101, Finland""#), nominatim)
    }

    func testALanguageListNamingNoLanguageIsAUsageError() throws {
        let result = try cli.run(["where", "60.1719,24.9423", "--db", databasePath, "--language", ","])
        XCTAssertEqual(result.status, 64)
        XCTAssertTrue(result.stderr.contains("--language names no language"), result.stderr)
    }

    /// By Savotta, a restaurant on Aleksanterinkatu without a house number: the restaurant by default and with
    /// `poi`; with `address` alone the nearest numbered house, 22 Aleksanterinkatu; `natural` alone nothing. (Not
    /// 35 m south, inside the city hall, a building with the number 11-13 that answers with every layer but `poi`.)
    func testTheLayersChooseWhatAnswers() throws {
        let point = ["where", "60.1688,24.95265", "--db", databasePath, "--format", "csv", "--fields", "name,osmType,osmId"]
        XCTAssertTrue(try cli.succeed(point).contains(",Savotta,node,600082952,"))
        XCTAssertTrue(try cli.succeed(point + ["--layer", "poi"]).contains(",Savotta,node,600082952,"))
        XCTAssertTrue(try cli.succeed(point + ["--layer", "Address"]).contains(",22 Aleksanterinkatu,node,3223237537,"))
        XCTAssertTrue(try cli.succeed(point + ["--layer", "natural"]).contains("60.1688,24.95265,,,,"))
        // As text, an empty answer says why.
        let nothing = try cli.run(["where", "60.1688,24.95265", "--db", databasePath, "--layer", "natural,railway"])
        XCTAssertEqual(nothing.status, 0, nothing.stderr)
        XCTAssertEqual(nothing.stdout, "location               60.1688, 24.95265\n")
        XCTAssertTrue(nothing.stderr.contains("travel411: warning: nothing of --layer natural,railway answers here"), nothing.stderr)
        let points = try TemporaryInput.write("lat,lon\n60.1688,24.95265\n60.165559,24.941401\n", in: cli.folder, as: "points.csv")
        let many = try cli.succeed(["where", "--input", points, "--db", databasePath, "--layer", "address", "--fields", "name"])
        XCTAssertEqual(many, "lat,lon,name,error\n60.1688,24.95265,22 Aleksanterinkatu,\n60.165559,24.941401,8 Bulevardi,\n")
    }

    func testAnUnknownLayerIsAUsageError() throws {
        for layer in ["trees", ",", "poi,,shops"] {
            let result = try cli.run(["where", "60.1719,24.9423", "--db", databasePath, "--layer", layer])
            XCTAssertEqual(result.status, 64, layer)
            XCTAssertTrue(result.stderr.contains("--layer takes address, poi, railway, natural, manmade"), result.stderr)
        }
    }
}

/// An input file in a test's folder.
private enum TemporaryInput {
    static func write(_ text: String, in folder: URL, as name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
