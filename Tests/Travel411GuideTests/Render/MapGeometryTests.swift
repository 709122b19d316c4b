import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Guide

/// The numbers behind the map: the ring of coincident pins, the off-screen arrow, the callout shift
/// and the projection across the antimeridian.
final class MapGeometryTests: XCTestCase {
    let london = Coordinate(latitude: 51.500153, longitude: -0.126236)

    // MARK: Ring of coincident pins

    func testRingsOf2_3_8And30PinsHaveEqualAnglesAndARadiusGrowingWithTheCount() {
        let step = 12.0
        var previousRadius = 0.0
        for count in [2, 3, 8, 30] {
            let ring = CoincidentPins.ring(around: london, count: count, stepMetres: step)
            XCTAssertEqual(ring.count, count)
            let radius = CoincidentPins.radius(count: count, stepMetres: step)
            XCTAssertEqual(radius, Double(count) * step, "the radius is linear in the count")
            XCTAssertGreaterThan(radius, previousRadius)
            previousRadius = radius
            for (index, pin) in ring.enumerated() {
                // Every pin on the ring…
                XCTAssertEqual(GreatCircle.distance(from: london, to: pin), radius, accuracy: radius * 1e-6, "pin \(index) of \(count)")
                // …at 360°/N steps from north.
                let expected = 360 * Double(index) / Double(count)
                let bearing = GreatCircle.initialBearing(from: london, to: pin)
                let difference = abs(GreatCircle.normalizedLongitude(bearing - expected))
                XCTAssertLessThan(difference, 1e-6, "pin \(index) of \(count): bearing \(bearing), expected \(expected)")
            }
        }
    }

    func testTheRingStepClearsThePinIconsAtTheMapsScaleAndNeverFallsBelowTheSeeds() {
        XCTAssertEqual(CoincidentPins.stepMetres(metresPerPixel: 0.01, pixelStep: 10), CoincidentPins.seedStepMetres)
        XCTAssertEqual(CoincidentPins.stepMetres(metresPerPixel: 20, pixelStep: 10), 200)
    }

    func testPinsWithinAFewPixelsAreGroupedAndDistantOnesAreNot() {
        let points = [ScreenPoint(x: 100, y: 100), ScreenPoint(x: 300, y: 300), ScreenPoint(x: 104, y: 101), ScreenPoint(x: 110, y: 103)]
        XCTAssertEqual(CoincidentPins.groups(points, threshold: 8), [[0, 2, 3], [1]])
    }

    func testTwelveCoincidentPinsAreDrawnOnARingThatClearsTheirIcons() throws {
        let markers = (0..<12).map { MapMarker(coordinate: london, title: "Pin \($0)", colour: .pinPurple) }
        let region = try XCTUnwrap(MapRegion.fitting([london]))
        let layout = MapLayout(scene: MapScene(region: region, markers: markers), width: 800, height: 600)
        let centre = layout.truePoints[0]
        let distances = layout.markerPoints.map { hypot($0.x - centre.x, $0.y - centre.y) }
        for distance in distances { XCTAssertEqual(distance, distances[0], accuracy: 0.5) }
        // Neighbours on the ring are further apart than a pin head is wide.
        for (a, b) in zip(layout.markerPoints, layout.markerPoints.dropFirst() + [layout.markerPoints[0]]) {
            XCTAssertGreaterThan(hypot(a.x - b.x, a.y - b.y), 2 * MapStyle.pinHeadRadius)
        }
    }

    // MARK: Off-screen arrow

    func testTheArrowStaysInsideTheInsetAndPointsAtTheTargetInAllEightDirections() throws {
        let inset = ScreenRect(minX: 30, minY: 30, maxX: 770, maxY: 570)
        let centre = ScreenPoint(x: 400, y: 300)
        for step in 0..<8 {
            let angle = Double(step) * .pi / 4
            let target = ScreenPoint(x: centre.x + cos(angle) * 5000, y: centre.y + sin(angle) * 3000)
            let arrow = try XCTUnwrap(OffscreenIndicator.pointing(from: centre, to: target, inset: inset), "direction \(step)")
            XCTAssertTrue(inset.contains(arrow.tip, tolerance: 1e-9), "tip \(arrow.tip) of direction \(step) leaves the inset")
            XCTAssertTrue(inset.insetBy(-1e-9).contains(ScreenGeometry.bounds([arrow.tip])))
            // On the line from the centre to the target, on the target's side.
            let (tx, ty) = (arrow.tip.x - centre.x, arrow.tip.y - centre.y), (dx, dy) = (target.x - centre.x, target.y - centre.y)
            XCTAssertEqual(tx * dy - ty * dx, 0, accuracy: 1e-6 * hypot(dx, dy) * hypot(tx, ty))
            XCTAssertGreaterThan(tx * dx + ty * dy, 0)
            XCTAssertEqual(arrow.angle, atan2(dy, dx), accuracy: 1e-12)
            // And it reaches the inset's edge.
            let onEdge =
                [
                    abs(arrow.tip.x - inset.minX), abs(arrow.tip.x - inset.maxX), abs(arrow.tip.y - inset.minY),
                    abs(arrow.tip.y - inset.maxY),
                ].min() ?? 1
            XCTAssertLessThan(onEdge, 1e-9)
        }
        XCTAssertNil(OffscreenIndicator.pointing(from: centre, to: ScreenPoint(x: 500, y: 200), inset: inset), "in view: no arrow")
    }

    func testTheArrowPointsTheShortWayAcrossTheAntimeridian() throws {
        // Fiji's region is centred near 179.27°; a location at -170° is east of it, not 350° west.
        let viewport = MapViewport(width: 800, height: 600, centre: Coordinate(latitude: -17.4, longitude: 179.27), pixelsPerDegree: 300)
        let target = viewport.project(Coordinate(latitude: -17.4, longitude: -170))
        XCTAssertGreaterThan(target.x, viewport.width)
        let arrow = try XCTUnwrap(OffscreenIndicator.pointing(from: viewport.centrePoint, to: target, inset: viewport.bounds.insetBy(30)))
        XCTAssertEqual(arrow.tip.x, 770, accuracy: 1e-9)
        XCTAssertEqual(arrow.angle, 0, accuracy: 1e-3)
        let west = viewport.project(Coordinate(latitude: -17.4, longitude: 170))
        let westArrow = try XCTUnwrap(OffscreenIndicator.pointing(from: viewport.centrePoint, to: west, inset: viewport.bounds.insetBy(30)))
        XCTAssertEqual(abs(westArrow.angle), .pi, accuracy: 1e-3)
    }

    func testTheLayoutDrawsTheArrowWhenMeIsOutOfViewAndTheDotWhenInView() throws {
        let region = try XCTUnwrap(MapRegion.fitting([london, Coordinate(latitude: 51.471184, longitude: -0.452542)]))
        let far = MapLayout(scene: MapScene(region: region, me: Coordinate(latitude: 48.8566, longitude: 2.3522)), width: 800, height: 600)
        let arrow = try XCTUnwrap(far.offscreen)
        XCTAssertTrue(far.viewport.bounds.insetBy(MapLayout.arrowInset).contains(arrow.tip, tolerance: 1e-9))
        XCTAssertGreaterThan(arrow.angle, 0, "Paris is south-east of London: the arrow points down and right")
        XCTAssertLessThan(arrow.angle, .pi / 2)
        let near = MapLayout(scene: MapScene(region: region, me: Coordinate(latitude: 51.49, longitude: -0.3)), width: 800, height: 600)
        XCTAssertNil(near.offscreen)
    }

    // MARK: Callouts

    func testACityPinAtTheRegionsEdgeShiftsTheRegionSoThatTheWholeCalloutFits() throws {
        let airport = Coordinate(latitude: 51.471184, longitude: -0.452542)
        let region = try XCTUnwrap(MapRegion.fitting([airport, london]))
        let markers = [
            MapMarker(coordinate: airport, title: "London Heathrow Airport", colour: .airportGreen),
            MapMarker(
                coordinate: london, title: "London", colour: .cityRed,
                calloutLines: ["City of Westminster, London, SW1A 2JR", "Westminster, England, United Kingdom", "12.3 km from you"]),
        ]
        // A wide, low map: the City pin (the region's northern edge) has no room above it for the callout.
        let layout = MapLayout(scene: MapScene(region: region, markers: markers, callouts: [1]), width: 900, height: 200)
        XCTAssertGreaterThan(layout.calloutShift.dy, 0, "the map moves down to make room above the pin")
        let box = try XCTUnwrap(layout.calloutBoxes.first)
        XCTAssertTrue(layout.viewport.bounds.contains(box), "callout \(box) still clipped")
        // Just enough: the box's top sits on the margin the fit keeps.
        XCTAssertEqual(box.minY, MapLayout.calloutArea, accuracy: 0.5)
        // Without the callout the same map does not move.
        let plain = MapLayout(scene: MapScene(region: region, markers: markers), width: 900, height: 200)
        XCTAssertEqual(plain.calloutShift.dx, 0)
        XCTAssertEqual(plain.calloutShift.dy, 0)
    }

    func testCalloutFitMovesJustEnoughOnEachAxis() {
        let area = ScreenRect(minX: 0, minY: 0, maxX: 100, maxY: 100)
        XCTAssertTrue(CalloutFit.shift(for: [ScreenRect(x: -10, y: 20, width: 30, height: 30)], within: area) == (10, 0))
        XCTAssertTrue(CalloutFit.shift(for: [ScreenRect(x: 80, y: -5, width: 30, height: 30)], within: area) == (-10, 5))
        XCTAssertTrue(CalloutFit.shift(for: [ScreenRect(x: 10, y: 10, width: 30, height: 30)], within: area) == (0, 0))
    }

    // MARK: Projection

    func testFijiIsOneCompactMapAcrossTheAntimeridian() throws {
        let taveuni = Coordinate(latitude: -16.6906, longitude: -179.877), suva = Coordinate(latitude: -18.13683, longitude: 178.42531)
        let region = try XCTUnwrap(MapRegion.fitting([taveuni, suva]))
        let viewport = MapViewport.fitting(region, width: 1024, height: 768, margin: MapLayout.margin)
        let a = viewport.project(taveuni), b = viewport.project(suva)
        for point in [a, b] { XCTAssertTrue(viewport.bounds.insetBy(MapLayout.margin - 0.5).contains(point), "\(point) out of view") }
        XCTAssertGreaterThan(a.x, b.x, "Taveuni is east of Suva")
        XCTAssertLessThan(viewport.longitudeSpan, 5)
        // A ring crossing ±180° stays in one piece.
        let ring = viewport.project(lonLat: [Point2D(x: 179.9, y: -17), Point2D(x: -179.9, y: -17)])
        XCTAssertEqual(ring[1].x - ring[0].x, 0.2 * viewport.pixelsPerDegree, accuracy: 1e-6)
    }

    func testProjectionMatchesTheWebMercatorFormulaAndInvertsExactly() {
        let viewport = MapViewport(width: 1000, height: 500, centre: Coordinate(latitude: 0, longitude: 0), pixelsPerDegree: 2)
        let point = viewport.project(Coordinate(latitude: 60, longitude: 90))
        XCTAssertEqual(point.x, 500 + 180, accuracy: 1e-9)
        let y = log(tan(Double.pi / 4 + 60 * Double.pi / 360)) * 180 / Double.pi
        XCTAssertEqual(point.y, 250 - 2 * y, accuracy: 1e-9)
        let back = viewport.coordinate(at: point)
        XCTAssertEqual(back.latitude, 60, accuracy: 1e-9)
        XCTAssertEqual(back.longitude, 90, accuracy: 1e-9)
    }

    func testTheScaleBarIsARoundNumberOfMetres() {
        XCTAssertEqual(MapLayout.scaleBarMetres(metresPerPixel: 20, maximumPixels: 120), 2000)
        XCTAssertEqual(MapLayout.scaleBarMetres(metresPerPixel: 1, maximumPixels: 120), 100)
        XCTAssertEqual(MapLayout.scaleBarMetres(metresPerPixel: 5000, maximumPixels: 120), 500_000)
    }
}
