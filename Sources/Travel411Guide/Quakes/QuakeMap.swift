import Foundation
import Travel411Core

/// The earthquakes as a map scene for the one renderer `travel411 map` uses: a circle per event with
/// the seed's size and colour rule, the largest drawn first so that small ones stay visible on top,
/// and a magnitude legend. A world map when the events are spread over the world, a regional one
/// otherwise (antimeridian-aware, so Fiji and Tonga make one compact map).
public enum QuakeMap {
    /// The whole Web Mercator world, less the polar caps it cannot show.
    static let world = MapRegion(center: Coordinate(latitude: 10, longitude: 0), latitudeDelta: 150, longitudeDelta: 360)

    public static func scene(_ items: [GeocodedQuake], near centre: (name: String, coordinate: Coordinate)? = nil) -> MapScene {
        let drawn = QuakeMapCircles(items)
        var coordinates = drawn.circles.map(\.coordinate)
        if let centre { coordinates.append(centre.coordinate) }
        let region: MapRegion
        switch QuakeMapExtent.fitting(coordinates) {
        case .world: region = world
        case .regional(let fitted): region = fitted
        }
        let circles = drawn.circles.map { circle in
            MapCircle(
                centre: circle.coordinate, radius: .pixels(circle.diameterPoints / 2), fill: MapColour(circle.colour),
                stroke: MapColour(circle.colour).withAlpha(0.9), label: nil)
        }
        var markers: [MapMarker] = []
        if let centre {
            markers.append(MapMarker(coordinate: centre.coordinate, title: centre.name, colour: .cityRed, symbol: .pin))
        }
        let entries = drawn.legend.map { entry in
            MapLegend.Entry(symbol: .circle(radius: entry.diameterPoints / 2, fill: MapColour(entry.colour)), label: entry.label)
        }
        let title = items.count == 1 ? "1 earthquake" : "\(items.count) earthquakes"
        return MapScene(
            region: region, markers: markers, circles: circles,
            legend: MapLegend(title: title, entries: entries),
            attribution: ["Earthquakes: U.S. Geological Survey (public domain)"])
    }
}

extension MapColour {
    /// A quake circle's colour, its opacity kept.
    init(_ colour: QuakeCircleColour) {
        func byte(_ component: Double) -> UInt8 { UInt8((min(1, max(0, component)) * 255).rounded()) }
        self.init(red: byte(colour.red), green: byte(colour.green), blue: byte(colour.blue), alpha: colour.opacity)
    }
}
