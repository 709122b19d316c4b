import Travel411TestSupport
import XCTest

@testable import Travel411Kit

/// Prints lookups per second on one core; a figure to watch, never an assertion (set TRAVEL411_BENCHMARK=1).
final class GeocoderThroughputTests: XCTestCase {
    func testLookupsPerSecondOnOneCore() throws {
        guard ProcessInfo.processInfo.environment["TRAVEL411_BENCHMARK"] != nil else { throw XCTSkip("set TRAVEL411_BENCHMARK=1") }
        let geocoder = TestPlaces.geocoder
        let database = try SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)
        let anchors = try database.query("SELECT latitude, longitude FROM travel411_localities WHERE id % 13 = 0").compactMap {
            row -> Coordinate? in
            guard let lat = row[0].doubleValue, let lon = row[1].doubleValue else { return nil }
            return Coordinate(latitude: lat, longitude: lon)
        }
        var generator = SplitMix64(seed: 42)
        let points = (0..<600_000).map { _ -> Coordinate in
            let anchor = anchors[Int(generator.next() % UInt64(anchors.count))]
            return GreatCircle.destination(
                from: anchor, distance: Double(generator.next() % 20_000), bearing: Double(generator.next() % 360))
        }
        var countries = 0
        let start = Date()
        for point in points where geocoder.placemark(for: point).country != nil { countries += 1 }
        let seconds = Date().timeIntervalSince(start)
        print("geocoder: \(Int(Double(points.count) / seconds)) lookups/s on one core (\(countries) of \(points.count) on land)")
    }
}
