import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Store

/// Lookups in lockstep must answer exactly like one `featureIndex` call each, on the real polygons.
final class AreaLookupLockstepTests: XCTestCase {
    func testAnswersLikeSingleLookupsOnTheRealPolygons() throws {
        let lookup = try PlacesLookup(path: TestPlaces.databasePath, loading: .everything, needs: .all)
        let indexes = PlacesSchema.AreaLevel.allCases.compactMap { lookup.area($0)?.index }
        let levels = indexes.compactMap(\.lockstepLevel)
        XCTAssertEqual(levels.count, indexes.count, "every level read up front has a lockstep view")
        // Points anywhere, and points a few metres from country borders (jittered border vertices).
        var generator = SplitMix64(seed: 99)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var points: [(x: Double, y: Double)] = (0..<30_000).map { _ in (unit() * 360 - 180, unit() * 180 - 90) }
        let database = try SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)
        for row in try database.query("SELECT longitude, latitude FROM travel411_localities WHERE id % 7 = 0") {
            guard let x = row[0].doubleValue, let y = row[1].doubleValue else { continue }
            points.append((x + (unit() - 0.5) * 0.2, y + (unit() - 0.5) * 0.2))
        }
        points += [(-180, -90), (180, 90), (179.99999999, 0), (0, 0)]
        var compared = 0
        for start in stride(from: 0, to: points.count, by: AreaLookupLockstep.capacity) {
            let group = points[start..<min(points.count, start + AreaLookupLockstep.capacity)]
            // Each group mixes levels: lookup i reads level (start + i) % levels.
            withUnsafeTemporaryAllocation(of: AreaLookupLockstep.Walk.self, capacity: group.count) { walks in
                for (i, point) in group.enumerated() {
                    walks.initializeElement(
                        at: i,
                        to: AreaLookupLockstep.Walk(
                            level: levels[(start + i) % levels.count], longitude: point.x, latitude: point.y))
                }
                var answers = [Int32](repeating: 0, count: group.count)
                answers.withUnsafeMutableBufferPointer { AreaLookupLockstep.resolve(walks, answers: $0) }
                for (i, point) in group.enumerated() {
                    let expected = indexes[(start + i) % levels.count].featureIndex(longitude: point.x, latitude: point.y)
                    XCTAssertEqual(answers[i], Int32(expected ?? -1), "level \((start + i) % levels.count) at \(point)")
                    compared += 1
                }
            }
        }
        XCTAssertGreaterThan(compared, 40_000)
    }

    /// Walks started from the levels' grid references side by side (`GridRows`, what a batch reads) answer
    /// exactly as single lookups, every level at every point.
    func testWalksFromGridRowsAnswerLikeSingleLookups() throws {
        let lookup = try PlacesLookup(path: TestPlaces.databasePath, loading: .everything, needs: .all)
        let levels = PlacesSchema.AreaLevel.allCases.map { lookup.area($0)?.index.lockstepLevel }
        let rows = AreaLookupLockstep.GridRows(levels: levels)
        var generator = SplitMix64(seed: 37)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var points: [(x: Double, y: Double)] = (0..<20_000).map { _ in (unit() * 360 - 180, unit() * 180 - 90) }
        points += [(-180, -90), (180, 90), (179.99999999, 0), (0, 0), (-0.0000001, 51.5)]
        var compared = 0
        for point in points {
            let start = AreaLookupLockstep.Start(longitude: point.x, latitude: point.y)
            for (ordinal, level) in levels.enumerated() {
                guard let level, let index = lookup.area(PlacesSchema.AreaLevel(ordinal: ordinal))?.index else { continue }
                let reference = rows.references[start.tile * AreaLookupLockstep.GridRows.stride + ordinal]
                var walks = [AreaLookupLockstep.Walk(level: level, start: start, reference: reference)]
                var answer: [Int32] = [0]
                walks.withUnsafeMutableBufferPointer { walks in
                    answer.withUnsafeMutableBufferPointer { AreaLookupLockstep.resolve(walks, answers: $0) }
                }
                XCTAssertEqual(answer[0], Int32(index.featureIndex(longitude: point.x, latitude: point.y) ?? -1), "\(ordinal) at \(point)")
                compared += 1
            }
        }
        XCTAssertGreaterThan(compared, 80_000)
    }
}
