import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder

final class DelimitedBatchTests: XCTestCase {
    func testSimpleCSVGetsPlacemarkColumnsAppended() throws {
        let run = try runBatch("id,lat,lon\n1,51.5,-0.1\n2,-33.9,151.2\n", options: BatchOptions(fields: [.country, .isoCountryCode]))
        XCTAssertEqual(run.text, "id,lat,lon,country,isoCountryCode,error\n1,51.5,-0.1,N,W,\n2,-33.9,151.2,S,E,\n")
        XCTAssertEqual(run.summary.rows, 2)
        XCTAssertEqual(run.summary.errors, 0)
        XCTAssertEqual(run.summary.exitCode, 0)
    }

    func testAllFieldsAreNamedLikePlacemarkFieldInOrder() throws {
        let run = try runBatch("lat,lon\n51.5,-0.1\n")
        let header = try XCTUnwrap(run.lines.first)
        XCTAssertEqual(header, "lat,lon," + PlacemarkField.standard.map(\.rawValue).joined(separator: ",") + ",error")
        let row = parseCSV(run.text)[1]
        let description = row[2 + PlacemarkField.standard.firstIndex(of: .description)!]
        XCTAssertTrue(description.hasSuffix("of Cranford, \"Middlesex\""), description)
    }

    /// 10,000 rows with 5% garbage of every kind, through the real geocoder on the real database:
    /// every row comes out, in order, garbage flagged, and every good row answered as a single lookup.
    func testGarbageRowsAreFlaggedNeverDropped() throws {
        var generator = SeededGenerator(seed: 42)
        var input = "id,lat,lon,note\n"
        var expectedProblem: [Int: String] = [:]
        var points: [Int: Coordinate] = [:]
        let garbage: [(row: (Int) -> String, problem: String)] = [
            ({ "\($0),,10.5,empty latitude" }, "latitude is empty"),
            ({ "\($0),51.5,,empty longitude" }, "longitude is empty"),
            ({ "\($0),abc,10,text" }, "latitude 'abc' is not a number"),
            ({ "\($0),NaN,10,nan" }, "latitude 'NaN' is not a number"),
            ({ "\($0),200,10,too far north" }, "latitude 200 is outside [-90, 90]"),
            ({ "\($0),10,-200.5,too far west" }, "longitude -200.5 is outside [-180, 180]"),
            ({ "\($0),51." }, "expected 4 fields, found 2"),
            ({ "\($0),1,2,x,extra" }, "expected 4 fields, found 5"),
            ({ "\($0),\"1,5\",2,comma decimal" }, "latitude '1,5' is not a number"),
        ]
        var line = 1
        for id in 0..<10_000 {
            line += 1
            if Double.random(in: 0..<1, using: &generator) < 0.05 {
                let kind = garbage[Int.random(in: 0..<garbage.count, using: &generator)]
                input += kind.row(id) + "\n"
                expectedProblem[id] = "line \(line): \(kind.problem)"
            } else {
                let lat = Double.random(in: -89...89, using: &generator)
                let lon = Double.random(in: -179...179, using: &generator)
                let (latText, lonText) = (String(format: "%.5f", lat), String(format: "%.5f", lon))
                input += "\(id),\(latText),\(lonText),\"ok, \"\"fine\"\"\"\n"
                points[id] = Coordinate(latitude: Double(latText) ?? lat, longitude: Double(lonText) ?? lon)
            }
        }
        XCTAssertGreaterThan(expectedProblem.count, 400)
        let fields: [PlacemarkField] = [.country, .distance]
        let geocoder = try ReverseGeocoder(
            databasePath: TestPlaces.databasePath, loading: .everything, needs: PlacemarkNeeds(fields: fields))
        for jobs in [1, 3] {
            let run = try runBatch(Data(input.utf8), options: BatchOptions(fields: fields, jobs: jobs), blockSize: 4096, printer: geocoder)
            XCTAssertEqual(run.summary.rows, 10_000)
            XCTAssertEqual(run.summary.errors, expectedProblem.count)
            XCTAssertEqual(run.summary.exitCode, 65)
            let rows = parseCSV(run.text)
            XCTAssertEqual(rows.count, 10_001)
            XCTAssertEqual(rows[0], ["id", "lat", "lon", "note", "country", "distance", "error"])
            for (id, row) in rows.dropFirst().enumerated() {
                XCTAssertEqual(row.count, 7, "row \(id): \(row)")
                XCTAssertEqual(row.first, String(id))
                if let problem = expectedProblem[id] {
                    XCTAssertEqual(row.last, problem)
                    XCTAssertEqual(row[4], "")
                    XCTAssertEqual(row[5], "")
                } else {
                    XCTAssertEqual(row.last, "", "row \(id)")
                    let single = TestPlaces.geocoder.placemark(for: try XCTUnwrap(points[id]))
                    XCTAssertEqual(row[4], single.country ?? "", "row \(id)")
                    XCTAssertEqual(row[5], PlacemarkField.distance.text(in: single) ?? "", "row \(id)")
                    XCTAssertEqual(row[3], "ok, \"fine\"")
                }
            }
        }
    }

    func testQuotedFieldsBOMAndCRLFRoundTripByteExact() throws {
        let records = [
            "id,lat,lon,\"note, with comma\"",
            "1,51.5,-0.1,\"a, b\"",
            "2,\"52.0\",\"-1.5\",\"she said \"\"hi\"\"\"",
            "3,53.25,-2.5,\"two\nlines\"",
            "4,54,-3,\"crlf\r\ninside\"",
            "5,55,-4,ünïcødé ✓",
            "6,56,-5,",
            "7,57,-6,\"\"",
        ]
        let input = "\u{FEFF}" + records.joined(separator: "\r\n") + "\r\n\r\n"
        let run = try runBatch(input, options: BatchOptions(fields: [.country]), blockSize: 16)
        XCTAssertEqual(run.summary.rows, 7)
        XCTAssertEqual(run.summary.errors, 0)
        // Data records are copied verbatim, so every input record appears in the output as it was.
        for record in records.dropFirst() {
            XCTAssertTrue(run.text.contains(record + ",N,\n"), "missing: \(record)")
        }
        let rows = parseCSV(run.text)
        XCTAssertEqual(rows[0], ["id", "lat", "lon", "note, with comma", "country", "error"])
        XCTAssertEqual(rows[3][3], "two\nlines")
        XCTAssertEqual(rows[4][3], "crlf\r\ninside")
        XCTAssertEqual(rows[2][1], "52.0")
        XCTAssertEqual(rows.count, 8)
    }

    func testTSVInputToCSVOutputRequotesValues() throws {
        let input = "name\tlatitude\tlongitude\nLondon, UK\t51.5\t-0.1\n\"tab\there\"\t-10\t20\n"
        let run = try runBatch(input, name: "points.tsv", options: BatchOptions(fields: [.country]))
        // A tab is plain text in CSV, so the quotes TSV needed go away.
        XCTAssertEqual(run.text, "name,latitude,longitude,country,error\n\"London, UK\",51.5,-0.1,N,\ntab\there,-10,20,S,\n")
        let tsv = try runBatch(input, name: "points.tsv", options: BatchOptions(outputFormat: .tsv, fields: [.country]))
        XCTAssertEqual(tsv.text, "name\tlatitude\tlongitude\tcountry\terror\nLondon, UK\t51.5\t-0.1\tN\t\n\"tab\there\"\t-10\t20\tS\t\n")
    }

    func testUnterminatedQuoteAtEndOfInputIsFlagged() throws {
        let run = try runBatch("id,lat,lon\n1,51,0\n2,\"51,0\n3,1,1\n", options: BatchOptions(fields: [.country]))
        XCTAssertEqual(run.summary.rows, 2)
        XCTAssertEqual(run.summary.errors, 1)
        let rows = parseCSV(run.text)
        XCTAssertEqual(rows.count, 3)
        XCTAssertEqual(rows[2][1], "51,0\n3,1,1\n", "the rest of the input stays in the field")
        XCTAssertTrue(run.text.hasSuffix("line 3: a quoted field is not closed before the end of the input\n"), run.text)
    }

    func testMissingFinalNewlineAndBlankLines() throws {
        let run = try runBatch("\n\nlat,lon\n\n1,2\n\n3,4", options: BatchOptions(fields: [.country]))
        XCTAssertEqual(run.text, "lat,lon,country,error\n1,2,N,\n3,4,N,\n")
    }

    func testEmptyInputWritesOnlyTheHeader() throws {
        let run = try runBatch("", options: BatchOptions(fields: [.country]))
        XCTAssertEqual(run.text, "country,error\n")
        XCTAssertEqual(run.summary.rows, 0)
    }
}

final class HeaderDetectionTests: XCTestCase {
    private func header(_ csv: String, options: BatchOptions = BatchOptions(fields: [.country])) throws -> (
        header: String, firstRow: String
    ) {
        let lines = try runBatch(csv, options: options).lines
        return (lines[0], lines.count > 1 ? lines[1] : "")
    }

    func testCommonNamesAreFoundCaseInsensitively() throws {
        for names in [
            ("Latitude", "Longitude"), ("LAT", "LNG"), ("lat_dd", "long"), ("Y", "X"), ("decimalLatitude", "decimalLongitude"),
            (" lat ", " lon "),
        ] {
            let result = try header("id,\(names.0),\(names.1)\n7,-10,20\n")
            XCTAssertEqual(result.firstRow, "7,-10,20,S,", "\(names)")
        }
    }

    func testLatitudeAndLongitudeNamesWinOverXAndY() throws {
        let result = try header("x,y,lat,lon\n500000,180000,10,20\n")
        XCTAssertEqual(result.firstRow, "500000,180000,10,20,N,")
    }

    func testColumnOrderDoesNotMatter() throws {
        let result = try header("lon,name,lat\n20,Somewhere,-10\n")
        XCTAssertEqual(result.firstRow, "20,Somewhere,-10,S,")
    }

    func testHeaderlessInputUsesTheFirstTwoColumnsAsLatitudeAndLongitude() throws {
        let result = try header("-10,20,first\n10,20,second\n")
        XCTAssertEqual(result.header, "lat,lon,column3,country,error")
        XCTAssertEqual(result.firstRow, "-10,20,first,S,")
    }

    func testExplicitColumnNames() throws {
        let result = try header(
            "Breite,Länge\n-10,20\n", options: BatchOptions(latColumn: "Breite", lonColumn: "länge", fields: [.country]))
        XCTAssertEqual(result.firstRow, "-10,20,S,")
        XCTAssertThrowsError(try header("a,b\n1,2\n", options: BatchOptions(latColumn: "lat_missing"))) { error in
            XCTAssertTrue("\(error)".contains("no latitude column"), "\(error)")
        }
    }

    func testUnrecognisableHeaderStopsWithAHelpfulMessage() throws {
        XCTAssertThrowsError(try header("foo,bar\nabc,def\n")) { error in
            XCTAssertEqual(
                (error as? BatchError)?.message,
                "input.csv: cannot tell which columns hold latitude and longitude (columns: 'foo', 'bar'); name them with --lat-column and --lon-column"
            )
        }
    }

    func testInputColumnsCollidingWithPlacemarkFieldsAreRenamed() throws {
        let result = try header("country,lat,lon,error\nX,1,2,none\n")
        XCTAssertEqual(result.header, "input_country,lat,lon,input_error,country,error")
        XCTAssertEqual(result.firstRow, "X,1,2,none,N,")
    }
}

/// A small deterministic generator (SplitMix64), so generated test data is the same every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}

final class StreamingInputTests: XCTestCase {
    /// Standard input is a pipe: reads come in small pieces, the name has no extension.
    func testReadsFromAPipeAndWritesToAPipe() throws {
        var csv = "lat,lon,id\n"
        for id in 0..<50_000 { csv += "\(Double(id % 180) - 89.5),\(Double(id % 360) - 179.5),\(id)\n" }
        let input = Pipe()
        let output = Pipe()
        let bytes = Data(csv.utf8)
        let writer = Thread {
            input.fileHandleForWriting.write(bytes)
            try? input.fileHandleForWriting.close()
        }
        writer.start()
        final class Collected: @unchecked Sendable { var data = Data() }
        let collected = Collected()
        let readerDone = DispatchSemaphore(value: 0)
        let reader = Thread {
            collected.data = output.fileHandleForReading.readDataToEndOfFile()
            readerDone.signal()
        }
        reader.start()
        let options = BatchOptions(fields: [.country], jobs: 2, showProgress: false, printsSummary: false)
        let summary = try BatchGeocoder(options: options, geocode: hemisphereGeocode)
            .run(inputFD: input.fileHandleForReading.fileDescriptor, inputName: "-", outputFD: output.fileHandleForWriting.fileDescriptor)
        try output.fileHandleForWriting.close()
        readerDone.wait()
        XCTAssertEqual(summary.rows, 50_000)
        XCTAssertEqual(summary.errors, 0)
        let lines = String(decoding: collected.data, as: UTF8.self).split(separator: "\n")
        XCTAssertEqual(lines.count, 50_001)
        XCTAssertEqual(lines.last, "49.5,139.5,49999,N,")
        XCTAssertEqual(lines[1], "-89.5,-179.5,0,S,")
    }
}
