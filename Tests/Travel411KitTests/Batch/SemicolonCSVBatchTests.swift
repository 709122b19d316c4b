import Foundation
import XCTest
@testable import Travel411Kit

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
        XCTAssertEqual(run.text, """
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
            XCTAssertEqual(run.text, "id;lat;lon;country;error\n1;51.5;-0.1;N;\n2;\"-33.9\";151.2;S;\n3;x;1;;line 5: latitude 'x' is not a number\n")
            XCTAssertEqual(run.summary.rows, 3)
            XCTAssertEqual(run.summary.errors, 1)
        }
    }
}
