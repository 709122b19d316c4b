import Foundation
import Testing
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411StoreWriters

@testable import Travel411Guide

/// The picture rules, checked on the geometry of the drawn items (`MapLayout.placed`): nothing overlaps
/// anything and nothing is cut by the frame; the legend gives way to a callout; events are drawn where
/// they happened and spread only when they would cover each other; the monitored region is drawn with
/// its centre and name; every distance says from where to where; the track widens as the map closes in.
@Suite struct MapLayoutRulesTests {
    static let bled = DestinationCity(name: "Bled", coordinate: Coordinate(latitude: 46.36917, longitude: 14.11361))
    static let ljubljanaAirport = Airport(
        icao: "LJLJ", iata: "LJU", name: "Ljubljana Joze Pucnik Airport", city: "Ljubljana", subdivision: "Cerklje na Gorenjskem",
        countryCode: "SI", elevationFeet: 1273, coordinate: Coordinate(latitude: 46.2237, longitude: 14.4576), timeZone: "Europe/Ljubljana",
        localIdentifier: nil)
    static let ljubljana = Coordinate(latitude: 46.0514, longitude: 14.5060)
    /// Where the walk of Tests/Fixtures/tracks/gpx/gpxpy/cerknicko-jezero.gpx enters and leaves a 150 m region
    /// around 45.7693, 14.3592 (as `travel411 track --region Cerknica=45.7693,14.3592,150` prints them).
    static let cerknicaEvents = [
        (Coordinate(latitude: 45.768351, longitude: 14.359758), "enter Cerknica 15:00 UTC"),
        (Coordinate(latitude: 45.771128, longitude: 14.35829), "exit Cerknica 15:04 UTC"),
        (Coordinate(latitude: 45.769591, longitude: 14.359094), "enter Cerknica 15:12 UTC"),
        (Coordinate(latitude: 45.766938, longitude: 14.360558), "exit Cerknica 15:13 UTC"),
    ]
    static let cerknica = MonitoredRegion(name: "Cerknica", center: Coordinate(latitude: 45.7693, longitude: 14.3592), radiusMetres: 150)

    static func bledMap() -> DestinationMap {
        DestinationMap(destination: Destination(id: 1, name: "Bled", airport: ljubljanaAirport, city: bled))
    }

    static func expectClean(_ layout: MapLayout, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(layout.problems.isEmpty, "\(layout.problems.joined(separator: "\n"))", sourceLocation: sourceLocation)
        #expect(layout.omitted.isEmpty, "left out: \(layout.omitted)", sourceLocation: sourceLocation)
    }

    // MARK: The check itself

    @Test func theCheckFindsOverlapsAndItemsCutByTheFrame() {
        let frame = ScreenRect(minX: 0, minY: 0, maxX: 100, maxY: 100)
        let title = PlacedItem(kind: .title, text: "Bled", box: ScreenRect(minX: 10, minY: 10, maxX: 40, maxY: 20))
        let legend = PlacedItem(kind: .legend, text: "Bled", box: ScreenRect(minX: 30, minY: 15, maxX: 60, maxY: 50))
        let cut = PlacedItem(kind: .pin, text: "Bled", box: ScreenRect(minX: 90, minY: 90, maxX: 110, maxY: 100))
        let touching = PlacedItem(kind: .scaleBar, text: "", box: ScreenRect(minX: 40, minY: 0, maxX: 60, maxY: 10))
        #expect(LayoutCheck.problems([title, touching], frame: frame).isEmpty, "boxes that only touch pass")
        let problems = LayoutCheck.problems([title, legend, cut], frame: frame)
        #expect(problems.count == 2)
        #expect(problems.contains { $0.hasPrefix("pin 'Bled'") && $0.contains("cut by the frame") })
        #expect(problems.contains { $0.hasPrefix("title 'Bled'") && $0.contains("overlaps legend 'Bled'") })
    }

    // MARK: Legend and callouts

    /// `map --callout city --me 46.0514 14.5060`: before, Bled's callout covered the legend and the pin sat on its edge.
    @Test(arguments: [(1024.0, 768.0), (640, 480), (900, 300)])
    func theLegendMovesOutOfTheCalloutsWay(size: (Double, Double)) throws {
        var map = Self.bledMap()
        map.callouts = .city
        map.me = Self.ljubljana
        let scene = try map.scene { _ in Placemark(location: Self.bled.coordinate) }
        let layout = MapLayout(scene: scene, width: size.0, height: size.1)
        Self.expectClean(layout)
        let legend = try #require(layout.placed.first { $0.kind == .legend })
        let callout = try #require(layout.calloutBoxes.first)
        #expect(!legend.box.intersects(callout))
        for pin in layout.placed where pin.kind == .pin { #expect(!legend.box.intersects(pin.box), "\(pin.text)") }
    }

    /// The City 0.003° inside each corner of a region the user gave, with its callout and you nearby.
    @Test(arguments: [(1.0, -1.0), (1, 1), (-1, -1), (-1, 1)])
    func aCalloutAtEachCornerClearsTheFurniture(corner: (Double, Double)) throws {
        var map = DestinationMap(
            destination: Destination(id: 1, name: BookLondon.destinationName, airport: BookLondon.airport, city: BookLondon.city))
        map.callouts = .city
        map.me = Coordinate(latitude: 51.49, longitude: -0.12)
        let city = BookLondon.city.coordinate
        map.region = MapRegion(
            center: Coordinate(latitude: city.latitude - corner.0 * 0.017, longitude: city.longitude - corner.1 * 0.037),
            latitudeDelta: 0.04, longitudeDelta: 0.08)
        let scene = try map.scene { _ in Placemark(location: city) }
        let layout = MapLayout(scene: scene, width: 1024, height: 768)
        Self.expectClean(layout)
        #expect(layout.placed.filter { $0.kind == .callout }.count == 1)
        #expect(layout.placed.contains { $0.kind == .legend })
    }

    // MARK: Events, regions and the track

    /// On the destination's map the four events of a 150 m region are a few pixels apart: they go on one
    /// ring, each with a leader line to where it happened, and every title finds a place.
    @Test func eventsThatWouldCoverEachOtherShareARingWithLeadersToWhereTheyHappened() throws {
        var map = Self.bledMap()
        map.trackEvents = Self.cerknicaEvents.map { (coordinate: $0.0, title: $0.1) }
        map.regions = [Self.cerknica]
        let scene = try map.scene { _ in nil }
        let layout = MapLayout(scene: scene, width: 1024, height: 768)
        Self.expectClean(layout)
        let events = Array(2..<6)
        let centre = ScreenPoint(
            x: events.map { layout.truePoints[$0].x }.reduce(0, +) / 4, y: events.map { layout.truePoints[$0].y }.reduce(0, +) / 4)
        for index in events {
            let drawn = layout.markerPoints[index], truePoint = layout.truePoints[index]
            #expect(hypot(drawn.x - truePoint.x, drawn.y - truePoint.y) < 30, "a ring of squares stays close to the events")
            #expect(hypot(drawn.x - centre.x, drawn.y - centre.y) > 8)
            let leader = layout.items.contains { item in
                guard case .path(let parts, false, _, .overlay) = item, parts.count == 1, parts[0].count == 2 else { return false }
                return parts[0][0] == truePoint && parts[0][1] == drawn
            }
            #expect(leader, "a leader from event \(index) to where it happened")
        }
    }

    /// Close up, the same events are apart: each is drawn where it happened, and the region's circle, centre and name are drawn.
    @Test func eventsApartAreDrawnWhereTheyHappenedBesideTheRegion() throws {
        var map = Self.bledMap()
        map.trackEvents = Self.cerknicaEvents.map { (coordinate: $0.0, title: $0.1) }
        map.regions = [Self.cerknica]
        map.region = MapRegion(center: Coordinate(latitude: 45.766, longitude: 14.356), latitudeDelta: 0.03, longitudeDelta: 0.05)
        let scene = try map.scene { _ in nil }
        let layout = MapLayout(scene: scene, width: 1024, height: 768)
        Self.expectClean(layout)
        for index in 2..<6 { #expect(layout.markerPoints[index] == layout.truePoints[index]) }
        let centre = layout.viewport.project(Self.cerknica.center)
        let radius = 150 / layout.viewport.metresPerPixel(atLatitude: Self.cerknica.center.latitude)
        let circle = layout.items.contains { item in
            guard case .circle(let at, let r, let style, _) = item else { return false }
            return hypot(at.x - centre.x, at.y - centre.y) < 0.01 && abs(r - radius) < 1 && style.stroke == .regionTeal
        }
        #expect(circle, "the region's circle at its true size")
        #expect(layout.placed.contains { $0.kind == .regionLabel && $0.text == "Cerknica (150 m)" })
    }

    @Test func aTinyRegionIsStillSeenAndTheTrackWidensAsTheMapClosesIn() {
        #expect(MapLayout.trackWidth(3, metresPerPixel: 500) == 3)
        #expect(MapLayout.trackWidth(3, metresPerPixel: 100) == 4.5)
        #expect(MapLayout.trackWidth(3, metresPerPixel: 10) == 6)
        let region = MapRegion(center: Self.cerknica.center, latitudeDelta: 2, longitudeDelta: 3)
        let scene = MapScene(
            region: region,
            circles: [MapCircle(centre: Self.cerknica.center, radius: .metres(150), fill: nil, stroke: .regionTeal, marksCentre: true)])
        let layout = MapLayout(scene: scene, width: 800, height: 600)
        let radius = layout.items.compactMap { item -> Double? in
            if case .circle(_, let r, let style, _) = item, style.stroke == .regionTeal { return r }
            return nil
        }
        #expect(radius == [MapLayout.leastMarkedCircleRadius])
    }

    // MARK: Distances

    @Test func eachDistanceSaysFromWhereToWhere() throws {
        var map = Self.bledMap()
        map.callouts = .city
        map.me = Coordinate(latitude: 45.8, longitude: 15.9)
        let scene = try map.scene { _ in nil }
        #expect(scene.markers[1].calloutLines.last?.hasSuffix(" from you") == true)
        let layout = MapLayout(scene: scene, width: 1024, height: 768)
        Self.expectClean(layout)
        #expect(layout.offscreen != nil)
        let label = try #require(layout.placed.first { $0.kind == .arrowLabel })
        #expect(label.text.hasPrefix("You: ") && label.text.hasSuffix(" from map centre"), "\(label.text)")
    }

    // MARK: Notes and nearby places

    @Test func aViewWithNothingSaysSoAndNamesTheNearestPlacesAtItsEdge() throws {
        let region = MapRegion(center: Coordinate(latitude: 45.768, longitude: 14.358), latitudeDelta: 0.02, longitudeDelta: 0.03)
        let nearby = [
            ("Cerknica", 45.7930, 14.3630), ("Rakek", 45.8141, 14.3069), ("Postojna", 45.7743, 14.2153), ("Nova Vas", 45.7727, 14.5064),
        ].map { BasemapLabel(text: $0.0, coordinate: Coordinate(latitude: $0.1, longitude: $0.2), kind: .locality, rank: 1000) }
        let basemap = Basemap(notes: ["No street data in the places database here"], nearby: nearby)
        let scene = MapScene(region: region, basemap: basemap)
        let layout = MapLayout(scene: scene, width: 1024, height: 768)
        Self.expectClean(layout)
        #expect(layout.placed.contains { $0.kind == .note })
        let edges = layout.placed.filter { $0.kind == .edgeLabel }
        #expect(edges.count == 4)
        #expect(edges.contains { $0.text.hasPrefix("Cerknica ") && $0.text.hasSuffix("↑") && $0.box.minY < 60 })
        #expect(edges.contains { $0.text.hasPrefix("Postojna ") && $0.text.hasSuffix("←") && $0.box.minX < 60 })
    }

    // MARK: The terminal

    @Test func theTerminalLaysTextOutByCellsAndPrintsTheCreditsUnderTheMap() throws {
        var map = DestinationMap(
            destination: Destination(id: 1, name: BookLondon.destinationName, airport: BookLondon.airport, city: BookLondon.city))
        map.me = Coordinate(latitude: 51.5, longitude: -0.2)
        var scene = try map.scene { _ in nil }
        scene.attribution = ["Made with Natural Earth", "© OpenStreetMap contributors"]
        let (layout, text) = try MapRenderer.terminal(scene, columns: 80, rows: 24, colour: .none)
        Self.expectClean(layout)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 24)
        #expect(lines.allSatisfy { $0.count == 80 })
        #expect(lines.last?.hasSuffix("Made with Natural Earth · © OpenStreetMap contributors") == true)
        #expect(!layout.items.contains { if case .text(let t, _, _) = $0 { return t.contains("Natural Earth") } else { return false } })
        #expect(TerminalMap.creditLines(["Made with Natural Earth"], columns: 10) == ["Made with ", "Natural Ea", "       rth"])
    }

    @Test func colourOnlyOnATerminalUnlessAskedAndNeverUnderNO_COLOR() {
        let truecolour = ["COLORTERM": "truecolor"]
        #expect(TerminalColour.detect(environment: truecolour, isTerminal: true) == .trueColour)
        #expect(TerminalColour.detect(environment: truecolour, isTerminal: false) == TerminalColour.none, "a pipe")
        #expect(TerminalColour.detect(environment: truecolour, isTerminal: false, choice: .always) == .trueColour)
        #expect(TerminalColour.detect(environment: truecolour, isTerminal: true, choice: .never) == TerminalColour.none)
        #expect(TerminalColour.detect(environment: ["NO_COLOR": "1", "COLORTERM": "truecolor"], isTerminal: true) == TerminalColour.none)
        #expect(TerminalColour.detect(environment: ["NO_COLOR": "1"], isTerminal: true, choice: .always) == .palette256)
        #expect(TerminalColour.detect(environment: ["TERM": "xterm-256color"], isTerminal: true) == .palette256)
        #expect(TerminalColour.detect(environment: ["TERM": "dumb"], isTerminal: true) == TerminalColour.none)
    }
}
