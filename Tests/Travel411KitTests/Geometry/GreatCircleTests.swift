import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder

final class GreatCircleTests: XCTestCase {
    let heathrow = Coordinate(latitude: 51.471184, longitude: -0.452542)
    let london = Coordinate(latitude: 51.500153, longitude: -0.126236)

    func testDistanceHeathrowToCentralLondon() {
        // 22.8 km by the haversine on the mean radius (independently computed).
        XCTAssertEqual(GreatCircle.distance(from: heathrow, to: london), 22_812, accuracy: 15)
        XCTAssertEqual(GreatCircle.distance(from: london, to: heathrow), GreatCircle.distance(from: heathrow, to: london), accuracy: 1e-6)
        XCTAssertEqual(GreatCircle.distance(from: london, to: london), 0)
    }

    func testDistanceAcrossTheAntimeridianIsShort() {
        let taveuni = Coordinate(latitude: -16.69, longitude: -179.877)
        let suva = Coordinate(latitude: -18.14, longitude: 178.44)
        XCTAssertLessThan(GreatCircle.distance(from: taveuni, to: suva), 260_000)
        XCTAssertGreaterThan(GreatCircle.distance(from: taveuni, to: suva), 200_000)
    }

    func testAntipodesAndQuarterCircle() {
        let halfCircumference = Double.pi * GreatCircle.earthRadiusMetres
        XCTAssertEqual(
            GreatCircle.distance(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0, longitude: 180)),
            halfCircumference, accuracy: 1e-3)
        XCTAssertEqual(
            GreatCircle.distance(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 90, longitude: 0)),
            halfCircumference / 2, accuracy: 1e-3)
    }

    func testInitialBearingAndCompassPoints() {
        XCTAssertEqual(
            GreatCircle.initialBearing(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 1, longitude: 0)), 0,
            accuracy: 1e-9)
        XCTAssertEqual(
            GreatCircle.initialBearing(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0, longitude: 1)), 90,
            accuracy: 1e-9)
        XCTAssertEqual(
            GreatCircle.initialBearing(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: -1, longitude: 0)), 180,
            accuracy: 1e-9)
        XCTAssertEqual(
            GreatCircle.initialBearing(from: Coordinate(latitude: 0, longitude: 0), to: Coordinate(latitude: 0, longitude: -1)), 270,
            accuracy: 1e-9)
        // Heathrow lies west of central London (bearing 262°).
        XCTAssertEqual(CompassPoint(bearing: GreatCircle.initialBearing(from: london, to: heathrow)), .w)
        XCTAssertEqual(CompassPoint(bearing: 359), .n)
        XCTAssertEqual(CompassPoint(bearing: 11.24), .n)
        XCTAssertEqual(CompassPoint(bearing: 11.26), .nne)
        XCTAssertEqual(CompassPoint(bearing: -45), .nw)
        // Eastward across the antimeridian.
        XCTAssertEqual(
            GreatCircle.initialBearing(from: Coordinate(latitude: 0, longitude: 179.5), to: Coordinate(latitude: 0, longitude: -179.5)), 90,
            accuracy: 1e-9)
    }

    func testDestinationRoundTrips() {
        let there = GreatCircle.destination(from: london, distance: 10_000, bearing: 45)
        XCTAssertEqual(GreatCircle.distance(from: london, to: there), 10_000, accuracy: 0.01)
        XCTAssertEqual(GreatCircle.initialBearing(from: london, to: there), 45, accuracy: 1e-6)
        let wrapped = GreatCircle.destination(from: Coordinate(latitude: 0, longitude: 179.9), distance: 50_000, bearing: 90)
        XCTAssertLessThan(wrapped.longitude, -179)
    }

    func testPhrase() {
        let place = NearbyPlace(name: "Cranford", coordinate: london, distanceMetres: 2630, bearingDegrees: 40)
        XCTAssertEqual(place.phrase, "2.6 km NE of Cranford")
        XCTAssertEqual(NearbyPlace(name: "Soho", coordinate: london, distanceMetres: 40, bearingDegrees: 0).phrase, "in Soho")
        XCTAssertEqual(DistanceFormatter.humanReadable(metres: 850), "850 m")
        XCTAssertEqual(DistanceFormatter.humanReadable(metres: 1_234_000), "1234 km")
    }

    func testCoordinateParsing() throws {
        XCTAssertEqual(try Coordinate(parsingPair: "51.47,-0.45"), Coordinate(latitude: 51.47, longitude: -0.45))
        XCTAssertEqual(try Coordinate(parsingLatitude: " 51.47", longitude: "-0.45"), Coordinate(latitude: 51.47, longitude: -0.45))
        XCTAssertThrowsError(try Coordinate(parsingLatitude: "95", longitude: "0")) {
            XCTAssertEqual($0 as? CoordinateError, .latitudeOutOfRange(95))
        }
        XCTAssertThrowsError(try Coordinate(parsingLatitude: "abc", longitude: "0")) {
            XCTAssertEqual($0 as? CoordinateError, .notANumber(field: "latitude", text: "abc"))
        }
        XCTAssertThrowsError(try Coordinate(parsingLatitude: "0", longitude: "181"))
        XCTAssertThrowsError(try Coordinate(parsingLatitude: "nan", longitude: "0"))
    }

    /// The batch computes both at once (`distanceAndInitialBearing`): it must print the same metres and compass
    /// points, so the numbers must be the same bits, near and far, across the antimeridian and at the poles.
    func testDistanceAndBearingTogetherAreTheSameBits() {
        var generator = SplitMix64(seed: 37)
        func angle(_ range: Double) -> Double { (Double(generator.next() % 2_000_001) / 1_000_000 - 1) * range }
        var pairs = (0..<20_000).map { _ in
            let a = Coordinate(latitude: angle(90), longitude: angle(180))
            // Half of them a few kilometres apart, as a place and a point near it.
            let b =
                generator.next() % 2 == 0
                ? Coordinate(latitude: max(-90, min(90, a.latitude + angle(0.1))), longitude: a.longitude + angle(0.1))
                : Coordinate(latitude: angle(90), longitude: angle(180))
            return (a, b)
        }
        pairs += [(heathrow, heathrow), (Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 180))]
        pairs.append((Coordinate(latitude: -16.69, longitude: -179.877), Coordinate(latitude: -18.14, longitude: 178.44)))
        for (a, b) in pairs {
            let together = GreatCircle.distanceAndInitialBearing(from: a, to: b)
            XCTAssertEqual(together.metres.bitPattern, GreatCircle.distance(from: a, to: b).bitPattern, "\(a) to \(b)")
            XCTAssertEqual(together.degrees.bitPattern, GreatCircle.initialBearing(from: a, to: b).bitPattern, "\(a) to \(b)")
        }
    }

    /// The bearings' and longitudes' remainder without fmod must be fmod's number, bit for bit (the sign of a zero
    /// included), at its edges, past them and on random values.
    func testTheRemainderOf360IsFmods() {
        var values: [Double] = [0, -0.0, 180, 359.99999999999994, 360, 540, 719.9999999999999, 720, 1_080, -180, -360, -720]
        values += [.nan, .infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude]
        for edge in [0.0, 360, 720, -360, -720] { values += [edge.nextUp, edge.nextDown] }
        var generator = SplitMix64(seed: 360)
        values += (0..<100_000).map { _ in (Double(generator.next() % 4_000_001) / 1_000 - 2_000) + Double(generator.next() % 1_000) / 1e7 }
        for x in values {
            let expected = x.truncatingRemainder(dividingBy: 360)
            let found = GreatCircle.remainderOf360(x)
            XCTAssertTrue(found.bitPattern == expected.bitPattern || (found.isNaN && expected.isNaN), "\(x): \(found) against \(expected)")
        }
    }
}
