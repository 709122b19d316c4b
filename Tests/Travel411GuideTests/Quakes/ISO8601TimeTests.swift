import Foundation
import Testing
import Travel411Guide

/// The one ISO 8601 reader and writer, as quake feeds (`UTCTimestamp`, to the millisecond) and tracks
/// (`TrackTime`, every decimal) use it.
@Suite struct ISO8601TimeTests {
    @Test func readsUSGSTimesToTheMillisecond() throws {
        let time = try #require(UTCTimestamp(iso8601: "2024-08-07T13:27:10.850Z"))
        // date -u -d 2024-08-07T13:27:10Z +%s → 1723037230
        #expect(time.millisecondsSince1970 == 1_723_037_230_850)
        #expect(time.iso8601 == "2024-08-07T13:27:10.850Z")
        #expect(time.readable == "2024-08-07 13:27:10")
    }

    @Test func epochMillisecondsFromTheGeoJSONFeedPrintAsUSGSWritesThem() {
        // The first feature of 4.5_month.geojson: time 1374321680940, "2013-07-20 12:01:20 UTC" on USGS's page.
        #expect(UTCTimestamp(millisecondsSince1970: 1_374_321_680_940).iso8601 == "2013-07-20T12:01:20.940Z")
    }

    private static let midnight: Int64 = 1_722_470_400_000  // 2024-08-01T00:00:00Z
    private static let hour: Int64 = 3_600_000
    private static let typedForms: [(String, Int64)] = [
        ("2024-08-01", midnight),
        ("2024-08-01T12:00", midnight + 12 * hour),
        ("2024-08-01 12:00:30Z", midnight + 12 * hour + 30_000),
        ("2024-08-01T09:00:00+09:00", midnight),
        ("2024-07-31T19:00:00-0500", midnight),
        ("2024-08-01T00:00:00.1234567Z", midnight + 123),
        (" 2024-08-01T00:00:00.5z\t", midnight + 500),
    ]

    @Test(arguments: typedForms)
    func acceptsTheFormsPeopleType(text: String, milliseconds: Int64) {
        #expect(UTCTimestamp(iso8601: text)?.millisecondsSince1970 == milliseconds)
    }

    @Test func aLeapDayExistsInALeapYearOnly() {
        #expect(UTCTimestamp(iso8601: "2024-02-29")?.iso8601 == "2024-02-29T00:00:00.000Z")
        #expect(UTCTimestamp(iso8601: "2023-02-29") == nil)
        #expect(TrackTime.parse("2023-02-29T00:00:00Z") == nil)
    }

    private static let notTimes: [String] = [
        "", "yesterday", "2024-13-01", "2023-02-29", "2024-08-01T25:00", "2024-08-01T12:00:00Q", "2024-8-1", "20240801",
        "2024-08-01T12:00:00.Z", "2024-04-31", "2024-08-01T12:00:00+19:00",
    ]

    @Test(arguments: notTimes)
    func rejectsWhatIsNoTime(text: String) {
        #expect(UTCTimestamp(iso8601: text) == nil)
        // A track's time may also be a number of seconds since 1970, which "20240801" is.
        if Double(text) == nil { #expect(TrackTime.parse(text) == nil) }
    }

    /// Tracks keep every decimal a receiver wrote; quakes keep the milliseconds USGS gives.
    @Test func tracksKeepTheDecimalsAndPrintMillisecondsOnlyWhenThereAreAny() throws {
        let time = try #require(TrackTime.parse("2024-08-01T00:00:00.0625Z"))
        #expect(time.timeIntervalSince1970 == 1_722_470_400.0625)
        #expect(TrackTime.format(time) == "2024-08-01T00:00:00.063Z")
        #expect(TrackTime.format(Date(timeIntervalSince1970: 1_722_470_400)) == "2024-08-01T00:00:00Z")
        #expect(TrackTime.format(Date(timeIntervalSince1970: 1_722_470_400.9996)) == "2024-08-01T00:00:01Z")
    }

    @Test func timesBefore1970() {
        #expect(UTCTimestamp(millisecondsSince1970: -1).iso8601 == "1969-12-31T23:59:59.999Z")
        #expect(UTCTimestamp(iso8601: "1969-12-31T23:59:59.999Z")?.millisecondsSince1970 == -1)
    }

    @Test func calendarArithmeticRoundTripsOverCenturies() {
        for days in stride(from: Int64(-800_000), through: 800_000, by: 997) {
            let (year, month, day) = CivilDate.date(days: days)
            #expect(CivilDate.days(year: year, month: month, day: day) == days)
        }
    }
}
