import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Store

/// The batch takes its nearest place's latitude sine and cosine from this table: made the first time, kept
/// afterwards, they must be the bits computing them gives, and so must the distance and bearing made from them.
final class PlaceLatitudeTrigonometryTests: XCTestCase {
    func testKeptValuesAreTheComputedBits() {
        var generator = SplitMix64(seed: 411)
        var latitudes = (0..<5_000).map { _ in Double(generator.next() % 18_000_001) / 100_000 - 90 }
        latitudes += [0, -0.0, 90, -90, 1e-300, 89.99999999999999]
        let table = PlaceLatitudeTrigonometry(count: latitudes.count)
        for _ in 0..<2 {  // made, then kept
            for (place, latitude) in latitudes.enumerated() {
                guard let slot = table.prefetchSlot(place) else { return XCTFail("place \(place) has no slot") }
                let kept = PlaceLatitudeTrigonometry.sineAndCosine(at: slot, latitude: latitude)
                let computed = GreatCircle.latitudeSineAndCosine(latitude)
                XCTAssertEqual(kept.sin.bitPattern, computed.sin.bitPattern, "\(latitude)")
                XCTAssertEqual(kept.cos.bitPattern, computed.cos.bitPattern, "\(latitude)")
                XCTAssertEqual(computed.sin.bitPattern, sin(latitude * .pi / 180).bitPattern, "\(latitude)")
                XCTAssertEqual(computed.cos.bitPattern, cos(latitude * .pi / 180).bitPattern, "\(latitude)")
            }
        }
        XCTAssertNil(table.prefetchSlot(latitudes.count))
        XCTAssertNil(table.prefetchSlot(-1))
    }

    /// The distance and bearing from a place whose sine and cosine were kept are `distance` and `initialBearing`.
    func testDistanceAndBearingFromKeptValues() {
        var generator = SplitMix64(seed: 37)
        func angle(_ range: Double) -> Double { (Double(generator.next() % 2_000_001) / 1_000_000 - 1) * range }
        let places = (0..<2_000).map { _ in Coordinate(latitude: angle(90), longitude: angle(180)) }
        let table = PlaceLatitudeTrigonometry(count: places.count)
        for round in 0..<3 {
            for (id, place) in places.enumerated() {
                let point = Coordinate(
                    latitude: max(-90, min(90, place.latitude + angle(round == 0 ? 0.1 : 90))), longitude: place.longitude + angle(0.1))
                guard let slot = table.prefetchSlot(id) else { return XCTFail("place \(id) has no slot") }
                let (sinφ1, cosφ1) = PlaceLatitudeTrigonometry.sineAndCosine(at: slot, latitude: place.latitude)
                let (sinφ2, cosφ2) = GreatCircle.latitudeSineAndCosine(point.latitude)
                let found = GreatCircle.distanceAndInitialBearing(
                    from: place, to: point, sinφ1: sinφ1, cosφ1: cosφ1, sinφ2: sinφ2, cosφ2: cosφ2)
                let metres = GreatCircle.distance(from: place, to: point), degrees = GreatCircle.initialBearing(from: place, to: point)
                XCTAssertEqual(found.metres.bitPattern, metres.bitPattern, "\(place) to \(point)")
                XCTAssertEqual(found.degrees.bitPattern, degrees.bitPattern, "\(place) to \(point)")
            }
        }
    }
}
