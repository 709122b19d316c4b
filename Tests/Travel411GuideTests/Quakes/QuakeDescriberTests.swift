import Travel411Geocoder
import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Guide

/// Our description of epicentres, from the real places database.
final class QuakeDescriberTests: XCTestCase {
    func describer() -> QuakeDescriber { QuakeDescriber(geocoder: TestPlaces.geocoder) }

    func quake(_ latitude: Double, _ longitude: Double) -> SelectedQuake {
        SelectedQuake(
            quake: Quake(time: UTCTimestamp(millisecondsSince1970: 0), coordinate: Coordinate(latitude: latitude, longitude: longitude)))
    }

    func testOnLandTheTownsRegionAndCountryFollowIt() {
        // 4.5_month: "2km SSE of Yotsukaido, Japan".
        let item = describer().geocode(quake(35.6317, 140.1773))
        XCTAssertEqual(item.description, "2.3 km SSE of Yotsukaidō, Chiba, Japan")
        XCTAssertEqual(item.placemark.country, "Japan")
        XCTAssertEqual(item.placemark.nearestLocality?.name, "Yotsukaidō")
    }

    func testJustOffshoreTheTownsRegionIsStillNamed() {
        // 4.5_month: "103km ENE of Hasaki, Japan", in the Pacific: the description names Hasaki's prefecture.
        let item = describer().geocode(quake(36.2465, 141.7928))
        XCTAssertNil(item.placemark.country)
        XCTAssertNotNil(item.placemark.ocean)
        XCTAssertEqual(item.description, "103 km ENE of Hasaki, Chiba, Japan")
    }

    func testFarOutAtSeaTheOceanComesFirst() {
        // 4.5_month: "202km SE of Raoul Island, New Zealand".
        let item = describer().geocode(quake(-30.3856, -176.2439))
        XCTAssertEqual(item.placemark.ocean, "South Pacific Ocean")
        XCTAssertTrue(item.description.hasPrefix("South Pacific Ocean, "), item.description)
        XCTAssertTrue(item.description.hasSuffix("New Zealand"), item.description)
    }

    func testTheWholeSampleFeedIsDescribed() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        let items = describer().geocode(feed.quakes.map { SelectedQuake(quake: $0) })
        XCTAssertEqual(items.count, 314)
        XCTAssertTrue(items.allSatisfy { !$0.description.isEmpty && $0.description != "unknown" })
        // USGS's country and ours agree for most events on land: both name the nearest town's country.
        let agreeing = items.filter { item in
            guard let country = item.placemark.country, let place = item.quake.place else { return false }
            return place.hasSuffix(country) && item.description.hasSuffix(country)
        }
        XCTAssertGreaterThan(agreeing.count, 50)
    }
}
