import Foundation
import XCTest

/// `travel411 where --input` on semicolon-separated CSV, as European spreadsheets write it, and
/// `--delimiter`, end to end on the real places database.
final class WhereDelimiterTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func write(_ text: String, named name: String) throws -> String {
        let url = cli.folder.appendingPathComponent(name)
        try Data(text.utf8).write(to: url)
        return url.path
    }

    /// The README's example: decimal commas read, semicolons written, the bad row flagged.
    func testASemicolonFileWithDecimalCommasComesBackWithSemicolons() throws {
        let path = try write(
            """
            id;lat;lon;note
            heathrow;51,47;-0,45;"arrivals; terminal 5"
            fitzrovia;51,51651;-0,13739;
            typo;51,5,1;-0,12;

            """, named: "pts.csv")
        let result = try cli.run(["where", "--input", path, "--fields", "locality,postalCode,distance,description"])
        XCTAssertEqual(result.status, 65, result.stderr)
        XCTAssertEqual(
            result.stdout,
            """
            id;lat;lon;note;locality;postalCode;distance;description;error
            heathrow;51,47;-0,45;"arrivals; terminal 5";London;TW6 1EW;2628;2.6 km NE of Stanwell;
            fitzrovia;51,51651;-0,13739;;London;W1T 3QJ;274;274 m NNW of Soho;
            typo;51,5,1;-0,12;;;;;;line 4: latitude '51,5,1' is not a number (one decimal comma between digits, as in 51,47)

            """)
        XCTAssertTrue(result.stderr.contains("3 rows, 1 error"), result.stderr)
    }

    func testTheDelimiterOptionReadsWhatDetectionCannot() throws {
        let pipe = try write("lat|lon\n51,47|-0,45\n", named: "pts.txt")
        XCTAssertEqual(
            try cli.succeed(["where", "--input", pipe, "--delimiter", "|", "--fields", "locality"]),
            "lat|lon|locality|error\n51,47|-0,45|London|\n")
        // Header-less with decimal commas: more commas than semicolons, so the delimiter is named.
        let headerless = try write("51,47;-0,45\n", named: "headerless.csv")
        XCTAssertEqual(
            try cli.succeed(["where", "--input", headerless, "--delimiter", ";", "--fields", "isoCountryCode"]),
            "lat;lon;isoCountryCode;error\n51,47;-0,45;GB;\n")
        let tabs = try write("lat\tlon\n51.47\t-0.45\n", named: "tabs.csv")
        for argument in ["tab", "\\t"] {
            XCTAssertEqual(
                try cli.succeed(["where", "--input", tabs, "--delimiter", argument, "--fields", "isoCountryCode"]),
                "lat\tlon\tisoCountryCode\terror\n51.47\t-0.45\tGB\t\n", argument)
        }
    }

    func testABadDelimiterIsAUsageError() throws {
        let csv = try write("lat;lon\n51,47;-0,45\n", named: "pts.csv")
        let jsonl = try write("{\"lat\":51.47,\"lon\":-0.45}\n", named: "pts.jsonl")
        let cases: [([String], String)] = [
            (["where", "--input", csv, "--delimiter", ":"], "The value ':' is invalid for '--delimiter <char>'"),
            (["where", "--input", csv, "--delimiter", "semi"], "The value 'semi' is invalid for '--delimiter <char>'"),
            (["where", "--input", jsonl, "--delimiter", ";"], "--delimiter applies to CSV input, and \(jsonl) is jsonl by its extension"),
            (
                ["where", "--input", csv, "--input-format", "geojson", "--delimiter", ";"],
                "--delimiter applies to CSV input, not to --input-format geojson"
            ),
        ]
        for (arguments, message) in cases {
            let result = try cli.run(arguments)
            let command = arguments.joined(separator: " ")
            XCTAssertEqual(result.status, 64, "\(command): \(result.stderr)")
            XCTAssertEqual(result.stdout, "", command)
            XCTAssertTrue(result.stderr.contains(message), "\(command): “\(result.stderr)” lacks “\(message)”")
        }
    }
}
