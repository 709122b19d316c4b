import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

final class QuakeSelectionTests: XCTestCase {
    let tokyo = Coordinate(latitude: 35.68, longitude: 139.69)

    /// The haversine formula written out again here, on the same mean radius, so the test does not
    /// check the code against itself.
    func greatCircleMetres(_ a: Coordinate, _ b: Coordinate) -> Double {
        let r = 6_371_008.8, rad = Double.pi / 180
        let dLat = (b.latitude - a.latitude) * rad, dLon = (b.longitude - a.longitude) * rad
        let h = pow(sin(dLat / 2), 2) + cos(a.latitude * rad) * cos(b.latitude * rad) * pow(sin(dLon / 2), 2)
        return 2 * r * atan2(sqrt(h), sqrt(1 - h))
    }

    func testNearTokyoWithin300KilometresNearestFirst() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        let selected = QuakeSelection.select(feed.quakes, QuakeFilter(near: tokyo, radiusMetres: 300_000))
        // Every event of the feed within 300 km, by the formula, and no other.
        let expected = feed.quakes.filter { greatCircleMetres(tokyo, $0.coordinate) <= 300_000 }
        XCTAssertEqual(Set(selected.map(\.quake.id)), Set(expected.map(\.id)))
        XCTAssertEqual(selected.count, 6)
        for item in selected {
            let distance = try XCTUnwrap(item.distanceMetres)
            XCTAssertEqual(distance, greatCircleMetres(tokyo, item.quake.coordinate), accuracy: 0.01)
        }
        let distances = selected.compactMap(\.distanceMetres)
        XCTAssertEqual(distances, distances.sorted())
        XCTAssertEqual(selected.first?.quake.place, "2km SSE of Yotsukaido, Japan")
        XCTAssertEqual(selected.first.map { (($0.distanceMetres ?? 0) / 100).rounded() }, 444)  // 44.4 km
        // The Chiba event lies east of Tokyo.
        XCTAssertEqual(selected.first.flatMap(\.bearingDegrees).map { CompassPoint(bearing: $0) }, .e)
    }

    func testLastKeepsTheMostRecentMostRecentFirst() throws {
        let feed = try QuakeFixtures.csvFeed()
        let selected = QuakeSelection.select(feed.quakes, QuakeFilter(last: 300))
        XCTAssertEqual(selected.count, 300)
        let times = selected.map(\.quake.time)
        XCTAssertEqual(times, times.sorted(by: >))
        let cutoff = try XCTUnwrap(times.last)
        // None left out is newer than the oldest kept.
        XCTAssertEqual(feed.quakes.filter { $0.time > cutoff }.count, 299)
    }

    func testLastAppliesAfterTheOtherFilters() throws {
        let feed = try QuakeFixtures.csvFeed()
        let selected = QuakeSelection.select(feed.quakes, QuakeFilter(minimumMagnitude: 6, last: 5))
        XCTAssertEqual(selected.count, 5)
        XCTAssertTrue(selected.allSatisfy { ($0.quake.magnitude ?? 0) >= 6 })
        let newestStrong = feed.quakes.filter { ($0.magnitude ?? 0) >= 6 }.map(\.time).sorted(by: >).prefix(5)
        XCTAssertEqual(selected.map(\.quake.time), Array(newestStrong))
    }

    func testMinimumMagnitudeLeavesOutEventsWithoutOne() {
        var unknown = Quake(time: UTCTimestamp(millisecondsSince1970: 0), coordinate: tokyo)
        unknown.id = "unknown"
        var strong = unknown
        strong.id = "strong"
        strong.magnitude = 5
        XCTAssertEqual(QuakeSelection.select([unknown, strong], QuakeFilter()).map(\.quake.id), ["unknown", "strong"])
        XCTAssertEqual(QuakeSelection.select([unknown, strong], QuakeFilter(minimumMagnitude: -1)).map(\.quake.id), ["strong"])
    }

    func testSinceTakesDurationsAndISOTimes() throws {
        let now = try XCTUnwrap(UTCTimestamp(iso8601: "2024-08-07T14:00:00Z"))
        XCTAssertEqual(QuakeSince.parse("7d", now: now), UTCTimestamp(iso8601: "2024-07-31T14:00:00Z"))
        XCTAssertEqual(QuakeSince.parse("12h", now: now), UTCTimestamp(iso8601: "2024-08-07T02:00:00Z"))
        XCTAssertEqual(QuakeSince.parse("30m", now: now), UTCTimestamp(iso8601: "2024-08-07T13:30:00Z"))
        XCTAssertEqual(QuakeSince.parse("1.5h", now: now), UTCTimestamp(iso8601: "2024-08-07T12:30:00Z"))
        XCTAssertEqual(QuakeSince.parse("2w", now: now), UTCTimestamp(iso8601: "2024-07-24T14:00:00Z"))
        XCTAssertEqual(QuakeSince.parse("2024-08-01", now: now), UTCTimestamp(iso8601: "2024-08-01T00:00:00Z"))
        for bad in ["d", "7", "-7d", "7y", "nand", "1e3d", "7 days", "1.2.3h"] {
            XCTAssertNil(QuakeSince.parse(bad, now: now), bad)
        }

        let feed = try QuakeFixtures.csvFeed()
        let since = try XCTUnwrap(QuakeSince.parse("2h", now: now))
        let selected = QuakeSelection.select(feed.quakes, QuakeFilter(since: since))
        XCTAssertEqual(selected.count, feed.quakes.filter { $0.time >= since }.count)
        XCTAssertEqual(selected.count, 6)
    }

    func testAnEventAcrossTheAntimeridianIsNear() {
        // Matei airport on Taveuni (-179.877) and an event at 179.9: 4 km apart, not 40,000.
        let event = Quake(time: UTCTimestamp(millisecondsSince1970: 0), coordinate: Coordinate(latitude: -16.69, longitude: 179.99))
        let selected = QuakeSelection.select(
            [event], QuakeFilter(near: Coordinate(latitude: -16.6906, longitude: -179.877), radiusMetres: 50_000))
        XCTAssertEqual(selected.count, 1)
        XCTAssertLessThan(selected.first?.distanceMetres ?? .infinity, 15_000)
    }
}
