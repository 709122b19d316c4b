import Foundation
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder

/// CSV as spreadsheets in much of Europe write it: `;` between fields.
final class SemicolonCSVBatchTests: XCTestCase {
    private let countryOnly = BatchOptions(fields: [.country])

    func testASemicolonFileIsReadAndWrittenWithSemicolons() throws {
        let run = try runBatch("id;lat;lon\n1;51.5;-0.1\n2;-33.9;151.2\n", options: BatchOptions(fields: [.country, .isoCountryCode]))
        XCTAssertEqual(run.text, "id;lat;lon;country;isoCountryCode;error\n1;51.5;-0.1;N;W;\n2;-33.9;151.2;S;E;\n")
        XCTAssertEqual(run.summary.rows, 2)
        XCTAssertEqual(run.summary.errors, 0)
    }

    func testASemicolonFileIsDetectedByContentToo() throws {
        let run = try runBatch("id;lat;lon\n1;51.5;-0.1\n", name: "points", options: countryOnly)
        XCTAssertEqual(run.text, "id;lat;lon;country;error\n1;51.5;-0.1;N;\n")
    }

    func testACommaFileWithSemicolonsInsideAQuotedHeaderStaysComma() throws {
        let run = try runBatch("id,\"note;a;b\",lat,lon\n1,x;y;z,51.5,-0.1\n", options: countryOnly)
        XCTAssertEqual(run.text, "id,note;a;b,lat,lon,country,error\n1,x;y;z,51.5,-0.1,N,\n")
    }

    func testTSVIsUnchanged() throws {
        let input = "name;x;y\tlat\tlon\nA;B\t51.5\t-0.1\n"
        for name in ["points.tsv", "points"] {
            let run = try runBatch(input, name: name, options: countryOnly)
            XCTAssertEqual(run.text, "name;x;y,lat,lon,country,error\nA;B,51.5,-0.1,N,\n", name)
            let tsv = try runBatch(input, name: name, options: BatchOptions(outputFormat: .tsv, fields: [.country]))
            XCTAssertEqual(tsv.text, "name;x;y\tlat\tlon\tcountry\terror\nA;B\t51.5\t-0.1\tN\t\n", name)
        }
    }

    /// Quoting follows the output's delimiter: `;` needs quotes, `,` does not.
    func testValuesHoldingASemicolonAreQuoted() throws {
        let geocode: @Sendable (Coordinate) -> Placemark = { coordinate in
            var placemark = Placemark(location: coordinate)
            placemark.country = "Bosnia; Herzegovina"
            placemark.administrativeArea = "Region, North"
            return placemark
        }
        let input = "id;\"note;more\";lat;lon\n1;\"a;b\";51.5;-0.1\n2;short\n"
        let run = try runBatch(Data(input.utf8), options: BatchOptions(fields: [.country, .administrativeArea]), geocode: geocode)
        XCTAssertEqual(
            run.text,
            """
            id;"note;more";lat;lon;country;administrativeArea;error
            1;"a;b";51.5;-0.1;"Bosnia; Herzegovina";Region, North;
            2;short;;;;;line 3: expected 4 fields, found 2

            """)
        XCTAssertEqual(parseCSV(run.text, delimiter: ";")[1], ["1", "a;b", "51.5", "-0.1", "Bosnia; Herzegovina", "Region, North", ""])
    }

    func testOtherOutputFormatsAreWrittenAsUsual() throws {
        let input = "id;name;lat;lon\n1;\"a;b\";51.5;-0.1\n"
        let comma = try runBatch(input, options: BatchOptions(outputFormat: .tsv, fields: [.country]))
        XCTAssertEqual(comma.text, "id\tname\tlat\tlon\tcountry\terror\n1\ta;b\t51.5\t-0.1\tN\t\n")
        let jsonl = try runBatch(input, options: BatchOptions(outputFormat: .jsonl, fields: [.country]))
        XCTAssertEqual(jsonl.text, "{\"id\":\"1\",\"name\":\"a;b\",\"lat\":\"51.5\",\"lon\":\"-0.1\",\"country\":\"N\",\"error\":null}\n")
    }

    func testAByteOrderMarkAndCRLFLineEnds() throws {
        let input = "\u{FEFF}id;lat;lon\r\n1;51.5;-0.1\r\n2;\"-33.9\";151.2\r\n\r\n3;x;1\r\n"
        for blockSize in [nil, 16] {
            let run = try runBatch(input, options: countryOnly, blockSize: blockSize)
            XCTAssertEqual(
                run.text, "id;lat;lon;country;error\n1;51.5;-0.1;N;\n2;\"-33.9\";151.2;S;\n3;x;1;;line 5: latitude 'x' is not a number\n")
            XCTAssertEqual(run.summary.rows, 3)
            XCTAssertEqual(run.summary.errors, 1)
        }
    }
}

/// Numbers as spreadsheets in much of Europe write them: "51,47", in files whose fields are not
/// separated by commas.
final class DecimalCommaBatchTests: XCTestCase {
    private let countryOnly = BatchOptions(fields: [.country])
    private static let hint = " (one decimal comma between digits, as in 51,47)"

    func testDecimalCommasAreReadInASemicolonFile() throws {
        let input = "id;lat;lon\n1;51,47;-0,45\n2;\"-33,9\";151,2\n3; 10,5 ;+20\n4;-10.25;20,75\n"
        let run = try runBatch(input, options: BatchOptions(fields: [.country, .isoCountryCode]))
        // Input columns come back byte for byte: the spreadsheet reads its own numbers again.
        XCTAssertEqual(
            run.text,
            "id;lat;lon;country;isoCountryCode;error\n1;51,47;-0,45;N;W;\n2;\"-33,9\";151,2;S;E;\n3; 10,5 ;+20;N;E;\n4;-10.25;20,75;S;E;\n")
        XCTAssertEqual(run.summary.errors, 0)
    }

    func testTheValueReadIsTheDecimalOne() throws {
        let geocode: @Sendable (Coordinate) -> Placemark = { coordinate in
            var placemark = Placemark(location: coordinate)
            placemark.name = "\(coordinate.latitude) \(coordinate.longitude)"
            return placemark
        }
        let run = try runBatch(Data("lat;lon\n51,47;-0,45\n".utf8), options: BatchOptions(fields: [.name]), geocode: geocode)
        XCTAssertEqual(run.text, "lat;lon;name;error\n51,47;-0,45;51.47 -0.45;\n")
        let geojson = try runBatch(
            Data("lat;lon\n51,47;-0,45\n".utf8), options: BatchOptions(outputFormat: .geojson, fields: [.name]), geocode: geocode)
        XCTAssertTrue(geojson.text.contains("\"coordinates\":[-0.45,51.47]"), geojson.text)
    }

    func testMalformedDecimalCommasAreErrorsNamingTheLineAndTheColumn() throws {
        let input = "id;lat;lon\n1;1,234,5;0\n2;10;-0,4,5\n3;1.234,5;0\n4;,5;0\n5;5,;0\n6;abc;0\n7;91,5;0\n"
        let run = try runBatch(input, options: countryOnly)
        XCTAssertEqual(run.summary.rows, 7)
        XCTAssertEqual(run.summary.errors, 7)
        XCTAssertEqual(
            parseCSV(run.text, delimiter: ";").dropFirst().map { $0.last ?? "" },
            [
                "line 2: latitude '1,234,5' is not a number" + Self.hint,
                "line 3: longitude '-0,4,5' is not a number" + Self.hint,
                "line 4: latitude '1.234,5' is not a number" + Self.hint,
                "line 5: latitude ',5' is not a number" + Self.hint,
                "line 6: latitude '5,' is not a number" + Self.hint,
                "line 7: latitude 'abc' is not a number",
                "line 8: latitude 91.5 is outside [-90, 90]",
            ])
    }

    func testACommaFileKeepsTreatingADecimalCommaAsAnError() throws {
        let run = try runBatch("id,lat,lon\n1,\"51,47\",\"-0,45\"\n", options: countryOnly)
        XCTAssertEqual(run.text, "id,lat,lon,country,error\n1,\"51,47\",\"-0,45\",,\"line 2: latitude '51,47' is not a number\"\n")
    }

    func testTSVReadsDecimalCommasToo() throws {
        let run = try runBatch(
            "lat\tlon\n51,47\t-0,45\n", name: "points.tsv", options: BatchOptions(outputFormat: .tsv, fields: [.country]))
        XCTAssertEqual(run.text, "lat\tlon\tcountry\terror\n51,47\t-0,45\tN\t\n")
    }

    /// A header-less file of decimal commas has more commas than semicolons: the delimiter is named.
    func testAHeaderlessSemicolonFileWithAnExplicitDelimiter() throws {
        let input = "51,47;-0,45;first\n-33,9;151,2;second\n"
        let run = try runBatch(input, options: BatchOptions(csvDelimiter: .semicolon, fields: [.country]))
        XCTAssertEqual(run.text, "lat;lon;column3;country;error\n51,47;-0,45;first;N;\n-33,9;151,2;second;S;\n")
        XCTAssertThrowsError(try runBatch(input, options: countryOnly), "detected as comma CSV, it has no coordinate columns")
    }

    /// Thousands of rows, 5 % garbage, small blocks, several workers: one output row per input row.
    func testEveryRowGivesExactlyOneRowAndBadRowsAreFlagged() throws {
        var generator = SeededGenerator(seed: 411)
        var input = "\u{FEFF}id;lat;lon;note\r\n"
        var expectedProblem: [Int: String] = [:]
        let garbage: [(row: (Int) -> String, problem: String)] = [
            ({ "\($0);1,2,3;10;many commas" }, "latitude '1,2,3' is not a number" + Self.hint),
            ({ "\($0);10;,5;no digits before" }, "longitude ',5' is not a number" + Self.hint),
            ({ "\($0);;10;empty" }, "latitude is empty"),
            ({ "\($0);95,5;10;too far north" }, "latitude 95.5 is outside [-90, 90]"),
            ({ "\($0);51,5" }, "expected 4 fields, found 2"),
        ]
        var line = 1
        for id in 0..<5_000 {
            line += 1
            if Double.random(in: 0..<1, using: &generator) < 0.05 {
                let kind = garbage[Int.random(in: 0..<garbage.count, using: &generator)]
                input += kind.row(id) + "\r\n"
                expectedProblem[id] = "line \(line): \(kind.problem)"
            } else {
                let lat = String(format: "%.5f", Double.random(in: -89...89, using: &generator)).replacingOccurrences(of: ".", with: ",")
                let lon = String(format: "%.5f", Double.random(in: -179...179, using: &generator)).replacingOccurrences(of: ".", with: ",")
                input += "\(id);\(lat);\(lon);\"a; b\"\r\n"
            }
        }
        XCTAssertGreaterThan(expectedProblem.count, 150)
        for jobs in [1, 3] {
            let run = try runBatch(input, options: BatchOptions(fields: [.country], jobs: jobs), blockSize: 4096)
            XCTAssertEqual(run.summary.rows, 5_000)
            XCTAssertEqual(run.summary.errors, expectedProblem.count)
            let rows = parseCSV(run.text, delimiter: ";")
            XCTAssertEqual(rows.count, 5_001)
            XCTAssertEqual(rows[0], ["id", "lat", "lon", "note", "country", "error"])
            for (id, row) in rows.dropFirst().enumerated() {
                XCTAssertEqual(row.first, String(id))
                XCTAssertEqual(row.count, 6, "row \(id): \(row)")
                XCTAssertEqual(row.last, expectedProblem[id] ?? "", "row \(id)")
                if expectedProblem[id] == nil { XCTAssertEqual(row[3], "a; b") }
            }
        }
    }
}

/// `csvDelimiter` (`--delimiter`): for files the header-based guess gets wrong.
final class CSVDelimiterOptionTests: XCTestCase {
    func testTheArgumentNamesOneOfFourDelimiters() throws {
        let accepted: [(String, CSVDelimiter)] = [
            (",", .comma), (";", .semicolon), ("|", .pipe), ("tab", .tab), ("TAB", .tab), ("\\t", .tab), ("\t", .tab),
            ("comma", .comma), ("semicolon", .semicolon), ("Pipe", .pipe),
        ]
        for (argument, delimiter) in accepted {
            XCTAssertEqual(try CSVDelimiter(parsing: argument), delimiter, argument)
        }
        for rejected in ["", ":", "semi", ";;", " ", "\\n"] {
            XCTAssertThrowsError(try CSVDelimiter(parsing: rejected)) { error in
                XCTAssertEqual(
                    "\(error)",
                    "--delimiter must be one of comma (','), semicolon (';'), tab or pipe ('|'); got '\(DisplayText.sanitized(rejected))'")
            }
        }
    }

    func testAPipeFileIsReadAndWrittenWithPipes() throws {
        let run = try runBatch(
            "id|name|lat|lon\n1|a,b;c|51,5|-0,1\n2|\"x|y\"|-10|20\n", options: BatchOptions(csvDelimiter: .pipe, fields: [.country]))
        XCTAssertEqual(run.text, "id|name|lat|lon|country|error\n1|a,b;c|51,5|-0,1|N|\n2|\"x|y\"|-10|20|S|\n")
    }

    func testACommaDelimiterOverridesAHeaderWithMoreSemicolons() throws {
        let input = "a;b;c;d,lat,lon\n1;2;3;4,51.5,-0.1\n"
        let run = try runBatch(input, options: BatchOptions(csvDelimiter: .comma, fields: [.country]))
        XCTAssertEqual(run.text, "a;b;c;d,lat,lon,country,error\n1;2;3;4,51.5,-0.1,N,\n")
        XCTAssertThrowsError(
            try runBatch(input, options: BatchOptions(fields: [.country])), "detected as semicolon CSV, it has no coordinate columns")
    }

    func testADelimiterMakesUnnamedInputCSVWithoutSniffing() throws {
        // More tabs than commas: sniffed, this would be TSV.
        let run = try runBatch("a\tb;lat;lon\n1\t2;10;20\n", name: "-", options: BatchOptions(csvDelimiter: .semicolon, fields: [.country]))
        XCTAssertEqual(run.text, "a\tb;lat;lon;country;error\n1\t2;10;20;N;\n")
    }

    func testATabDelimiterForCSVInputIsMirroredInCSVOutput() throws {
        let run = try runBatch("lat\tlon\n51,5\t-0,1\n", name: "points.csv", options: BatchOptions(csvDelimiter: .tab, fields: [.country]))
        XCTAssertEqual(run.text, "lat\tlon\tcountry\terror\n51,5\t-0,1\tN\t\n")
    }

    func testADelimiterForInputDeclaredAsAnotherFormatIsRefused() throws {
        let semicolon = BatchOptions(csvDelimiter: .semicolon, fields: [.country])
        XCTAssertThrowsError(try runBatch("lat;lon\n1;2\n", name: "points.tsv", options: semicolon)) { error in
            XCTAssertEqual(
                "\(error)",
                "--delimiter applies to CSV input, and points.tsv is tsv by its extension; add --input-format csv to read it as CSV")
        }
        var jsonLines = semicolon
        jsonLines.inputFormat = .jsonl
        XCTAssertThrowsError(try jsonLines.checkCSVDelimiterApplies(toInputNamed: "points.csv")) { error in
            XCTAssertEqual("\(error)", "--delimiter applies to CSV input, not to --input-format jsonl")
        }
        var csv = semicolon
        csv.inputFormat = .csv
        XCTAssertEqual(try runBatch("lat;lon\n1;2\n", name: "points.tsv", options: csv).text, "lat;lon;country;error\n1;2;N;\n")
        XCTAssertNoThrow(try semicolon.checkCSVDelimiterApplies(toInputNamed: "-"))
        XCTAssertNoThrow(try semicolon.checkCSVDelimiterApplies(toInputNamed: "points.txt"))
    }
}
