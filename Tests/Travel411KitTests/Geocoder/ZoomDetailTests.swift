import Foundation
import Testing
import Travel411TestSupport

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder

/// `where --zoom`: Nominatim's zoom chooses how fine the answer is, on the default database. 77 Wells Street
/// (Fitzrovia, London) has every level from the house to the country.
@Suite struct ZoomDetailTests {
    static let wellsStreet = Coordinate(latitude: 51.51651, longitude: -0.13739)

    static func placemark(zoom: Int) throws -> Placemark {
        var settings = GeocoderSettings()
        settings.detail = NominatimDetail(zoom: zoom)
        return try ReverseGeocoder(databasePath: TestPlaces.databasePath, settings: settings).placemark(for: wellsStreet)
    }

    @Test func eighteenIsTheHouse() throws {
        let house = try Self.placemark(zoom: 18)
        #expect(house.name == "77 Wells Street")
        #expect(house.postalCode == "W1T 3QJ")
    }

    @Test func seventeenIsTheStreetWithItsPostcode() throws {
        let street = try Self.placemark(zoom: 17)
        #expect(street.subThoroughfare == nil)
        #expect(street.thoroughfare == "Wells Street")
        #expect(street.postalCode == "W1T 3QJ")
        #expect(street.name == "Wells Street")
    }

    @Test func tenIsTheCity() throws {
        let city = try Self.placemark(zoom: 10)
        #expect(city.thoroughfare == nil)
        #expect(city.postalCode == nil)
        #expect(city.subLocality == nil)
        #expect(city.locality == "London")
        #expect(city.name == "London")
        #expect(city.administrativeArea == "England")
    }

    @Test func threeIsTheCountry() throws {
        let country = try Self.placemark(zoom: 3)
        #expect(country.locality == nil)
        #expect(country.administrativeArea == nil)
        #expect(country.subAdministrativeArea == nil)
        #expect(country.name == "United Kingdom")
        #expect(country.isoCountryCode == "GB")
        // What no zoom cuts: the time zone, the nearest place.
        #expect(country.timeZone == "Europe/London")
    }
}
