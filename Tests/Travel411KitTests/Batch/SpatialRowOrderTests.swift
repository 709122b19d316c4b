import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder

final class SpatialRowOrderTests: XCTestCase {
    /// Rows near each other on the ground come one after another; rows without a point come last, in their order.
    func testOrderFollowsTheCurveWithRowsWithoutAPointLast() {
        let points: [SIMD2<Double>] =
            [SIMD2(51.5, -0.1), SIMD2(.nan, .nan), SIMD2(-33.9, 151.2), SIMD2(51.6, -0.2), SIMD2(.nan, .nan)]
            + (0..<SpatialRowOrder.minimumRows).map { SIMD2(Double($0 % 170) - 85, Double($0 % 350) - 175) }
        let order = Self.order(points)
        XCTAssertEqual(order.sorted(), Array(points.indices), "a permutation of the rows")
        XCTAssertEqual(Array(order.suffix(2)), [1, 4])
        let curve = order.dropLast(2).map { HilbertCurve.index(longitude: points[$0].y, latitude: points[$0].x) }
        XCTAssertEqual(curve, curve.sorted())
        let london = order.firstIndex(of: 0) ?? -100, londonWest = order.firstIndex(of: 3) ?? 100
        XCTAssertEqual(abs(london - londonWest), 1, "London's two points lie side by side on the curve")
    }

    func testFewRowsKeepTheirOrder() {
        let points = (0..<(SpatialRowOrder.minimumRows - 1)).map { SIMD2(Double(-$0 % 80), Double($0 % 170)) }
        XCTAssertEqual(Self.order(points), Array(points.indices))
    }

    /// The radix sort gives the comparison sort's order: keys spread over all three digits, keys of one region
    /// (passes skipped), ties kept in the rows' order.
    func testCurveKeySortMatchesTheComparisonSort() {
        var generator = SeededGenerator(seed: 48)
        let spread = (0..<5_000).map { _ in UInt64.random(in: 0...UInt64(UInt32.max), using: &generator) }
        let region = (0..<5_000).map { _ in 0x1234_5000 | UInt64.random(in: 0...0x7FF, using: &generator) }
        let ties = (0..<5_000).map { UInt64($0 % 3) << 12 }
        for curve in [spread, region, ties, [7], []] {
            var keys = curve.enumerated().map { $1 << 32 | UInt64($0) }
            let expected = keys.sorted()
            var scratch = [UInt64](repeating: 0, count: keys.count)
            keys.withUnsafeMutableBufferPointer { keys in
                scratch.withUnsafeMutableBufferPointer { scratch in
                    guard let base = keys.baseAddress, let other = scratch.baseAddress else { return }
                    CurveKeySort.sort(base, count: keys.count, scratch: other)
                }
            }
            XCTAssertEqual(keys, expected)
        }
    }

    /// The order copied while the orderer, which owns its memory, is alive.
    private static func order(_ points: [SIMD2<Double>]) -> [Int] {
        let rowOrder = SpatialRowOrder()
        return withExtendedLifetime(rowOrder) { Array(rowOrder.order(count: points.count) { points[$0] }) }
    }

    /// Every field through the real geocoder: a chunk answered along the curve (one chunk of 4,000 rows) writes the
    /// same bytes as chunks too small to be reordered, with one worker and with two.
    func testReorderedChunksWriteTheSameBytesAsChunksInOrder() throws {
        var input = "id,lat,lon\n"
        for (id, point) in Self.seededPoints().enumerated() {
            if let (lat, lon) = point {
                input += "\(id),\(String(format: "%.5f", lat)),\(String(format: "%.5f", lon))\n"
            } else {
                input += "\(id),not a number,1\n"
            }
        }
        try assertReorderedChunksMatch(Data(input.utf8), name: "input.csv", errors: 42)
    }

    /// JSON Lines are answered in the places' order too: lines that are no object, or have no point, keep their place.
    func testReorderedJSONLinesWriteTheSameBytesAsLinesInOrder() throws {
        var input = ""
        for (id, point) in Self.seededPoints().enumerated() {
            if id % 331 == 0 { input += "not JSON\n" }
            if id % 500 == 0 { input += "\n" }
            if let (lat, lon) = point {
                input += #"{"id": \#(id), "lat": \#(String(format: "%.5f", lat)), "lon": \#(String(format: "%.5f", lon))}"# + "\n"
            } else {
                input += #"{"id": \#(id), "lat": "north", "lon": 1}"# + "\n"
            }
        }
        try assertReorderedChunksMatch(Data(input.utf8), name: "input.jsonl", errors: 42 + 13)
    }

    /// GeoJSON features too: a feature that is no valid JSON, or has no Point, keeps its place.
    func testReorderedGeoJSONFeaturesWriteTheSameBytesAsFeaturesInOrder() throws {
        var features: [String] = []
        for (id, point) in Self.seededPoints().enumerated() {
            if id % 331 == 0 { features.append(#"{"type": "Feature", "geometry": null, "properties": {"id": tru}}"#) }
            let geometry =
                point.map { #"{"type": "Point", "coordinates": [\#(String(format: "%.5f", $0.1)), \#(String(format: "%.5f", $0.0))]}"# }
                ?? #"{"type": "LineString", "coordinates": [[1, 2], [3, 4]]}"#
            features.append(#"{"type": "Feature", "id": \#(id), "geometry": \#(geometry), "properties": {"id": \#(id)}}"#)
        }
        let input = #"{"type": "FeatureCollection", "features": ["# + features.joined(separator: ",\n") + "]}\n"
        try assertReorderedChunksMatch(Data(input.utf8), name: "input.geojson", errors: 42 + 13)
    }

    /// 4,000 points, half near six cities and half anywhere, every 97th none.
    private static func seededPoints() -> [(Double, Double)?] {
        var generator = SeededGenerator(seed: 47)
        let cities = [(51.47, -0.45), (48.86, 2.35), (35.68, 139.69), (-33.86, 151.2), (40.7, -74.0), (60.17, 24.94)]
        return (0..<4_000).map { id in
            if id % 97 == 0 { return nil }
            if id % 2 == 0 {
                let city = cities[Int.random(in: 0..<cities.count, using: &generator)]
                return (
                    city.0 + Double.random(in: -0.2...0.2, using: &generator), city.1 + Double.random(in: -0.2...0.2, using: &generator)
                )
            }
            return (Double.random(in: -85...85, using: &generator), Double.random(in: -179...179, using: &generator))
        }
    }

    /// Every field through the real geocoder: the input in one chunk, answered along the curve, writes the same
    /// bytes as in chunks too small to be reordered, with one worker and with two.
    private func assertReorderedChunksMatch(_ input: Data, name: String, errors: Int) throws {
        let geocoder = try ReverseGeocoder(
            databasePath: TestPlaces.databasePath, loading: .everything, needs: PlacemarkNeeds(fields: PlacemarkField.standard))
        for jobs in [1, 2] {
            let options = BatchOptions(jobs: jobs)
            let inOrder = try runBatch(input, name: name, options: options, blockSize: 2048, printer: geocoder)
            let reordered = try runBatch(input, name: name, options: options, blockSize: 1 << 20, printer: geocoder)
            XCTAssertEqual(reordered.summary.rows, inOrder.summary.rows)
            XCTAssertEqual(reordered.summary.errors, errors)
            XCTAssertEqual(reordered.summary.errors, inOrder.summary.errors)
            XCTAssertEqual(reordered.lines.count, inOrder.lines.count)
            for (line, (expected, actual)) in zip(inOrder.lines, reordered.lines).enumerated() where expected != actual {
                XCTFail("\(name), jobs \(jobs), line \(line + 1): \(actual) instead of \(expected)")
                break
            }
            XCTAssertEqual(reordered.output, inOrder.output)
        }
    }
}
