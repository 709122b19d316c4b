import Foundation
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

final class JSONOutputTests: XCTestCase {
    /// Text that JSON must escape, plus non-ASCII and one invalid UTF-8 byte.
    private var trickyCSV: Data {
        var data = Data("id,lat,lon,note\n".utf8)
        data += Data("1,51.5,-0.1,\"quote \"\" backslash \\ tab\t newline\n bell\u{07} ünïcødé ✓ 😀\"\n".utf8)
        data += Data("2,-33.9,151.2,latin1 ".utf8) + Data([0xE9]) + Data("\n".utf8)
        data += Data("3,abc,0,bad\n".utf8)
        data += Data("4,0,0,\n".utf8)
        return data
    }

    func testJSONLinesOutputParsesAndKeepsTypes() throws {
        let run = try runBatch(trickyCSV, options: BatchOptions(outputFormat: .jsonl))
        XCTAssertEqual(run.summary.rows, 4)
        XCTAssertEqual(run.summary.errors, 1)
        let objects = try run.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]) }
        XCTAssertEqual(objects.count, 4)
        XCTAssertEqual(objects[0]["note"] as? String, "quote \" backslash \\ tab\t newline\n bell\u{07} ünïcødé ✓ 😀")
        XCTAssertEqual(objects[0]["id"] as? String, "1")
        XCTAssertEqual(objects[0]["country"] as? String, "N")
        XCTAssertTrue(objects[0]["distance"] is NSNumber, "distance is a JSON number")
        XCTAssertTrue(objects[0]["name"] is NSNull, "absent values are null")
        XCTAssertTrue(objects[0]["error"] is NSNull)
        XCTAssertEqual(objects[1]["note"] as? String, "latin1 \u{FFFD}", "invalid UTF-8 becomes U+FFFD")
        XCTAssertEqual(objects[2]["error"] as? String, "line 5: latitude 'abc' is not a number", "line numbers count the embedded newline")
        XCTAssertTrue(objects[2]["country"] is NSNull)
        XCTAssertEqual(objects[3]["note"] as? String, "")
        XCTAssertEqual(Array(objects[0].keys).count, 4 + PlacemarkField.standard.count + 1)
        XCTAssertTrue(run.lines[0].contains("ünïcødé ✓ 😀"), "non-ASCII passes through unescaped")

        let url = try writeTemporary(run.output, name: "out.jsonl")
        defer { try? FileManager.default.removeItem(at: url) }
        guard
            let python = try runPython(
                "import json,sys\nrows=[json.loads(l) for l in open(sys.argv[1],encoding='utf-8')]\nprint(len(rows), type(rows[0]['distance']).__name__)",
                path: url.path)
        else {
            throw XCTSkip("python3 is not installed")
        }
        XCTAssertEqual(python.status, 0, python.output)
        XCTAssertEqual(python.output.trimmingCharacters(in: .whitespacesAndNewlines), "4 int")
    }

    func testGeoJSONOutputParsesAndOpensInOGR() throws {
        let run = try runBatch(trickyCSV, options: BatchOptions(outputFormat: .geojson), blockSize: 32)
        let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 4)
        let geometry = try XCTUnwrap(features[0]["geometry"] as? [String: Any])
        XCTAssertEqual(geometry["type"] as? String, "Point")
        XCTAssertEqual(geometry["coordinates"] as? [Double], [-0.1, 51.5])
        XCTAssertTrue(features[2]["geometry"] is NSNull, "a row without a valid point has a null geometry")
        let properties = try XCTUnwrap(features[2]["properties"] as? [String: Any])
        XCTAssertEqual(properties["error"] as? String, "line 5: latitude 'abc' is not a number", "line numbers count the embedded newline")

        let url = try writeTemporary(run.output, name: "out.geojson")
        defer { try? FileManager.default.removeItem(at: url) }
        if let python = try runPython(
            "import json,sys\nd=json.load(open(sys.argv[1],encoding='utf-8'))\nprint(len(d['features']))", path: url.path)
        {
            XCTAssertEqual(python.status, 0, python.output)
            XCTAssertEqual(python.output.trimmingCharacters(in: .whitespacesAndNewlines), "4")
        }
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/ogrinfo") else { throw XCTSkip("ogrinfo (gdal-bin) is not installed") }
        let ogr = try runTool("/usr/bin/ogrinfo", ["-ro", "-al", "-so", url.path])
        XCTAssertEqual(ogr.status, 0, ogr.output)
        XCTAssertTrue(ogr.output.contains("Feature Count: 4"), ogr.output)
        XCTAssertTrue(ogr.output.contains("distance: Integer"), ogr.output)
    }

    func testEmptyInputGivesAnEmptyFeatureCollection() throws {
        let run = try runBatch("lat,lon\n", options: BatchOptions(outputFormat: .geojson))
        let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        XCTAssertEqual((collection["features"] as? [Any])?.count, 0)
    }
}

final class JSONInputTests: XCTestCase {
    private let jsonLines = """
        {"id": 1, "Latitude": 51.5, "lng": -0.1, "tags": {"a": [1, 2]}}

        {"id": 2, "lat": "-33.9", "lon": "151.2", "country": "given"}
        {"id": 3, "lat": null, "lon": 1}
        not json at all
        {"id": 5, "lat": 1, "lon": 2} trailing
        {"id": 6, "y": 10, "x": 20}
        {"id": 7, "lon": 20}

        """

    func testJSONLinesToJSONLinesKeepsEveryMember() throws {
        let run = try runBatch(
            jsonLines, name: "points.jsonl", options: BatchOptions(outputFormat: .jsonl, fields: [.country]), blockSize: 16)
        XCTAssertEqual(run.summary.rows, 7)
        XCTAssertEqual(run.summary.errors, 4)
        let objects = try run.lines.map { try XCTUnwrap(JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any], $0) }
        XCTAssertEqual(objects.count, 7)
        XCTAssertEqual(objects[0]["country"] as? String, "N")
        XCTAssertEqual((objects[0]["tags"] as? [String: Any])?["a"] as? [Int], [1, 2])
        XCTAssertEqual(objects[1]["input_country"] as? String, "given", "an input key named like a field is renamed")
        XCTAssertEqual(objects[1]["country"] as? String, "S")
        XCTAssertEqual(objects[2]["error"] as? String, "line 4: latitude is null")
        XCTAssertEqual(objects[3]["input"] as? String, "not json at all")
        XCTAssertEqual(objects[3]["error"] as? String, "line 5: not a JSON object (expected an object at column 1)")
        XCTAssertEqual(objects[4]["input"] as? String, "{\"id\": 5, \"lat\": 1, \"lon\": 2} trailing")
        XCTAssertEqual(objects[5]["country"] as? String, "N")
        XCTAssertEqual(objects[6]["error"] as? String, "line 8: no latitude key")
    }

    func testJSONLinesToCSVTakesColumnsFromTheFirstObject() throws {
        let run = try runBatch(jsonLines, name: "points.ndjson", options: BatchOptions(outputFormat: .csv, fields: [.country]))
        let rows = parseCSV(run.text)
        XCTAssertEqual(rows[0], ["id", "Latitude", "lng", "tags", "country", "error"])
        XCTAssertEqual(rows[1], ["1", "51.5", "-0.1", "{\"a\": [1, 2]}", "N", ""])
        XCTAssertEqual(rows[2], ["2", "", "", "", "S", ""], "other keys than the first object's are not columns")
        XCTAssertEqual(rows.count, 8)
    }

    private let geoJSON = """
        {"type": "FeatureCollection", "name": "sample", "crs": {"type": "name", "properties": {"name": "urn:ogc:def:crs:OGC:1.3:CRS84"}},
        "features": [
        {"type": "Feature", "id": 7, "properties": {"name": "Heathrow", "rank": 1}, "geometry": {"type": "Point", "coordinates": [-0.45, 51.47]}},
        {"type": "Feature", "properties": {"name": "line"}, "geometry": {"type": "LineString", "coordinates": [[0, 0], [1, 1]]}},
        {"type": "Feature", "properties": null, "geometry": null},
        {"type": "Feature", "properties": {"name": "far"}, "geometry": {"type": "Point", "coordinates": [10, 95]}},
        {"type": "Feature", "properties": {"name": "south \\"quoted\\""}, "geometry": {"type": "Point", "coordinates": [151.2, -33.9, 12.5]}}
        ]}

        """

    func testGeoJSONToGeoJSONStreamsFeaturesAndKeepsThem() throws {
        let run = try runBatch(
            geoJSON, name: "places.geojson", options: BatchOptions(outputFormat: .geojson, fields: [.country]), blockSize: 64)
        XCTAssertEqual(run.summary.rows, 5)
        XCTAssertEqual(run.summary.errors, 3)
        let collection = try XCTUnwrap(JSONSerialization.jsonObject(with: run.output) as? [String: Any])
        let features = try XCTUnwrap(collection["features"] as? [[String: Any]])
        XCTAssertEqual(features.count, 5)
        XCTAssertEqual(features[0]["id"] as? Int, 7)
        XCTAssertEqual((features[0]["properties"] as? [String: Any])?["rank"] as? Int, 1)
        XCTAssertEqual((features[0]["properties"] as? [String: Any])?["country"] as? String, "N")
        XCTAssertEqual((features[1]["geometry"] as? [String: Any])?["type"] as? String, "LineString", "a non-point geometry is kept")
        XCTAssertEqual(
            (features[1]["properties"] as? [String: Any])?["error"] as? String, "feature 2: geometry is \"LineString\", not a Point")
        XCTAssertEqual((features[2]["properties"] as? [String: Any])?["error"] as? String, "feature 3: geometry is null")
        XCTAssertEqual((features[3]["properties"] as? [String: Any])?["error"] as? String, "feature 4: latitude 95 is outside [-90, 90]")
        XCTAssertEqual((features[4]["geometry"] as? [String: Any])?["coordinates"] as? [Double], [151.2, -33.9, 12.5])
        XCTAssertEqual((features[4]["properties"] as? [String: Any])?["country"] as? String, "S")
    }

    func testGeoJSONToCSVAddsLatitudeAndLongitudeColumns() throws {
        let run = try runBatch(geoJSON, name: "places.json", options: BatchOptions(outputFormat: .csv, fields: [.country]))
        let rows = parseCSV(run.text)
        XCTAssertEqual(rows[0], ["name", "rank", "latitude", "longitude", "country", "error"])
        XCTAssertEqual(rows[1], ["Heathrow", "1", "51.47", "-0.45", "N", ""])
        XCTAssertEqual(rows[5], ["south \"quoted\"", "", "-33.9", "151.2", "S", ""])
        XCTAssertEqual(rows.count, 6)
    }

    func testTruncatedGeoJSONFlagsTheLastFeature() throws {
        let truncated =
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}},{\"type\":\"Feature\",\"geometry\":{\"type\":"
        let run = try runBatch(truncated, name: "cut.geojson", options: BatchOptions(outputFormat: .jsonl, fields: [.country]))
        XCTAssertEqual(run.summary.rows, 2)
        XCTAssertEqual(run.summary.errors, 1)
        XCTAssertTrue(run.lines[1].contains("feature 2: not a valid feature"), run.lines[1])
    }

    func testNotAFeatureCollectionStopsWithAMessage() throws {
        XCTAssertThrowsError(try runBatch("{\"type\": \"Feature\"}", name: "one.geojson")) { error in
            XCTAssertTrue("\(error)".contains("not a GeoJSON FeatureCollection"), "\(error)")
        }
    }
}

final class FormatDetectionTests: XCTestCase {
    func testFormatIsSniffedWhenTheNameSaysNothing() throws {
        let options = BatchOptions(outputFormat: .jsonl, fields: [.country])
        XCTAssertEqual(try runBatch("lat,lon\n1,2\n", name: "-", options: options).summary.errors, 0)
        XCTAssertEqual(try runBatch("lat\tlon\n1\t2\n", name: "-", options: options).summary.errors, 0)
        XCTAssertEqual(try runBatch("{\"lat\":1,\"lon\":2}\n", name: "-", options: options).summary.errors, 0)
        let collection =
            "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"Point\",\"coordinates\":[2,1]}}]}"
        XCTAssertEqual(try runBatch(collection, name: "-", options: options).summary.rows, 1)
        XCTAssertEqual(
            try InputFormatDetector.format(explicit: .tsv, inputName: "a.csv", sample: UnsafeBufferPointer(start: nil, count: 0)), .tsv)
    }

    func testMissingInputFileIsAUserFacingError() {
        let geocoder = BatchGeocoder(options: BatchOptions(printsSummary: false), geocode: hemisphereGeocode)
        XCTAssertThrowsError(try geocoder.run(inputPath: "/nonexistent/points.csv", outputFD: -1)) { error in
            XCTAssertEqual("\(error)", "cannot open /nonexistent/points.csv: No such file or directory")
        }
        XCTAssertThrowsError(try geocoder.run(inputPath: "/tmp", outputFD: -1)) { error in
            XCTAssertEqual("\(error)", "cannot read /tmp: it is a directory")
        }
    }

    func testFieldListParsing() throws {
        XCTAssertEqual(try BatchOptions.fields(parsing: "Country, isoCountryCode,distance"), [.country, .isoCountryCode, .distance])
        XCTAssertThrowsError(try BatchOptions.fields(parsing: "country,planet"))
    }
}

final class BatchDeterminismTests: XCTestCase {
    /// Output bytes must not depend on the number of workers or on where chunks are cut.
    func testOneAndFourJobsWriteIdenticalBytes() throws {
        var generator = SeededGenerator(seed: 7)
        var csv = "id,lat,lon,note\n"
        for id in 0..<20_000 {
            let lat = Double.random(in: -95...95, using: &generator)
            let lon = Double.random(in: -185...185, using: &generator)
            let note = id % 97 == 0 ? "\"multi\nline, \"\"quoted\"\"\"" : "n\(id)"
            csv += "\(id),\(String(format: "%.6f", lat)),\(String(format: "%.6f", lon)),\(note)\n"
        }
        for format in BatchFormat.allCases {
            let single = try runBatch(csv, options: BatchOptions(outputFormat: format, jobs: 1))
            let parallel = try runBatch(csv, options: BatchOptions(outputFormat: format, jobs: 4), blockSize: 1000)
            XCTAssertEqual(single.summary.rows, 20_000)
            XCTAssertGreaterThan(single.summary.errors, 0)
            XCTAssertEqual(single.summary.errors, parallel.summary.errors)
            XCTAssertEqual(single.output, parallel.output, "\(format) output differs between 1 and 4 jobs")
        }
    }
}
