import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411Store
import XCTest

/// `travel411 where` end to end on the real places database: exact output in every format (golden files
/// in Golden/), JSON that parses and carries every placemark key, and usage errors with exit 64.
final class WhereCommandTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    /// The keys `--format json` must write: location, then every placemark field.
    private static let placemarkKeys = ["latitude", "longitude"] + PlacemarkField.standard.map(\.rawValue)

    private func parseObject(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let parsed = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
        return try XCTUnwrap(parsed as? [String: Any], "not a JSON object: \(text)", file: file, line: line)
    }

    /// Every key present, each value equal to the library's answer for the same point, null when absent.
    private func assertPlacemarkObject(
        _ object: [String: Any], latitude: Double, longitude: Double,
        file: StaticString = #filePath, line: UInt = #line
    ) throws {
        XCTAssertEqual(Set(object.keys), Set(Self.placemarkKeys), file: file, line: line)
        XCTAssertEqual(object["latitude"] as? Double, latitude, file: file, line: line)
        XCTAssertEqual(object["longitude"] as? Double, longitude, file: file, line: line)
        let geocoder = try ReverseGeocoder(databasePath: PlacesForTests.path)
        let expected = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
        for field in PlacemarkField.standard {
            let value = object[field.rawValue]
            switch (field.text(in: expected), value) {
            case (nil, is NSNull): break
            case (let text?, let flag as NSNumber) where Bool(text) != nil:
                XCTAssertEqual(flag.boolValue, Bool(text), field.rawValue, file: file, line: line)
            case (let text?, let number as NSNumber) where field.isNumeric:
                XCTAssertEqual(number.stringValue, text, field.rawValue, file: file, line: line)
            case (let text?, let string as String) where !field.isNumeric:
                XCTAssertEqual(string, text, field.rawValue, file: file, line: line)
            default:
                XCTFail(
                    "\(field.rawValue): expected \(field.text(in: expected) ?? "null"), got \(value ?? "nothing")", file: file, line: line)
            }
        }
    }

    // MARK: Golden output

    func testHeathrowAsText() throws {
        let result = try GoldenOutput.check("where-heathrow-text", with: cli)
        XCTAssertTrue(result.stdout.contains("country                United Kingdom\n"), result.stdout)
        XCTAssertEqual(result.stderr, "", "nothing on stderr when the database exists")
    }

    func testHeathrowAsJSON() throws {
        let result = try GoldenOutput.check("where-heathrow-json", with: cli)
        let object = try parseObject(result.stdout)
        try assertPlacemarkObject(object, latitude: 51.47, longitude: -0.45)
        XCTAssertEqual(object["isoCountryCode"] as? String, "GB")
        XCTAssertTrue(object["ocean"] is NSNull)
    }

    func testHeathrowAsGeoJSON() throws {
        let result = try GoldenOutput.check("where-heathrow-geojson", with: cli)
        let feature = try parseObject(result.stdout)
        XCTAssertEqual(feature["type"] as? String, "Feature")
        let geometry = try XCTUnwrap(feature["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["type"] as? String, "Point")
        XCTAssertEqual(geometry["coordinates"] as? [Double], [-0.45, 51.47], "GeoJSON is longitude first")
        try assertPlacemarkObject(try XCTUnwrap(feature["properties"] as? [String: Any]), latitude: 51.47, longitude: -0.45)
    }

    func testHeathrowAsNominatim() throws {
        let result = try GoldenOutput.check("where-heathrow-nominatim", with: cli)
        let answer = try parseObject(result.stdout)
        XCTAssertEqual(answer["lat"] as? String, "51.47")
        XCTAssertEqual(answer["lon"] as? String, "-0.45")
        XCTAssertNotNil(answer["place_id"] as? NSNumber)
        let address = try XCTUnwrap(answer["address"] as? [String: String])
        XCTAssertEqual(address["country_code"], "gb")
        XCTAssertEqual(address["city"], "London")
        XCTAssertTrue(address["postcode"]?.hasPrefix("TW6") == true, "\(address)")
        let box = try XCTUnwrap(answer["boundingbox"] as? [String])
        XCTAssertEqual(box.count, 4)
        XCTAssertEqual(box.compactMap(Double.init).count, 4, "\(box)")
    }

    func testOneArgumentPairForm() throws {
        let result = try GoldenOutput.check("where-kingsway-pair-text", with: cli)
        XCTAssertTrue(result.stdout.contains("thoroughfare           Kingsway\n"), result.stdout)
        XCTAssertEqual(result.stdout, try cli.succeed(["where", "51.5174", "-0.1200"]), "the same answer as two arguments")
    }

    func testTheNorthAtlanticAsJSON() throws {
        let result = try GoldenOutput.check("where-north-atlantic-json", with: cli)
        let object = try parseObject(result.stdout)
        try assertPlacemarkObject(object, latitude: 40, longitude: -40)
        XCTAssertTrue((object["ocean"] as? String)?.contains("North Atlantic") == true, result.stdout)
        XCTAssertTrue(object["country"] is NSNull)
    }

    func testAtSeaNominatimCannotGeocode() throws {
        let result = try GoldenOutput.check("where-null-island-nominatim", with: cli)
        XCTAssertEqual(try parseObject(result.stdout) as? [String: String], ["error": "Unable to geocode"])
    }

    /// "LAT,LON" with a southern latitude starts with "-", which ArgumentParser takes for an option.
    func testASouthernPairInOneArgument() throws {
        let twoArguments = try cli.succeed(["where", "-33.86", "151.21"])
        XCTAssertTrue(twoArguments.contains("country                Australia\n"), twoArguments)
        let result = try cli.run(["where", "-33.86,151.21"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, twoArguments)
    }

    // MARK: First use

    /// With no database yet, the first `where` builds one from the embedded data, saying so on stderr and
    /// keeping stdout for the answer. `TRAVEL411_DATA` points it at the London boroughs alone, to stay fast.
    func testTheFirstLookupBuildsTheDatabase() throws {
        let data = try copyLondonBoroughs(to: cli.folder.appendingPathComponent("data"))
        let database = cli.folder.appendingPathComponent("first-use.gpkg").path
        let first = try cli.run(["where", "51.5074", "-0.1278", "--db", database], environment: ["TRAVEL411_DATA": data.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(first.stdout, "location               51.5074, -0.1278\nsubAdministrativeArea  Westminster\n")
        XCTAssertTrue(first.stderr.contains("No places database at \(database) yet: building it from \(data.path)"), first.stderr)

        let second = try cli.run(["where", "51.5074", "-0.1278", "--db", database], environment: ["TRAVEL411_DATA": data.path])
        XCTAssertEqual(second.stdout, first.stdout)
        XCTAssertEqual(second.stderr, "", "built once only")
    }

    func testAFirstLookupThatCannotBuildTheDatabaseFailsAndLeavesNoFile() throws {
        let empty = cli.folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let database = cli.folder.appendingPathComponent("never.gpkg").path
        let result = try cli.run(["where", "51.5074", "-0.1278", "--db", database], environment: ["TRAVEL411_DATA": empty.path])
        XCTAssertNotEqual(result.status, 0)
        XCTAssertEqual(result.stdout, "")
        XCTAssertTrue(result.stderr.contains("travel411: error: \(empty.path): no .shp files in this folder"), result.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: database))
    }

    /// A folder holding Data/'s London boroughs alone: quick to import.
    private func copyLondonBoroughs(to folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let boroughs = try EmbeddedData.locate().appendingPathComponent("districts")
        for fileExtension in ["shp", "shx", "dbf", "prj", "cpg"] {
            try FileManager.default.copyItem(
                at: boroughs.appendingPathComponent("london_boroughs.\(fileExtension)"),
                to: folder.appendingPathComponent("london_boroughs.\(fileExtension)"))
        }
        return folder
    }

    // MARK: After an upgrade

    /// What an older travel411 would have left: lookup tables of another version.
    private func setLookupTablesVersion(_ version: String, in database: String) throws {
        try SQLiteDatabase(path: database, mode: .readWrite)
            .run("UPDATE travel411_metadata SET value = ? WHERE key = 'lookup_schema_version'", [.text(version)])
    }

    /// A database that an older travel411 built from the embedded data is rebuilt from it, wherever the
    /// path came from, saying so on stderr; the answer is the one a current database gives.
    func testALookupRebuildsADatabaseThatAnotherVersionBuiltFromTheEmbeddedData() throws {
        let data = try copyLondonBoroughs(to: cli.folder.appendingPathComponent("data"))
        let arguments = ["where", "51.5074", "-0.1278"]
        let flagged = cli.folder.appendingPathComponent("flagged.gpkg").path
        let fromEnvironment = cli.folder.appendingPathComponent("environment.gpkg").path
        let ways: [(database: String, arguments: [String], environment: [String: String])] = [
            (flagged, arguments + ["--db", flagged], ["TRAVEL411_DATA": data.path]),
            (fromEnvironment, arguments, ["TRAVEL411_DATA": data.path, "TRAVEL411_DB": fromEnvironment]),
            (
                cli.folder.appendingPathComponent("xdg/travel411/places.gpkg").path, arguments,
                ["TRAVEL411_DATA": data.path, "TRAVEL411_DB": ""]
            ),
        ]
        for way in ways {
            let built = try cli.run(way.arguments, environment: way.environment)
            XCTAssertEqual(built.status, 0, built.stderr)
            XCTAssertEqual(built.stdout, "location               51.5074, -0.1278\nsubAdministrativeArea  Westminster\n")
            try setLookupTablesVersion("2", in: way.database)

            let rebuilt = try cli.run(way.arguments, environment: way.environment)
            XCTAssertEqual(rebuilt.status, 0, rebuilt.stderr)
            XCTAssertEqual(rebuilt.stdout, built.stdout)
            let announcement =
                "The places database at \(way.database) was built by another version of travel411 (lookup tables 2): rebuilding it from \(data.path)"
            XCTAssertTrue(rebuilt.stderr.contains(announcement), rebuilt.stderr)

            let after = try cli.run(way.arguments, environment: way.environment)
            XCTAssertEqual(after.stdout, built.stdout)
            XCTAssertEqual(after.stderr, "", "rebuilt once only")
        }
    }

    /// A database imported from the user's own shapefiles is theirs: it stays as it is, and the error
    /// (exit 65, as before) gives the import that rebuilds it, which works when pasted into a shell.
    func testALookupOnAnOutdatedDatabaseOfOtherShapefilesGivesTheImportToRun() throws {
        let mine = try copyLondonBoroughs(to: cli.folder.appendingPathComponent("my maps"))
        let database = cli.folder.appendingPathComponent("mine.gpkg").path
        try cli.succeed(["import", mine.path, "--db", database])
        try setLookupTablesVersion("2", in: database)
        let before = try SourceChecksum.sha256Hex(ofFiles: [URL(fileURLWithPath: database)])

        let result = try cli.run(["where", "51.5074", "-0.1278", "--db", database])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(result.stdout, "")
        let shapefile = mine.appendingPathComponent("london_boroughs.shp").path
        let command = "travel411 import '\(shapefile)' --db \(database)"
        XCTAssertEqual(
            result.stderr,
            """
            travel411: error: \(database): this places database was built by another version of travel411 (lookup tables 2); \
            rebuild it from its shapefiles with `\(command)`

            """)
        XCTAssertEqual(try SourceChecksum.sha256Hex(ofFiles: [URL(fileURLWithPath: database)]), before, "left byte for byte as it was")

        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", "'\(TravelCLI.binary.path)'" + command.dropFirst("travel411".count)]
        shell.environment = cli.environment()
        shell.standardOutput = FileHandle.nullDevice
        try shell.run()
        shell.waitUntilExit()
        XCTAssertEqual(shell.terminationStatus, 0, "the command in the message failed")
        let answer = try cli.run(["where", "51.5074", "-0.1278", "--db", database])
        XCTAssertEqual(answer.status, 0, answer.stderr)
        XCTAssertEqual(answer.stdout, "location               51.5074, -0.1278\nsubAdministrativeArea  Westminster\n")
    }

    // MARK: Usage errors

    func testBadCoordinatesExit64SayingWhy() throws {
        let cases: [([String], [String])] = [
            (["where", "95", "0"], ["latitude", "95", "outside [-90, 90]"]),
            (["where", "abc", "0"], ["latitude", "'abc' is not a number"]),
            (["where", "51.5", "200"], ["longitude", "200", "outside [-180, 180]"]),
            (["where", "51.5"], ["needs a latitude and a longitude", "got '51.5'"]),
            (["where", "51.5,"], ["'51.5,' is not a coordinate"]),
            (["where", "1", "2", "3"], ["give one coordinate"]),
            (["where", "51.47", "-0.45", "--format", "xml"], ["The value 'xml' is invalid for '--format <format>'", "nominatim"]),
            (
                ["where", "51.47", "-0.45", "--format", "nominatim", "--fields", "locality"],
                ["--fields does not apply to --format nominatim"]
            ),
            (["where", "51.47", "-0.45", "--fields", "town"], ["--fields: unknown field 'town'"]),
        ]
        for (arguments, parts) in cases {
            let result = try cli.run(arguments)
            let command = arguments.joined(separator: " ")
            XCTAssertEqual(result.status, 64, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", command)
            for part in parts {
                XCTAssertTrue(result.stderr.contains(part), "\(command): “\(result.stderr)” lacks “\(part)”")
            }
        }
    }

    // MARK: The top-level command

    func testVersionAndHelp() throws {
        XCTAssertEqual(try cli.succeed(["--version"]), Travel411.version + "\n")
        let help = try cli.succeed(["--help"])
        for subcommand in ["where", "import"] {
            XCTAssertTrue(help.contains("  \(subcommand)"), help)
        }
        XCTAssertTrue(try cli.succeed(["where", "--help"]).contains("--format"))
    }

    func testAnUnknownSubcommandIsAUsageError() throws {
        let result = try cli.run(["wherever", "51.47", "-0.45"])
        XCTAssertEqual(result.status, 64, result.stderr)
        XCTAssertTrue(result.stderr.contains("wherever"), result.stderr)
        XCTAssertEqual(result.stdout, "")
    }
}
