import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Store

/// A single `where` and a batch must never disagree: thousands of seeded points through the real
/// batch pipeline (every lookup preloaded, two worker threads) against one-at-a-time placemarks
/// from a geocoder that reads on demand, field by field.
final class BatchConsistencyTests: XCTestCase {
    func testBatchAndSingleLookupsAgreeOnThousandsOfRandomPoints() throws {
        try compareBatchWithSingleLookups(fields: PlacemarkField.allCases)
    }

    /// A batch asking for a few fields skips the other lookups, and must still answer those fields the same.
    func testAFewFieldsAreAnsweredAsWithAllOfThem() throws {
        try compareBatchWithSingleLookups(fields: [.country, .administrativeArea, .locality, .timeZone])
        try compareBatchWithSingleLookups(fields: [.subLocality, .postalCode, .ocean])
    }

    /// A worker copies a run of country, time zone and water fields from its memo of their texts
    /// (`PlacemarkTextMemo`): first, last or between other fields, in any order, the texts are the field-by-field ones.
    func testRunsOfCountryAndWaterFieldsAnswerAsFieldByField() throws {
        try compareBatchWithSingleLookups(fields: [.ocean, .timeZone, .countryFromTerritorialWaters, .name, .isoCountryCode])
        try compareBatchWithSingleLookups(fields: [.locality, .inlandWater, .country])
    }

    /// The memo's run: the first of two or more such fields one after another; none for the four fields.
    func testTheMemoTakesTheFirstRunOfTwoOrMore() {
        func run(_ fields: [PlacemarkField]) -> Range<Int>? {
            fields.withUnsafeBufferPointer { buffer in
                guard let memo = PlacemarkTextMemo(fields: buffer) else { return nil }
                defer { memo.deallocate() }
                return memo.run
            }
        }
        XCTAssertEqual(run(PlacemarkField.standard), 9..<15)
        XCTAssertNil(run([.country, .administrativeArea, .locality, .timeZone]))
        XCTAssertEqual(run([.timeZone, .name, .ocean, .country, .inlandWater]), 2..<5)
    }

    private func compareBatchWithSingleLookups(fields: [PlacemarkField]) throws {
        let points = try seededPoints()
        var csv = "id,lat,lon\n"
        for (i, point) in points.enumerated() { csv += "\(i),\(point.latitude),\(point.longitude)\n" }

        // Read only what these fields need, as the command does.
        let batchGeocoder = try ReverseGeocoder(
            databasePath: TestPlaces.databasePath, loading: .everything, needs: PlacemarkNeeds(fields: fields))
        var options = BatchOptions(outputFormat: .csv, jobs: 2, showProgress: false, printsSummary: false)
        options.fields = fields
        let output = try runBatch(Data(csv.utf8), options: options, printer: batchGeocoder)
        let rows = parseCSV(output.text)
        XCTAssertEqual(rows.count, points.count + 1, "one output row per input row, plus the header")
        let header = try XCTUnwrap(rows.first)
        let columns = Dictionary(uniqueKeysWithValues: header.enumerated().map { ($1, $0) })

        let single = try ReverseGeocoder(databasePath: TestPlaces.databasePath, loading: .onDemand)
        var streetsSeen = 0
        for (i, point) in points.enumerated() {
            let row = rows[i + 1]
            XCTAssertEqual(row.first, String(i), "input order is kept")
            let placemark = single.placemark(for: point)
            if placemark.thoroughfare != nil { streetsSeen += 1 }
            for field in fields {
                guard let column = columns[field.rawValue] else { return XCTFail("no column \(field.rawValue)") }
                XCTAssertEqual(row[column], field.text(in: placemark) ?? "", "\(field.rawValue) at \(point)")
            }
        }
        XCTAssertGreaterThan(streetsSeen, 50, "the sample reaches street level too")
        for field in PlacemarkField.allCases {
            XCTAssertEqual(columns[field.rawValue] != nil, fields.contains(field), "only the asked fields are printed: \(field.rawValue)")
        }
    }

    /// Uniform points worldwide, jittered real localities, and points in the street-level areas.
    private func seededPoints() throws -> [Coordinate] {
        var generator = SplitMix64(seed: 411)
        func uniform(_ range: ClosedRange<Double>) -> Double {
            range.lowerBound + Double(generator.next() % 1_000_000_000) / 1_000_000_000 * (range.upperBound - range.lowerBound)
        }
        var points = (0..<2000).map { _ in Coordinate(latitude: uniform(-89.9...89.9), longitude: uniform(-180...180)) }
        let localities = try SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)
            .query("SELECT latitude, longitude FROM travel411_localities WHERE id % 97 = 0")
            .compactMap { row in row[0].doubleValue.flatMap { lat in row[1].doubleValue.map { Coordinate(latitude: lat, longitude: $0) } } }
        for _ in 0..<2000 {
            let anchor = localities[Int(generator.next() % UInt64(localities.count))]
            points.append(GreatCircle.destination(from: anchor, distance: uniform(0...8000), bearing: uniform(0...360)))
        }
        let streetAreas: [(ClosedRange<Double>, ClosedRange<Double>)] = [
            (51.49...51.53, -0.16...(-0.08)), (52.55...52.75, -0.8...(-0.45)), (60.15...60.18, 24.92...24.96),
        ]
        for _ in 0..<1000 {
            let area = streetAreas[Int(generator.next() % 3)]
            points.append(Coordinate(latitude: uniform(area.0), longitude: uniform(area.1)))
        }
        return points
    }
}
