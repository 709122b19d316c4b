import XCTest

@testable import Travel411Guide
@testable import Travel411Kit

final class UTCTimestampTests: XCTestCase {
    func testReadsUSGSTimesToTheMillisecond() throws {
        let time = try XCTUnwrap(UTCTimestamp(iso8601: "2024-08-07T13:27:10.850Z"))
        // date -u -d 2024-08-07T13:27:10Z +%s → 1723037230
        XCTAssertEqual(time.millisecondsSince1970, 1_723_037_230_850)
        XCTAssertEqual(time.iso8601, "2024-08-07T13:27:10.850Z")
        XCTAssertEqual(time.readable, "2024-08-07 13:27:10")
    }

    func testEpochMillisecondsFromTheGeoJSONFeedPrintAsUSGSWritesThem() {
        // The first feature of 4.5_month.geojson: time 1374321680940, "2013-07-20 12:01:20 UTC" on USGS's page.
        XCTAssertEqual(UTCTimestamp(millisecondsSince1970: 1_374_321_680_940).iso8601, "2013-07-20T12:01:20.940Z")
    }

    func testAcceptsTheFormsPeopleType() {
        let midnight: Int64 = 1_722_470_400_000  // 2024-08-01T00:00:00Z
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-08-01")?.millisecondsSince1970, midnight)
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-08-01T12:00")?.millisecondsSince1970, midnight + 12 * 3_600_000)
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-08-01 12:00:30Z")?.millisecondsSince1970, midnight + 12 * 3_600_000 + 30_000)
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-08-01T09:00:00+09:00")?.millisecondsSince1970, midnight)
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-07-31T19:00:00-0500")?.millisecondsSince1970, midnight)
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-08-01T00:00:00.1234567Z")?.millisecondsSince1970, midnight + 123)
        XCTAssertEqual(UTCTimestamp(iso8601: "2024-02-29")?.iso8601, "2024-02-29T00:00:00.000Z")
    }

    func testRejectsWhatIsNoTime() {
        for text in [
            "", "yesterday", "2024-13-01", "2023-02-29", "2024-08-01T25:00", "2024-08-01T12:00:00Q", "2024-8-1", "20240801",
            "2024-08-01T12:00:00.Z",
        ] {
            XCTAssertNil(UTCTimestamp(iso8601: text), text)
        }
    }

    func testCalendarArithmeticRoundTripsOverCenturies() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (year, month, day) = UTCTimestamp.civilFromDays(days)
            XCTAssertEqual(UTCTimestamp.daysFromCivil(year: year, month: month, day: day), days)
        }
    }
}
