import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

/// Both USGS summary formats, read from the real sample feeds, and every kind of bad input the
/// issue names: malformed rows and features (skipped with their line or index), files that are
/// no feed, empty feeds and NaN magnitudes.
final class QuakeFeedReaderTests: XCTestCase {
    // MARK: The sample feeds

    func testTheGeoJSONSampleHas314Events() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        XCTAssertEqual(feed.format, .geojson)
        XCTAssertEqual(feed.quakes.count, 314)
        XCTAssertEqual(feed.recordCount, 314)
        XCTAssertEqual(feed.skipped, [])
        let first = try XCTUnwrap(feed.quakes.first)
        XCTAssertEqual(first.id, "usb000iigv")
        XCTAssertEqual(first.magnitude, 5.2)
        XCTAssertEqual(first.magnitudeType, "mb")
        XCTAssertEqual(first.place, "234km W of Abepura, Indonesia")
        XCTAssertEqual(first.time.millisecondsSince1970, 1_374_321_680_940)
        XCTAssertEqual(first.updated?.millisecondsSince1970, 1_374_323_230_746)
        // GeoJSON order: [longitude, latitude, depth].
        XCTAssertEqual(first.coordinate, Coordinate(latitude: -2.2439, longitude: 138.5063))
        XCTAssertEqual(first.depthKilometres, 34.89)
        XCTAssertEqual(first.stationCount, 63)
        XCTAssertEqual(first.status, "REVIEWED")
    }

    func testTheCSVSampleHas1465Events() throws {
        let feed = try QuakeFixtures.csvFeed()
        XCTAssertEqual(feed.format, .csv)
        XCTAssertEqual(feed.quakes.count, 1465)
        XCTAssertEqual(feed.skipped, [])
        let first = try XCTUnwrap(feed.quakes.first)
        XCTAssertEqual(first.id, "ci40867520")
        XCTAssertEqual(first.time.iso8601, "2024-08-07T13:27:10.850Z")
        XCTAssertEqual(first.coordinate, Coordinate(latitude: 35.1023331, longitude: -119.1348343))
        XCTAssertEqual(first.magnitude, 2.59)
        // The quoted place keeps its comma: a real CSV reader, not splitting on commas.
        XCTAssertEqual(first.place, "25 km ENE of Maricopa, CA")
        XCTAssertEqual(first.nearestStationDegrees, 0.06046)
        XCTAssertEqual(first.network, "ci")
        XCTAssertTrue(feed.quakes.allSatisfy { $0.magnitude != nil && $0.place != nil })
    }

    func testCSVColumnsAreFoundByNameInAnyOrder() throws {
        let csv = """
            place,mag,longitude,latitude,time
            "9 km N of Stonewall, Oklahoma",3.4,-96.519,34.74066667,2024-08-07T12:55:37.009Z

            """
        let feed = try QuakeFeed.read(Data(csv.utf8), source: "reordered.csv")
        XCTAssertEqual(feed.quakes.count, 1)
        XCTAssertEqual(feed.quakes.first?.place, "9 km N of Stonewall, Oklahoma")
        XCTAssertEqual(feed.quakes.first?.coordinate.longitude, -96.519)
        XCTAssertNil(feed.quakes.first?.depthKilometres)
    }

    func testCRLFAndAByteOrderMarkAreRead() throws {
        let lines = try QuakeFixtures.csvLines(rows: 3)
        let feed = try QuakeFeed.read(Data([0xEF, 0xBB, 0xBF]) + Data(lines.joined(separator: "\r\n").utf8), source: "excel.csv")
        XCTAssertEqual(feed.quakes.count, 3)
        XCTAssertEqual(feed.skipped, [])
        XCTAssertEqual(feed.quakes.last?.id, "us6000nim4")
    }

    // MARK: Malformed rows and features

    func testAGeoJSONFeedWithAByteOrderMarkIsRead() throws {
        let feed = try QuakeFeed.read(Data([0xEF, 0xBB, 0xBF]) + QuakeFixtures.data(QuakeFixtures.geoJSONPath), source: "bom.geojson")
        XCTAssertEqual(feed.quakes.count, 314)
    }

    func testBadCSVRowsAreSkippedWithTheirLineNumbers() throws {
        var lines = try QuakeFixtures.csvLines(rows: 6)
        lines[2] = lines[2].replacingOccurrences(of: ",3.4,ml,", with: ",NaN,ml,")  // line 3: a NaN magnitude
        lines[3] = "2024-08-07T12:38:22.110Z,11.539"  // line 4: too few fields
        lines[4] = lines[4].replacingOccurrences(of: "2024-08-07T12:36:44.350Z", with: "2024-08-07 noon")
        lines[5] = lines[5].replacingOccurrences(of: "35.0999985", with: "95.5")  // line 6: latitude out of range
        let feed = try QuakeFeed.read(Data(lines.joined(separator: "\n").utf8), source: "bad.csv")
        XCTAssertEqual(feed.recordCount, 6)
        XCTAssertEqual(feed.quakes.map(\.id), ["ci40867520", "ci40867344"])
        XCTAssertEqual(
            feed.skipped.map(\.description),
            [
                "line 3: mag 'NaN' is not a number",
                "line 4: 2 fields where the header has 22",
                "line 5: time '2024-08-07 noon' is not an ISO 8601 time",
                "line 6: latitude 95.5 is outside [-90, 90]",
            ])
    }

    func testAStationCountThatIsNoCountIsSkipped() throws {
        var lines = try QuakeFixtures.csvLines(rows: 2)
        lines[1] = lines[1].replacingOccurrences(of: ",ml,54,45,", with: ",ml,-3,45,")
        lines[2] = lines[2].replacingOccurrences(of: ",ml,94,64,", with: ",ml,9e99,64,")
        let feed = try QuakeFeed.read(Data(lines.joined(separator: "\n").utf8), source: "nst.csv")
        XCTAssertEqual(feed.skipped.map(\.description), ["line 2: nst -3 is not a count", "line 3: nst 9e+99 is not a count"])
    }

    func testAQuotedPlaceOverSeveralLinesKeepsLaterLineNumbersRight() throws {
        var lines = try QuakeFixtures.csvLines(rows: 3)
        lines[1] = lines[1].replacingOccurrences(of: "\"25 km ENE of Maricopa, CA\"", with: "\"25 km ENE of\nMaricopa, CA\"")
        lines[3] = lines[3].replacingOccurrences(of: ",5.1,", with: ",Infinity,")
        let feed = try QuakeFeed.read(Data(lines.joined(separator: "\n").utf8), source: "multiline.csv")
        XCTAssertEqual(feed.quakes.first?.place, "25 km ENE of\nMaricopa, CA")
        XCTAssertEqual(feed.skipped.map(\.description), ["line 5: mag 'Infinity' is not a number"])
    }

    func testAnUnterminatedQuoteEndsTheFeedWithAMessage() throws {
        var lines = try QuakeFixtures.csvLines(rows: 2)
        lines[2] = lines[2].replacingOccurrences(of: "\"9 km N of Stonewall, Oklahoma\"", with: "\"9 km N of Stonewall, Oklahoma")
        let feed = try QuakeFeed.read(Data(lines.joined(separator: "\n").utf8), source: "cut.csv")
        XCTAssertEqual(feed.quakes.count, 1)
        XCTAssertEqual(feed.skipped.map(\.description), ["line 3: a quoted field has no closing quote"])
    }

    func testBadGeoJSONFeaturesAreSkippedWithTheirIndex() throws {
        var document = try QuakeFixtures.geoJSONObject()
        var features = try XCTUnwrap(document["features"] as? [[String: Any]])
        func edit(_ index: Int, _ change: (inout [String: Any], inout [String: Any]) -> Void) {
            var properties = features[index]["properties"] as? [String: Any] ?? [:]
            var geometry = features[index]["geometry"] as? [String: Any] ?? [:]
            change(&properties, &geometry)
            features[index]["properties"] = properties
            features[index]["geometry"] = geometry
        }
        edit(1) { properties, _ in properties["mag"] = "NaN" }
        edit(2) { _, geometry in geometry["coordinates"] = [200, 10, 5] }
        edit(3) { properties, _ in properties["time"] = NSNull() }
        edit(4) { _, geometry in geometry["type"] = "Polygon" }
        edit(5) { _, geometry in geometry["coordinates"] = [140] }
        edit(6) { properties, _ in properties["mag"] = NSNull() }  // a missing magnitude is no error
        features[7]["geometry"] = NSNull()
        edit(8) { properties, _ in properties["nst"] = 1e30 }  // would trap a plain Int(_:)
        document["features"] = features
        let feed = try QuakeFeed.read(QuakeFixtures.encode(document), source: "bad.geojson")
        XCTAssertEqual(feed.recordCount, 314)
        XCTAssertEqual(feed.quakes.count, 314 - 7)
        XCTAssertEqual(
            feed.skipped.map(\.description),
            [
                "features[1]: properties.mag is not a number",
                "features[2]: longitude 200 is outside [-180, 180]",
                "features[3]: properties.time is missing or null",
                "features[4]: the geometry is a Polygon, not a Point",
                "features[5]: the Point has 1 coordinate, not [longitude, latitude, depth]",
                "features[7]: no geometry",
                "features[8]: properties.nst 1e+30 is not a count",
            ])
        XCTAssertNil(feed.quakes.first { $0.id == (features[6]["id"] as? String) }?.magnitude)
    }

    func testALiteralNaNInJSONIsNamedWithItsPosition() throws {
        let text =
            "{\"type\":\"FeatureCollection\",\"features\":[\n{\"type\":\"Feature\",\"properties\":{\"mag\":NaN,\"time\":1},\"geometry\":{\"type\":\"Point\",\"coordinates\":[1,2]}}]}"
        XCTAssertThrowsError(try QuakeFeed.read(Data(text.utf8), source: "nan.geojson")) { error in
            XCTAssertEqual((error as? any Travel411Error)?.exitStatus, .dataError)
            XCTAssertEqual(
                "\(error)",
                "nan.geojson is not a USGS earthquake feed: it is not valid JSON: line 2, column 39: NaN is not a JSON number (JSON has no NaN or infinities)"
            )
        }
    }

    func testASingleFeatureIsAFeedOfOne() throws {
        let document = try QuakeFixtures.geoJSONObject()
        let feature = try XCTUnwrap((document["features"] as? [Any])?.first)
        let feed = try QuakeFeed.read(QuakeFixtures.encode(feature), source: "detail.geojson")
        XCTAssertEqual(feed.quakes.map(\.id), ["usb000iigv"])
    }

    // MARK: No feed at all

    func testFilesThatAreNoFeedGetAClearMessage() {
        let cases: [(String, Data, String)] = [
            ("empty.csv", Data(), "empty.csv is empty: a USGS feed has a CSV header line or a GeoJSON FeatureCollection"),
            ("blank.csv", Data(" \n\n".utf8), "blank.csv is empty: a USGS feed has a CSV header line or a GeoJSON FeatureCollection"),
            (
                "points.csv", Data("id,lat,lon\n1,51.5,-0.1\n".utf8),
                "points.csv is not a USGS earthquake feed: the header (line 1) has no 'time', 'latitude', 'longitude' columns; it reads 'id,lat,lon'"
            ),
            (
                "point.geojson", Data("{\"type\":\"Point\",\"coordinates\":[1,2]}".utf8),
                "point.geojson is not a USGS earthquake feed: its GeoJSON type is 'Point', not FeatureCollection"
            ),
            (
                "package.json", Data("{\"name\":\"x\"}".utf8),
                "package.json is not a USGS earthquake feed: the JSON has no \"type\": \"FeatureCollection\""
            ),
            ("list.json", Data("[1,2]".utf8), "list.json is not a USGS earthquake feed: the top level is not a JSON object"),
            (
                "cut.geojson", Data("{\"type\":\"FeatureCollection\",\"features\":[".utf8),
                "cut.geojson is not a USGS earthquake feed: it is not valid JSON: line 1, column 41: a value is missing"
            ),
            (
                "photo.jpg", Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46]),
                "photo.jpg is not a USGS earthquake feed: it holds binary data, not CSV or JSON text"
            ),
        ]
        for (name, data, message) in cases {
            XCTAssertThrowsError(try QuakeFeed.read(data, source: name), name) { error in
                XCTAssertEqual("\(error)", message)
                XCTAssertEqual((error as? any Travel411Error)?.exitStatus, .dataError)
            }
        }
    }

    func testAFeedWithNoEventsIsNoError() throws {
        let geoJSON = try QuakeFeed.read(
            Data("{\"type\":\"FeatureCollection\",\"metadata\":{\"count\":0},\"features\":[]}".utf8), source: "quiet.geojson")
        XCTAssertEqual(geoJSON.recordCount, 0)
        let csv = try QuakeFeed.read(Data(try QuakeFixtures.csvLines(rows: 0).joined(separator: "\n").utf8), source: "quiet.csv")
        XCTAssertEqual(csv.recordCount, 0)
    }

    func testRandomBytesNeverCrashTheReaders() {
        var generator = SystemRandomNumberGenerator()
        let seeds = [Data("time,latitude,longitude,mag\n".utf8), Data("{\"type\":\"FeatureCollection\",\"features\":[".utf8)]
        for seed in seeds {
            for _ in 0..<200 {
                var data = seed
                data.append(
                    contentsOf: (0..<Int.random(in: 0..<200, using: &generator)).map { _ in
                        Array("0123456789,.-\"\n{}[]:NaTZe ".utf8).randomElement(using: &generator) ?? 0
                    })
                _ = try? QuakeFeed.read(data, source: "fuzz")
            }
        }
    }
}
