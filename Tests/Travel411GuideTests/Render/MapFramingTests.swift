import Foundation
import Testing
import Travel411Core
import Travel411Geocoder

@testable import Travel411Guide

/// The default frame holds every pin, its ring, its title and callout, inside the edges with a margin;
/// the credits name each source once.
@Suite struct MapFramingTests {
    static let heathrow = Coordinate(latitude: 51.471184, longitude: -0.452542)
    static let london = Coordinate(latitude: 51.5073219, longitude: -0.1276474)

    static func destinationScene(extraPins: [ExtraPin], callouts: CalloutChoice = .none, me: Coordinate? = nil) throws -> MapScene {
        var map = DestinationMap(
            destination: Destination(id: 1, name: BookLondon.destinationName, airport: BookLondon.airport, city: BookLondon.city))
        map.extraPins = extraPins
        map.callouts = callouts
        map.me = me
        return try map.scene { _ in Placemark(location: london) }
    }

    /// Every marker's icon and every text the layout drew lies inside the output less the margin.
    static func expectEverythingInside(_ layout: MapLayout, _ scene: MapScene, sourceLocation: SourceLocation = #_sourceLocation) {
        let area = layout.viewport.bounds.insetBy(MapLayout.markerInset - 0.5)
        for (index, marker) in scene.markers.enumerated() {
            let icon = MapLayout.iconBox(marker.symbol, at: layout.markerPoints[index])
            #expect(area.contains(icon), "\(marker.title ?? "?") at \(icon)", sourceLocation: sourceLocation)
        }
        let titles = Set(scene.markers.compactMap(\.title))
        for case .text(let text, let point, let style) in layout.items where titles.contains(text) {
            let box = TextMeasure().box(text, at: point, style: style, padding: 0)
            #expect(layout.viewport.bounds.contains(box), "title \(text) at \(box)", sourceLocation: sourceLocation)
        }
        // Callouts keep their own, smaller margin: they slide up to it before anything moves.
        let calloutArea = layout.viewport.bounds.insetBy(MapLayout.calloutArea - 0.5)
        for box in layout.calloutBoxes { #expect(calloutArea.contains(box), "callout \(box)", sourceLocation: sourceLocation) }
    }

    struct Size: Sendable, CustomTestStringConvertible {
        var width: Double, height: Double
        var testDescription: String { "\(Int(width))x\(Int(height))" }
    }

    static let sizes = [
        Size(width: 1024, height: 768), Size(width: 640, height: 480), Size(width: 900, height: 200), Size(width: 300, height: 600),
    ]

    /// Five pins on one point near the City: before, the ring's east pin was drawn outside the map.
    @Test(arguments: sizes)
    func aRingOfCoincidentPinsAtTheEdgeIsInsideTheFrame(size: Size) throws {
        let pins = (1...5).map { ExtraPin(coordinate: Coordinate(latitude: 51.5, longitude: -0.12), title: "P\($0)") }
        let scene = try Self.destinationScene(extraPins: pins)
        let layout = MapLayout(scene: scene, width: size.width, height: size.height)
        #expect(layout.markerPoints.count == 7)
        Self.expectEverythingInside(layout, scene)
    }

    @Test(arguments: sizes)
    func theCitysCalloutAndYourDotAreInsideTheFrame(size: Size) throws {
        let scene = try Self.destinationScene(extraPins: [], callouts: .all, me: Coordinate(latitude: 51.49, longitude: -0.3))
        let layout = MapLayout(scene: scene, width: size.width, height: size.height)
        Self.expectEverythingInside(layout, scene)
        // The fit leaves the callouts inside the frame; only on a low map do they move, to clear the furniture.
        if size.height >= 480 { #expect(layout.calloutShift.dx == 0 && layout.calloutShift.dy == 0) }
        #expect(layout.problems.isEmpty, "\(layout.problems)")
        let me = layout.viewport.project(try #require(scene.me))
        #expect(layout.viewport.bounds.insetBy(MapLayout.markerInset - 7.5).contains(me))
    }

    /// A region the user gave is kept: the layout does not zoom out for the pins.
    @Test func aRegionOfTheUsersOwnIsKept() throws {
        var map = DestinationMap(
            destination: Destination(id: 1, name: BookLondon.destinationName, airport: BookLondon.airport, city: BookLondon.city))
        map.region = MapRegion(center: Self.london, latitudeDelta: 0.01, longitudeDelta: 0.01)
        let scene = try map.scene { _ in nil }
        #expect(!scene.fitsMarkers)
        let layout = MapLayout(scene: scene, width: 800, height: 600)
        let fitted = MapViewport.fitting(try #require(map.region), width: 800, height: 600, margin: MapLayout.margin)
        #expect(layout.viewport == fitted)
    }

    @Test func eachSourceIsCreditedOnce() {
        let lines = [
            "GeoNames, geonames.org", "Contains National Statistics data © Crown copyright and database right",
            "Made with Natural Earth.", "Made with Natural Earth; © OpenStreetMap contributors; Elastic Maps Service",
            "© OpenStreetMap contributors",
        ]
        #expect(
            MapLayout.credits(lines) == [
                "GeoNames, geonames.org", "Contains National Statistics data © Crown copyright and database right",
                "Made with Natural Earth", "© OpenStreetMap contributors", "Elastic Maps Service",
            ])
    }
}
