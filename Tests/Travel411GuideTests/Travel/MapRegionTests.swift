import XCTest

@testable import Travel411Core
@testable import Travel411Guide

final class MapRegionTests: XCTestCase {
    let heathrow = Coordinate(latitude: 51.471184, longitude: -0.452542)
    let london = Coordinate(latitude: 51.500153, longitude: -0.126236)

    func testTheBooksLondonRegionIsTheExtentPlusPadding() throws {
        let region = try XCTUnwrap(MapRegion.fitting([heathrow, london]))
        XCTAssertEqual(region.center.latitude, (51.471184 + 51.500153) / 2, accuracy: 1e-9)
        XCTAssertEqual(region.center.longitude, (-0.452542 + -0.126236) / 2, accuracy: 1e-9)
        XCTAssertEqual(region.latitudeDelta, 51.500153 - 51.471184 + 0.005, accuracy: 1e-9)
        XCTAssertEqual(region.longitudeDelta, 0.452542 - 0.126236 + 0.005, accuracy: 1e-9)
        XCTAssertFalse(region.crossesAntimeridian)
    }

    func testASinglePinGetsTheMinimumSpan() throws {
        let region = try XCTUnwrap(MapRegion.fitting([london]))
        XCTAssertEqual(region.center, london)
        XCTAssertEqual(region.latitudeDelta, MapRegion.minimumSpan)
        XCTAssertEqual(region.longitudeDelta, MapRegion.minimumSpan)
    }

    func testPinsCloserThanTheMinimumGetTheMinimum() throws {
        let nearby = Coordinate(latitude: london.latitude + 0.001, longitude: london.longitude + 0.002)
        let region = try XCTUnwrap(MapRegion.fitting([london, nearby]))
        XCTAssertEqual(region.latitudeDelta, 0.01)
        XCTAssertEqual(region.longitudeDelta, 0.01)
    }

    func testNoPinsGiveNoRegion() {
        XCTAssertNil(MapRegion.fitting([]))
    }

    /// Matei (Taveuni) is just east of the antimeridian, Suva just west of it: the region must be
    /// the 1.7° between them, not the 358° the book's fabs() version gives.
    func testFijiAcrossTheAntimeridianIsNarrow() throws {
        let matei = Coordinate(latitude: -16.6906, longitude: -179.877)
        let suva = Coordinate(latitude: -18.14161, longitude: 178.44149)
        let region = try XCTUnwrap(MapRegion.fitting([matei, suva]))
        XCTAssertLessThan(region.longitudeDelta, 2)
        XCTAssertEqual(region.longitudeDelta, 360 - (178.44149 + 179.877) + 0.005, accuracy: 1e-9)
        XCTAssertEqual(region.center.longitude, 179.282245, accuracy: 1e-6)
        XCTAssertGreaterThan(abs(region.center.longitude), 179)
        XCTAssertTrue(region.crossesAntimeridian)
        XCTAssertGreaterThan(region.west, region.east, "the west edge lies east of the east edge in plain numbers")
        XCTAssertEqual(region.west, 178.44149 - 0.0025, accuracy: 1e-9)
        XCTAssertEqual(region.east, -179.877 + 0.0025, accuracy: 1e-9)
        // Order does not matter.
        XCTAssertEqual(MapRegion.fitting([suva, matei]), region)
    }

    func testCentreWhenMostPinsAreEastOfTheAntimeridian() throws {
        let region = try XCTUnwrap(
            MapRegion.fitting([
                Coordinate(latitude: 0, longitude: 179), Coordinate(latitude: 0, longitude: -178),
                Coordinate(latitude: 0, longitude: -179.5),
            ]))
        XCTAssertEqual(region.longitudeDelta, 3.005, accuracy: 1e-9)
        XCTAssertEqual(region.center.longitude, -179.5, accuracy: 1e-9)
        XCTAssertGreaterThanOrEqual(region.center.longitude, -180)
        XCTAssertLessThan(region.center.longitude, 180)
    }

    func testPinsSpreadRoundTheWorldTakeTheNarrowestArc() throws {
        // Gaps: 100 (-170→-70), 80 (-70→10), 120 (10→130), 60 (130→190): skip the 120° gap.
        let longitudes = [-170.0, -70, 10, 130]
        let arc = try XCTUnwrap(LongitudeArc.smallest(containing: longitudes))
        XCTAssertEqual(arc.west, 130)
        XCTAssertEqual(arc.width, 240, accuracy: 1e-9)
        let region = try XCTUnwrap(MapRegion.fitting(longitudes.map { Coordinate(latitude: 10, longitude: $0) }))
        XCTAssertEqual(region.center.longitude, -110, accuracy: 1e-9)
    }

    func testSpansNeverExceedTheWorld() throws {
        let region = try XCTUnwrap(
            MapRegion.fitting([
                Coordinate(latitude: -90, longitude: -180), Coordinate(latitude: 90, longitude: 0),
                Coordinate(latitude: 0, longitude: 90), Coordinate(latitude: 0, longitude: -90),
            ]))
        XCTAssertEqual(region.latitudeDelta, 180)
        XCTAssertLessThanOrEqual(region.longitudeDelta, 360)
        XCTAssertEqual(region.south, -90)
        XCTAssertEqual(region.north, 90)
    }

    func testLongitude180AndMinus180AreTheSameMeridian() throws {
        let region = try XCTUnwrap(MapRegion.fitting([Coordinate(latitude: 0, longitude: 180), Coordinate(latitude: 0, longitude: -180)]))
        XCTAssertEqual(region.longitudeDelta, MapRegion.minimumSpan)
        XCTAssertEqual(region.center.longitude, -180)
    }
}
