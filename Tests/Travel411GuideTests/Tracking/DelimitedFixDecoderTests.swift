import XCTest

@testable import Travel411Core
@testable import Travel411Guide

final class DelimitedFixDecoderTests: XCTestCase {
    func testCSVColumnsAreFoundByNameInAnyOrderAndCase() throws {
        let csv = """
            Speed,Accuracy,Timestamp,Longitude,Latitude,Altitude,note
            1.2,8,2024-05-01T09:00:00Z,-0.1275,51.5072,11,"start, here"
            1.3,12,2024-05-01T09:00:05.5Z,-0.1270,51.5075,12,
            """
        let (items, error) = try TrackFixtures.read(data: csv, name: "walk.csv")
        XCTAssertNil(error)
        let fixes = items.fixes
        XCTAssertEqual(fixes.count, 2)
        XCTAssertEqual(fixes[0].coordinate, Coordinate(latitude: 51.5072, longitude: -0.1275))
        XCTAssertEqual(fixes.map(\.horizontalAccuracy), [8, 12])
        XCTAssertEqual(fixes.map(\.elevation), [11, 12])
        XCTAssertEqual(fixes.map(\.speed), [1.2, 1.3])
        XCTAssertEqual(fixes.map(\.line), [2, 3])
        XCTAssertEqual(TrackTime.format(fixes[1].recordedTime), "2024-05-01T09:00:05.500Z")
    }

    func testSemicolonCSVWithDecimalCommasAndUnixTimes() throws {
        let csv = "time;lat;lon\n1714554000;51,5072;-0,1275\n1714554005000;51,5075;-0,1270\n"
        let fixes = try TrackFixtures.read(data: csv, name: "export.csv").items.fixes
        XCTAssertEqual(
            fixes.map(\.coordinate), [Coordinate(latitude: 51.5072, longitude: -0.1275), Coordinate(latitude: 51.5075, longitude: -0.127)])
        XCTAssertEqual(fixes.map { TrackTime.format($0.recordedTime) }, ["2024-05-01T09:00:00Z", "2024-05-01T09:00:05Z"])
    }

    func testBadRowsAreSkippedWithTheirLineNumbers() throws {
        let csv =
            "time,lat,lon\n2024-05-01T09:00:00Z,51.5,-0.12\n2024-05-01T09:00:01Z,51.5x,-0.12\n,51.5,-0.12\nyesterday,51.5,-0.12\n2024-05-01T09:00:04Z,95,-0.12\n"
        let items = try TrackFixtures.read(data: csv, name: "bad.csv").items
        XCTAssertEqual(items.fixes.count, 1)
        XCTAssertEqual(items.skipped.map(\.line), [3, 4, 5, 6])
        XCTAssertEqual(items.skipped.map(\.problem), [.malformed, .missingTime, .malformed, .malformed])
        XCTAssertEqual(items.skipped[0].detail, "latitude '51.5x' is not a number")
    }

    func testCSVWithoutCoordinatesOrTimeStopsWithAMessage() throws {
        let (items, error) = try TrackFixtures.read(data: "id,name\n1,a\n", name: "names.csv")
        XCTAssertTrue(items.isEmpty)
        XCTAssertTrue(String(describing: error).contains("no latitude and longitude columns"), "\(String(describing: error))")
        XCTAssertEqual((error as? any Travel411Error)?.exitStatus, .dataError)
        let (_, noTime) = try TrackFixtures.read(data: "lat,lon\n51.5,-0.12\n", name: "points.csv")
        XCTAssertTrue(String(describing: noTime).contains("no time column"))
    }

    func testJSONLines() throws {
        let jsonl = """
            {"t":"x","time":"2024-05-01T09:00:00Z","lat":51.5072,"lng":-0.1275,"accuracy":5}
            {"timestamp":1714554001,"latitude":"51.5073","longitude":"-0.1274","hdop":1.2}
            not json
            {"time":"2024-05-01T09:00:02Z","lat":null,"lon":-0.1273}
            """
        let (items, error) = try TrackFixtures.read(data: jsonl, name: "stream.jsonl")
        XCTAssertNil(error)
        XCTAssertEqual(items.fixes.count, 2)
        XCTAssertEqual(items.fixes.map(\.estimatedAccuracy), [5, 6])
        XCTAssertEqual(items.skipped.map(\.line), [3, 4])
    }

    func testFormatComesFromContentWhenTheExtensionSaysNothing() throws {
        XCTAssertEqual(try TrackReader(data: Data("{\"time\":1,\"lat\":1,\"lon\":1}\n".utf8), name: "x.log").format, .jsonl)
        XCTAssertEqual(try TrackReader(data: Data("# header\n$GPGGA,...\n".utf8), name: "x.log").format, .nmea)
        XCTAssertEqual(try TrackReader(data: Data("<?xml version=\"1.0\"?><gpx/>".utf8), name: "x").format, .gpx)
        XCTAssertEqual(try TrackReader(data: Data("time,lat,lon\n".utf8), name: "x.txt").format, .csv)
        XCTAssertEqual(try TrackReader(data: Data("time,lat,lon\n".utf8), name: "x.txt", format: .nmea).format, .nmea)
    }

    func testTimeParsing() {
        XCTAssertEqual(TrackTime.parse("2005-09-26T00:00:00Z"), Date(timeIntervalSince1970: 1_127_692_800))
        XCTAssertEqual(TrackTime.parse("2005-09-26 02:00:00+02:00"), Date(timeIntervalSince1970: 1_127_692_800))
        XCTAssertEqual(TrackTime.parse("2005-09-26T00:00:00"), Date(timeIntervalSince1970: 1_127_692_800))
        XCTAssertNil(TrackTime.parse("2005-13-26T00:00:00Z"))
        XCTAssertNil(TrackTime.parse("26/09/2005"))
        XCTAssertEqual(TrackTime.format(Date(timeIntervalSince1970: -2_147_483_647.793)), "1901-12-13T20:45:52.207Z")
    }
}
