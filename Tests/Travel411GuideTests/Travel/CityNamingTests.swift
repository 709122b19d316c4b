import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Guide

final class CityNamingTests: XCTestCase {
    private func placemark(
        subLocality: String? = nil, locality: String? = nil, administrativeArea: String? = nil,
        country: String? = nil, ocean: String? = nil
    ) -> Placemark {
        var placemark = Placemark(location: Coordinate(latitude: 51.501, longitude: -0.1919))
        placemark.subLocality = subLocality
        placemark.locality = locality
        placemark.administrativeArea = administrativeArea
        placemark.country = country
        placemark.ocean = ocean
        return placemark
    }

    func testTheMostSpecificNameWins() {
        XCTAssertEqual(
            CityNaming.cityName(from: placemark(subLocality: "Kensington", locality: "London", administrativeArea: "England")), "Kensington"
        )
        XCTAssertEqual(CityNaming.cityName(from: placemark(locality: "London", administrativeArea: "England")), "London")
        XCTAssertEqual(CityNaming.cityName(from: placemark(administrativeArea: "Northern")), "Northern")
    }

    func testBlankNamesCountAsMissing() {
        XCTAssertEqual(CityNaming.cityName(from: placemark(subLocality: "  ", locality: "London")), "London")
    }

    func testNoNameAtSea() {
        XCTAssertNil(CityNaming.cityName(from: placemark(country: nil, ocean: "North Sea")))
    }

    func testSubtitleJoinsDistinctParts() {
        let subtitle = CityNaming.subtitle(
            from: placemark(subLocality: "Kensington", locality: "London", administrativeArea: "London", country: "United Kingdom"))
        XCTAssertEqual(subtitle, "Kensington, London, United Kingdom")
        XCTAssertEqual(CityNaming.subtitle(from: placemark(ocean: "North Sea")), "North Sea")
        XCTAssertNil(CityNaming.subtitle(from: placemark()))
    }
}
