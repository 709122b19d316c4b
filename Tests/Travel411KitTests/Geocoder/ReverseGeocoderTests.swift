import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Store

/// Real answers from the real places database (Data/ imported once, `TestPlaces`): what a user of
/// `travel411 where` gets for well-known places, at sea, on lakes, across the antimeridian and in enclaves.
final class ReverseGeocoderTests: XCTestCase {
    private func placemark(_ latitude: Double, _ longitude: Double) -> Placemark {
        TestPlaces.geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
    }

    // MARK: London, street level

    func testHeathrow() throws {
        let heathrow = placemark(51.47, -0.45)
        XCTAssertEqual(heathrow.isoCountryCode, "GB")
        XCTAssertEqual(heathrow.country, "United Kingdom")
        XCTAssertEqual(heathrow.administrativeArea, "England")
        XCTAssertTrue(
            ["Hillingdon", "Greater London"].contains(heathrow.subAdministrativeArea ?? ""), "\(heathrow.subAdministrativeArea ?? "nil")")
        XCTAssertEqual(heathrow.locality, "London")
        // The nearest locality is Stanwell (Surrey, over the county line). No place's core disc (3,000
        // people per km², at least 1 km) holds the runways, so there is no subLocality: Cranford
        // (12,330 people, core 1.1 km) is further away than that.
        XCTAssertEqual(heathrow.nearestLocality?.name, "Stanwell")
        XCTAssertNil(heathrow.subLocality)
        let cranford = try SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)
            .query("SELECT latitude, longitude FROM travel411_localities WHERE name = 'Cranford' AND cc = 'GB'")
            .compactMap { row in row[0].doubleValue.flatMap { lat in row[1].doubleValue.map { Coordinate(latitude: lat, longitude: $0) } } }
            .map { GreatCircle.distance(from: $0, to: Coordinate(latitude: 51.47, longitude: -0.45)) }.min()
        XCTAssertLessThanOrEqual(try XCTUnwrap(cranford), 5000)
        XCTAssertTrue(heathrow.timeZone?.contains("Europe/London") == true, "\(heathrow.timeZone ?? "nil")")
        XCTAssertTrue(heathrow.postalCode?.hasPrefix("TW6") == true, "\(heathrow.postalCode ?? "nil")")
        XCTAssertNil(heathrow.ocean)
    }

    func testKingsway() {
        XCTAssertEqual(placemark(51.5174, -0.1200).thoroughfare, "Kingsway")
    }

    func testBoroughHighStreet() {
        XCTAssertEqual(placemark(51.5010, -0.0935).thoroughfare, "Borough High Street")
    }

    func testAHouseInWellsStreet() {
        let house = placemark(51.51651, -0.13739)
        XCTAssertEqual(house.subThoroughfare, "77")
        XCTAssertEqual(house.thoroughfare, "Wells Street")
        XCTAssertEqual(house.postalCode, "W1T 3QJ")
        XCTAssertEqual(house.name, "77 Wells Street")
    }

    // MARK: Sea and lakes

    func testTheMiddleOfTheNorthAtlantic() {
        let sea = placemark(40, -40)
        XCTAssertTrue(sea.ocean?.contains("North Atlantic") == true, "\(sea.ocean ?? "nil")")
        XCTAssertNil(sea.country)
        XCTAssertNil(sea.isoCountryCode)
        XCTAssertNil(sea.locality)
        XCTAssertNotNil(sea.nearestLocality, "even at sea there is a nearest place to say how far off it is")
    }

    func testLakesAreInlandWater() {
        XCTAssertEqual(placemark(46.45, 6.55).inlandWater, "Lake Geneva")
        XCTAssertEqual(placemark(-1.0, 33.0).inlandWater, "Lake Victoria")
        XCTAssertNil(placemark(46.45, 6.55).ocean)
    }

    // MARK: First-level areas

    /// The localities' own admin1 names (GeoNames, in English) where they agree: Bavaria, not the polygon's Bayern.
    func testFirstLevelAreasByTheirLocalitiesNames() {
        XCTAssertEqual(placemark(48.8566, 2.3522).administrativeArea, "Île-de-France")
        XCTAssertEqual(placemark(48.137, 11.575).administrativeArea, "Bavaria")
        XCTAssertEqual(placemark(34.05, -118.25).administrativeArea, "California")
    }

    // MARK: Awkward geometry

    /// Taveuni straddles 180°: Natural Earth cuts it into a part ending at +180 and one starting at −180.
    func testTaveuniIsFijiOnBothSidesOfTheAntimeridian() {
        for longitude in [179.99, 180, -180, -179.95] {
            let point = placemark(-16.85, longitude)
            XCTAssertEqual(point.country, "Fiji", "longitude \(longitude)")
            XCTAssertEqual(point.isoCountryCode, "FJ", "longitude \(longitude)")
            XCTAssertEqual(point.timeZone, "Pacific/Fiji", "longitude \(longitude)")
        }
    }

    /// Lesotho is a hole in South Africa's polygon.
    func testLesothoIsNotSouthAfrica() {
        XCTAssertEqual(placemark(-29.5, 28.2).country, "Lesotho")
        XCTAssertEqual(placemark(-29.5, 28.2).isoCountryCode, "LS")
        XCTAssertEqual(placemark(-29.12, 26.21).isoCountryCode, "ZA", "Bloemfontein, just west of Lesotho")
    }

    // MARK: Loading

    /// Loading tiles on demand must not change a single answer. Points: uniform on the sphere, the
    /// edges of the 1° cells and of the world, and dense ones where the street, address and postcode
    /// levels have data (London, Rutland, Helsinki), since random points worldwide almost never reach them.
    func testOnDemandAndEverythingLoadingGiveIdenticalPlacemarks() throws {
        let onDemand = try ReverseGeocoder(databasePath: TestPlaces.databasePath, loading: .onDemand)
        var random = SplitMix64(seed: 0x7261_7641_1411)
        var points: [Coordinate] = (0..<2000).map { _ in
            let latitude = asin(2 * Double.random(in: 0...1, using: &random) - 1) * 180 / .pi
            return Coordinate(latitude: latitude, longitude: Double.random(in: -180...180, using: &random))
        }
        points += (0..<200).map { _ in
            Coordinate(
                latitude: Double(Int.random(in: -60...75, using: &random)), longitude: Double(Int.random(in: -180...180, using: &random)))
        }
        points += [(90, 0), (-90, 0), (0, 180), (0, -180), (89.999, 179.999), (-89.999, -179.999)].map {
            Coordinate(latitude: $0.0, longitude: $0.1)
        }
        for (south, west, north, east) in [(51.49, -0.16, 51.53, -0.08), (52.52, -0.80, 52.77, -0.42), (60.14, 24.90, 60.20, 25.00)] {
            points += (0..<200).map { _ in
                Coordinate(
                    latitude: Double.random(in: south...north, using: &random), longitude: Double.random(in: west...east, using: &random))
            }
        }
        var differences: [String] = []
        for point in points {
            let lazy = onDemand.placemark(for: point), loaded = TestPlaces.geocoder.placemark(for: point)
            if lazy != loaded { differences.append("\(point): on demand \(lazy), loaded \(loaded)") }
        }
        XCTAssertEqual(differences.count, 0, differences.prefix(5).joined(separator: "\n"))

        // The dense points did reach the street-level data, so the comparison covered it.
        let dense = points.suffix(600).map(TestPlaces.geocoder.placemark(for:))
        XCTAssertGreaterThan(dense.filter { $0.thoroughfare != nil }.count, 50)
        XCTAssertGreaterThan(dense.filter { $0.subThoroughfare != nil }.count, 0)
        XCTAssertGreaterThan(dense.filter { $0.postalCode != nil }.count, 100)
    }
}
