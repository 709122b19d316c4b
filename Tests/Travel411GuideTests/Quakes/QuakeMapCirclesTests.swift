import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Guide

/// The map's data side: the seed app's size and colour rule, drawing order, legend and extent.
final class QuakeMapCirclesTests: XCTestCase {
    func testTheLast300EventsGiveExactly300Circles() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        let last300 = QuakeSelection.select(feed.quakes, QuakeFilter(last: 300)).map(\.quake)
        let map = QuakeMapCircles(last300)
        XCTAssertEqual(map.circles.count, 300)
        XCTAssertEqual(map.withoutMagnitude, 0)
        XCTAssertEqual(Set(map.circles.compactMap(\.id)), Set(last300.compactMap(\.id)))
    }

    func testSizeAndColourFollowTheSeedsRule() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        let map = QuakeMapCircles(QuakeSelection.select(feed.quakes, QuakeFilter(last: 300)).map(\.quake))
        // Several events of different magnitudes, checked against the rule written out:
        // diameter = m² × 0.75 points; RGB (1, 1 − 0.015·m², 0.211) at 60 % opacity.
        var checked = Set<Double>()
        for circle in map.circles where checked.insert(circle.magnitude).inserted {
            let m = circle.magnitude
            XCTAssertEqual(circle.diameterPoints, m * m * 0.75, accuracy: 1e-12, "M \(m)")
            XCTAssertEqual(circle.colour.red, 1)
            XCTAssertEqual(circle.colour.green, 1 - 0.015 * m * m, accuracy: 1e-12, "M \(m)")
            XCTAssertEqual(circle.colour.blue, 0.211)
            XCTAssertEqual(circle.colour.opacity, 0.6)
        }
        XCTAssertGreaterThan(checked.count, 10)
        // Spot values: M 4.5 is 15.1875 points wide and green 0.69625; M 7.3 is 39.9675 points and green 0.20065.
        let m45 = try XCTUnwrap(map.circles.first { $0.magnitude == 4.5 })
        XCTAssertEqual(m45.diameterPoints, 15.1875, accuracy: 1e-9)
        XCTAssertEqual(m45.colour.green, 0.69625, accuracy: 1e-9)
        let m73 = try XCTUnwrap(map.circles.first { $0.magnitude == 7.3 })
        XCTAssertEqual(m73.diameterPoints, 39.9675, accuracy: 1e-9)
        XCTAssertEqual(m73.colour.green, 0.20065, accuracy: 1e-9)
        XCTAssertEqual(m45.colour.hex, "#ffb236")
    }

    func testLargerIsDarkerAndSmallOnesAreDrawnOnTop() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        let circles = QuakeMapCircles(feed.quakes).circles
        let diameters = circles.map(\.diameterPoints)
        XCTAssertEqual(diameters, diameters.sorted(by: >), "largest first, so the small ones are drawn over them")
        for (big, small) in zip(circles, circles.dropFirst()) where big.magnitude > small.magnitude {
            XCTAssertLessThan(big.colour.green, small.colour.green)
        }
    }

    func testCirclesOfGeocodedEventsAreTitledWithOurDescription() throws {
        let quake = try XCTUnwrap(try QuakeFixtures.geoJSONFeed().quakes.first)
        let item = GeocodedQuake(
            selected: SelectedQuake(quake: quake), placemark: Placemark(location: quake.coordinate),
            description: "41.9 km W of Samanente, Papua, Indonesia")
        XCTAssertEqual(
            QuakeMapCircles([item]).circles.map(\.title), ["M 5.2 · 2013-07-20 12:01:20 UTC · 41.9 km W of Samanente, Papua, Indonesia"])
        XCTAssertEqual(QuakeMapCircles([quake]).circles.map(\.title), ["M 5.2 · 2013-07-20 12:01:20 UTC · 234km W of Abepura, Indonesia"])
    }

    func testColoursStayInsideTheUnitRange() {
        XCTAssertEqual(QuakeCircleStyle.colour(magnitude: 9.5).green, 0)  // 1 − 0.015·90.25 < 0
        XCTAssertEqual(QuakeCircleStyle.colour(magnitude: -1.2).green, 1)  // microquakes count as 0
        XCTAssertEqual(QuakeCircleStyle.diameterPoints(magnitude: -1.2), QuakeCircleStyle.minimumDiameterPoints)
        XCTAssertEqual(QuakeCircleStyle.diameterPoints(magnitude: 0.5), QuakeCircleStyle.minimumDiameterPoints)
    }

    func testEventsWithoutMagnitudeAreCountedNotDrawn() {
        var quake = Quake(time: UTCTimestamp(millisecondsSince1970: 0), coordinate: Coordinate(latitude: 0, longitude: 0))
        let unknown = quake
        quake.magnitude = 3
        let map = QuakeMapCircles([unknown, quake])
        XCTAssertEqual(map.circles.count, 1)
        XCTAssertEqual(map.withoutMagnitude, 1)
    }

    func testTheLegendSpansTheMagnitudesShown() throws {
        let map = QuakeMapCircles(try QuakeFixtures.geoJSONFeed().quakes)  // M 4.5 to 7.3
        XCTAssertEqual(map.legend.map(\.label), ["M 4", "M 5", "M 6", "M 7", "M 8"])
        XCTAssertEqual(map.legend.first?.diameterPoints, 12)
        let wide = QuakeMapCircles(try QuakeFixtures.csvFeed().quakes).legend
        XCTAssertLessThanOrEqual(wide.count, 6)
    }

    // MARK: Extent

    func testAWorldwideFeedGetsTheWorldMap() throws {
        XCTAssertEqual(QuakeMapExtent.fitting(try QuakeFixtures.geoJSONFeed().quakes.map(\.coordinate)), .world)
        XCTAssertEqual(QuakeMapExtent.fitting(try QuakeFixtures.csvFeed().quakes.map(\.coordinate)), .world)
    }

    func testEventsAroundFijiAndTongaAreRegionalAcrossTheAntimeridian() throws {
        // Every event of the sample between Fiji and Tonga: longitudes from 178.6 to -172.6.
        let feed = try QuakeFixtures.geoJSONFeed()
        let pacific = feed.quakes.filter {
            ($0.coordinate.longitude > 178 || $0.coordinate.longitude < -172) && (-30 ... -14).contains($0.coordinate.latitude)
        }
        XCTAssertGreaterThan(pacific.count, 15)
        XCTAssertTrue(pacific.contains { $0.coordinate.longitude > 0 } && pacific.contains { $0.coordinate.longitude < 0 })
        guard case .regional(let region) = QuakeMapExtent.fitting(pacific.map(\.coordinate)) else {
            return XCTFail("Fiji and Tonga smeared over the world")
        }
        XCTAssertTrue(region.crossesAntimeridian)
        XCTAssertLessThan(region.longitudeDelta, 20)
        XCTAssertGreaterThan(abs(region.center.longitude), 175)
        for quake in pacific {
            let east = GreatCircle.normalizedLongitude(quake.coordinate.longitude - region.west)
            XCTAssertTrue((0...region.longitudeDelta).contains(east < 0 ? east + 360 : east), "\(quake.coordinate) outside the region")
            XCTAssertTrue((region.south...region.north).contains(quake.coordinate.latitude))
        }
    }

    func testEventsNearTokyoAreRegional() throws {
        let feed = try QuakeFixtures.geoJSONFeed()
        let near = QuakeSelection.select(
            feed.quakes, QuakeFilter(near: Coordinate(latitude: 35.68, longitude: 139.69), radiusMetres: 300_000))
        guard case .regional(let region) = QuakeMapExtent.fitting(near.map(\.quake.coordinate)) else {
            return XCTFail("six events near Tokyo need no world map")
        }
        XCTAssertFalse(region.crossesAntimeridian)
        XCTAssertTrue((135...145).contains(region.center.longitude))
        XCTAssertGreaterThanOrEqual(region.longitudeDelta, 2 * QuakeMapExtent.minimumMargin)
    }

    func testOneEventStillShowsItsSurroundings() {
        guard case .regional(let region) = QuakeMapExtent.fitting([Coordinate(latitude: 51.5, longitude: -0.1)]) else {
            return XCTFail("one event is regional")
        }
        XCTAssertEqual(region.latitudeDelta, 4, accuracy: 1e-9)
        XCTAssertEqual(region.longitudeDelta, 4, accuracy: 1e-9)
        XCTAssertEqual(QuakeMapExtent.fitting([]), .world)
    }
}
