import Foundation
import Travel411Answers
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411TestSupport
import XCTest

/// The full `--help` of every command and the text and JSON of the travel commands, as golden files.
/// Each travel case runs on a fresh state file, which starts as the book's London.
final class GoldenCommandsTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    /// Every command and subcommand the binary has; a new command must be added here (the test below
    /// fails when the top-level help lists one that is missing).
    static let commands: [[String]] = [
        [], ["where"], ["import"],
        ["destination"], ["destination", "create"], ["destination", "list"], ["destination", "show"],
        ["destination", "use"], ["destination", "rename"], ["destination", "delete"],
        ["move-city"], ["region"], ["distance"],
        ["airports"], ["airports", "show"], ["airports", "near"],
        ["track"], ["regions"], ["regions", "add"], ["regions", "list"], ["regions", "remove"],
        ["quakes"], ["map"], ["serve"],
    ]

    func testTheHelpOfEveryCommand() throws {
        for command in Self.commands {
            let name = "help-" + (command.isEmpty ? "travel411" : command.joined(separator: "-"))
            let help = try GoldenOutput.check(name, arguments: command + ["--help"], with: cli)
            // The man pages (Scripts/man, argument-parser's generate-manual) drop every character that is not
            // ASCII: "HDOP × 5 m" became "HDOP  5 m", "±180°" "180".
            let foreign = help.stdout.unicodeScalars.filter { !$0.isASCII }
            XCTAssertTrue(foreign.isEmpty, "\(name): \(String(String.UnicodeScalarView(foreign))) would be lost from its man page")
        }
    }

    func testEveryListedSubcommandHasAHelpGolden() throws {
        let help = try cli.succeed(["--help"])
        let listed = help.components(separatedBy: "SUBCOMMANDS:").last ?? ""
        let names = listed.split(separator: "\n").compactMap { line -> String? in
            let words = line.split(separator: " ")
            return line.hasPrefix("  ") && !line.hasPrefix("   ") ? words.first.map(String.init) : nil
        }.filter { $0 != "See" }
        XCTAssertFalse(names.isEmpty, help)
        for name in names {
            XCTAssertTrue(Self.commands.contains([name]), "\(name) is listed by --help but has no help golden")
        }
    }

    // MARK: The travel commands, text and JSON

    func testDestinationShowAndList() throws {
        try GoldenOutput.check("destination-show-text", arguments: ["destination", "show"], with: cli)
        try GoldenOutput.check("destination-show-json", arguments: ["destination", "show", "--format", "json"], with: cli)
        try GoldenOutput.check("destination-list-text", arguments: ["destination", "list"], with: cli)
        try GoldenOutput.check("destination-list-json", arguments: ["destination", "list", "--format", "json"], with: cli)
    }

    func testRegion() throws {
        try GoldenOutput.check("region-text", arguments: ["region", "--include", "51.6", "-0.5"], with: cli)
        try GoldenOutput.check("region-json", arguments: ["region", "--format", "json"], with: cli)
    }

    func testDistance() throws {
        try GoldenOutput.check("distance-text", arguments: ["distance"], with: cli)
        try GoldenOutput.check("distance-json", arguments: ["distance", "--from", "51.47", "-0.45", "--format", "json"], with: cli)
    }

    func testAirports() throws {
        try GoldenOutput.check("airports-show-text", arguments: ["airports", "show", "LHR"], with: cli)
        try GoldenOutput.check("airports-show-json", arguments: ["airports", "show", "LHR", "--format", "json"], with: cli)
        try GoldenOutput.check("airports-near-text", arguments: ["airports", "near", "51.47", "-0.45", "--limit", "3"], with: cli)
        try GoldenOutput.check(
            "airports-near-json", arguments: ["airports", "near", "-16.7", "-179.9", "--limit", "2", "--format", "json"], with: cli)
    }

    func testMoveCityText() throws {
        try GoldenOutput.check("move-city-text", arguments: ["move-city", "51.5010", "-0.1919"], with: cli)
    }

    func testMoveCityJSON() throws {
        try GoldenOutput.check("move-city-json", arguments: ["move-city", "51.5010", "-0.1919", "--format", "json"], with: cli)
    }

    // MARK: One JSON shape per type

    /// The placemark inside `airports show --format json` is the object `where --format json` prints for
    /// the same point: the same keys, the same values.
    func testAirportsShowAndWherePrintTheSamePlacemark() throws {
        let shown = try XCTUnwrap(try cli.json(["airports", "show", "LHR", "--format", "json"]) as? [String: Any])
        let airport = try XCTUnwrap(shown["airport"] as? [String: Any])
        let latitude = try XCTUnwrap(airport["latitude"] as? Double), longitude = try XCTUnwrap(airport["longitude"] as? Double)
        let embedded = try XCTUnwrap(shown["placemark"] as? NSDictionary)
        let single = try XCTUnwrap(try cli.json(["where", "\(latitude)", "\(longitude)", "--format", "json"]) as? NSDictionary)
        XCTAssertEqual(embedded, single)
        XCTAssertEqual(Set(single.allKeys as? [String] ?? []), Set(["latitude", "longitude"] + PlacemarkField.standard.map(\.rawValue)))
    }

    /// The library's `Placemark` encoding and the compact writer `where` uses agree for points everywhere.
    func testThePlacemarkEncodingEqualsTheCompactWriter() throws {
        let geocoder = try ReverseGeocoder(databasePath: PlacesForTests.path)
        let points = [(51.47, -0.45), (51.51651, -0.13739), (40, -40), (-17.7, 178.3), (48.86, 2.35), (0, 0), (-33.86, 151.21)]
        for (latitude, longitude) in points {
            let placemark = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
            let compact = try JSONSerialization.jsonObject(with: Data(PlacemarkFormatter.jsonObject(placemark).utf8)) as? NSDictionary
            let encoded = try JSONSerialization.jsonObject(with: Data(JSONDocument.text(placemark).utf8)) as? NSDictionary
            XCTAssertEqual(compact, encoded, "\(latitude), \(longitude)")
        }
    }
}
