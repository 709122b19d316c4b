import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder

final class DecimalParserTests: XCTestCase {
    private func parse(_ text: String) -> Double? {
        var text = text
        return text.withUTF8 { utf8 in
            if let base = utf8.baseAddress { return DecimalParser.parse(base, from: 0, to: utf8.count) }
            // An empty buffer may have no address; the parser still needs one, which it must not read.
            var byte: UInt8 = 0
            return withUnsafePointer(to: &byte) { DecimalParser.parse($0, from: 0, to: 0) }
        }
    }

    func testAgreesWithDoubleOnRandomDecimals() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200_000 {
            let text = randomDecimal(using: &generator)
            let expected = Double(text)
            let parsed = parse(text)
            XCTAssertEqual(
                parsed?.bitPattern, expected?.bitPattern, "'\(text)': \(String(describing: parsed)) vs \(String(describing: expected))")
        }
    }

    func testAgreesWithDoubleOnCoordinateLikeValues() {
        for _ in 0..<100_000 {
            let value = Double.random(in: -180...180)
            for text in [String(value), String(format: "%.6f", value), String(format: "%.15g", value), String(format: "%.17g", value)] {
                XCTAssertEqual(parse(text)?.bitPattern, Double(text)?.bitPattern, text)
            }
        }
    }

    func testEdgeCases() {
        XCTAssertEqual(parse("0"), 0)
        XCTAssertEqual(parse("-0")?.sign, .minus)
        XCTAssertEqual(parse("+5"), 5)
        XCTAssertEqual(parse(".5"), 0.5)
        XCTAssertEqual(parse("5."), 5)
        XCTAssertEqual(parse(" 51.47\t"), 51.47)
        XCTAssertEqual(parse("1e-3"), 0.001)
        XCTAssertEqual(parse("1E+2"), 100)
        XCTAssertEqual(parse("0.000000000000000000000000001234"), 1.234e-27)
        XCTAssertEqual(parse("123456789012345678901234567890"), 1.2345678901234568e29)
        XCTAssertEqual(parse("1e400"), .infinity)
        for rejected in [
            "", " ", "-", "+", ".", "e5", "1e", "1e+", "abc", "NaN", "nan", "inf", "Infinity", "0x1p3", "1,5", "1.2.3", "--1", "1 2", "12a",
        ] {
            XCTAssertNil(parse(rejected), "'\(rejected)' should not parse")
        }
    }

    /// The common shape is read a word at a time (`parseWords`), the rest byte by byte: both give `Double(text)`'s
    /// value, the word path only for `[-]D.D` with 1-7 and 1-8 digits, no blanks, eight bytes after the sign.
    func testWordsReadTheCommonShapeAsDoubleDoes() {
        func words(_ text: String) -> Double? {
            var text = text
            return text.withUTF8 { utf8 in utf8.baseAddress.flatMap { DecimalParser.parseWords($0, from: 0, to: utf8.count) } }
        }
        for text in ["48.653089", "1.805986", "-0.000000", "-179.9999999", "1234567.12345678", "0.1234567", "-1.0000000", "9.00000001"] {
            XCTAssertEqual(words(text)?.bitPattern, Double(text)?.bitPattern, text)
            XCTAssertEqual(parse(text)?.bitPattern, Double(text)?.bitPattern, text)
        }
        XCTAssertEqual(words("-0.000000")?.sign, .minus)
        for other in [
            "-0.45", "12345678.1", "1.234567890", " 48.653089", "48.65308 ", "48.6530e9", "+48.653089", ".6530891", "4865308.", "48,653089",
        ] {
            XCTAssertNil(words(other), "'\(other)' is not the word path's")
            // `parse` takes blanks around the number, which `Double(_:)` does not.
            let expected = Double(other.trimmingCharacters(in: .whitespaces))
            XCTAssertEqual(parse(other)?.bitPattern, expected?.bitPattern, other)
        }
        // A number inside a longer line: the fraction's word ends at its end, the line's bytes after it unread.
        let line = Array("x,-12.3456789,7".utf8)
        let inLine = line.withUnsafeBufferPointer { $0.baseAddress.flatMap { DecimalParser.parse($0, from: 2, to: 13) } }
        XCTAssertEqual(inLine, -12.3456789)
    }

    private func randomDecimal(using generator: inout SystemRandomNumberGenerator) -> String {
        func digits(_ count: Int) -> String {
            String((0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &generator))) })
        }
        var text = ""
        switch Int.random(in: 0..<3, using: &generator) {
        case 0: text += "-"
        case 1: text += "+"
        default: break
        }
        let integerDigits = Int.random(in: 0...(Bool.random(using: &generator) ? 4 : 25), using: &generator)
        let fractionDigits = Int.random(in: 0...(Bool.random(using: &generator) ? 8 : 25), using: &generator)
        text += digits(integerDigits)
        if fractionDigits > 0 || integerDigits == 0 { text += "." + digits(max(fractionDigits, integerDigits == 0 ? 1 : 0)) }
        if Int.random(in: 0..<4, using: &generator) == 0 {
            text += ["e", "E"].randomElement(using: &generator) ?? "e"
            text += ["", "-", "+"].randomElement(using: &generator) ?? ""
            text += String(Int.random(in: 0...330, using: &generator))
        }
        return text
    }
}

final class PlacemarkTextTests: XCTestCase {
    /// What the batch prints for a computed field: the prefix, then for `.description` the place's name.
    private func append(_ field: PlacemarkField, of nearby: NearbyPlace, to buffer: GrowableByteArray) -> Bool {
        guard PlacemarkText.appendPrefix(field, metres: nearby.distanceMetres, bearing: nearby.bearingDegrees, to: buffer) else {
            return false
        }
        if field == .description { buffer.append(nearby.name) }
        return true
    }

    /// The byte writer must say exactly what `PlacemarkField.text(in:)` says.
    func testComputedFieldsMatchPlacemarkFieldText() {
        let distances: [Double] =
            [0, 42, 99.4, 99.5, 100, 999.4, 999.5, 1000, 1049, 1050, 9_949, 9_950, 99_949, 99_950, 99_999, 100_000, 123_456.7]
            + (0..<20_000).map { _ in Double.random(in: 0...2e7) } + (0..<5_000).map { _ in Double.random(in: 90...110_000) }
        let buffer = GrowableByteArray(capacity: 64)
        for distance in distances {
            let bearing = Double.random(in: -720...720)
            var placemark = Placemark(location: Coordinate(latitude: 0, longitude: 0))
            let nearby = NearbyPlace(name: "Hounslow", coordinate: placemark.location, distanceMetres: distance, bearingDegrees: bearing)
            placemark.nearestLocality = nearby
            for field in [PlacemarkField.distance, .bearing, .description] {
                buffer.removeAll()
                XCTAssertTrue(append(field, of: nearby, to: buffer))
                XCTAssertEqual(
                    String(decoding: buffer.bytes, as: UTF8.self), field.text(in: placemark), "\(field) at \(distance) m, \(bearing)°")
            }
        }
    }

    /// The compass point from the bearing's two numbers is the one its degrees give, wherever it answers: random
    /// directions, directions on and a hair off every boundary, the axes, signed zeros, tiny and non-finite numbers.
    func testCompassFromComponentsIsTheDegreesCompass() {
        func text(_ compass: PlacemarkText.CompassText) -> String {
            String(decoding: UnsafeBufferPointer(start: compass.start, count: compass.count), as: UTF8.self)
        }
        var pairs: [(Double, Double)] = []
        for _ in 0..<200_000 {
            let scale = pow(10, Double.random(in: -9...0))
            pairs.append((Double.random(in: -1...1) * scale, Double.random(in: -1...1) * scale))
        }
        for k in 0..<32 {
            let θ = (11.25 + 22.5 * Double(k / 2)) * .pi / 180
            for nudge in [0, 1e-13, -1e-13, 1e-9, -1e-9, 1e-8, -1e-8, 1e-6, -1e-6] {
                let scale = k % 2 == 0 ? 1 : 3e-7
                pairs.append((sin(θ + nudge) * scale, cos(θ + nudge) * scale))
            }
        }
        for a in [0.0, -0.0, 1, -1, 1e-310, -1e-310, .infinity, -.infinity, .nan, 0x1p-1000, 0x1p-1001] {
            for b in [0.0, -0.0, 1, -1, 1e-310, 0.5, -2, .infinity, .nan] { pairs.append((a, b)) }
        }
        var answered = 0
        for (east, north) in pairs {
            guard let fast = PlacemarkText.compassText(east: east, north: north) else { continue }
            answered += 1
            let degrees = GreatCircle.bearing(east: east, north: north)
            XCTAssertTrue(degrees.isFinite, "\(east), \(north)")
            XCTAssertEqual(text(fast), text(PlacemarkText.compassText(degrees)), "\(east), \(north): \(degrees)°")
        }
        // Nearly every direction is decided without the degrees.
        XCTAssertGreaterThan(answered, 199_000)
    }

    func testNonFiniteDistanceIsAbsentRatherThanACrash() {
        let nearby = NearbyPlace(
            name: "Nowhere", coordinate: Coordinate(latitude: 0, longitude: 0), distanceMetres: .nan, bearingDegrees: 0)
        XCTAssertFalse(append(.description, of: nearby, to: GrowableByteArray(capacity: 16)))
    }
}
