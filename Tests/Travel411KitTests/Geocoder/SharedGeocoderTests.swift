import Dispatch
import Foundation
import Synchronization
import Testing
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411TestSupport

/// A geocoder is shared by the batch's workers and the server's event loops, whichever way it was opened:
/// pages read late are stored once, atomically, so many threads asking at once get the answers one
/// thread gets. (Scripts/sanitize runs this under ThreadSanitizer.)
struct SharedGeocoderTests {
    /// Points spread over land, sea and London's streets, so that every kind of page is read late.
    static let points: [Coordinate] = {
        var state: UInt64 = 411
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        let world = (0..<600).map { _ in Coordinate(latitude: next() * 140 - 60, longitude: next() * 360 - 180) }
        let london = (0..<400).map { _ in Coordinate(latitude: 51.49 + next() * 0.04, longitude: -0.16 + next() * 0.06) }
        return world + london
    }()

    @Test(arguments: [ReverseGeocoder.Loading.onDemand, .everything])
    func manyThreadsAnswerAsOne(loading: ReverseGeocoder.Loading) throws {
        let expected = try ReverseGeocoder(databasePath: TestPlaces.databasePath, loading: loading)
        let answers = Self.points.map { expected.placemark(for: $0) }
        // A fresh geocoder, so that its threads race to read the same pages for the first time.
        let shared = try ReverseGeocoder(databasePath: TestPlaces.databasePath, loading: loading)
        let mismatches = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            // Each worker walks the points from another start, so that first reads collide.
            for step in 0..<Self.points.count {
                let index = (step + worker * 125) % Self.points.count
                if shared.placemark(for: Self.points[index]) != answers[index] { mismatches.withLock { $0 += 1 } }
            }
        }
        #expect(mismatches.withLock { $0 } == 0)
        #expect(answers.contains { $0.thoroughfare != nil })
    }
}
