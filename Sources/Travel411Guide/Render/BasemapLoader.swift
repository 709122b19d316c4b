import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// Reads the basemap for one view from the places database: only the features whose index boxes meet
/// the view, from the layers that suit its scale, never the whole 10m world for a city map. Which layer
/// is which comes from the import record, so a database imported from other shapefiles is drawn from
/// its own layers.
public final class BasemapLoader {
    private let places: PlacesDatabase

    public convenience init(path: String) throws {
        try self.init(places: PlacesDatabase(path: path))
    }

    public init(places: PlacesDatabase) throws {
        self.places = places
        // Reads the import record now, so that a file that is no places database fails here, not mid-draw.
        _ = try places.layers(level: .country)
    }

    public func load(for viewport: MapViewport) throws -> Basemap {
        let region = viewport.visibleRegion
        let detail = BasemapDetail(longitudeSpan: viewport.longitudeSpan, metresPerPixel: viewport.metresPerPixel())
        // A little beyond the edges, so outlines do not stop short of them.
        let boxes = Self.boxes(for: region, growingBy: 0.05)
        var basemap = Basemap()
        var read = Set<PlacesLayer>()

        if let countryLayer = try places.countryOutlineLayer(detail.countryOutline) {
            basemap.layers.append(BasemapLayer(kind: .land, shapes: try shapes(in: countryLayer, boxes)))
            read.insert(countryLayer)
        }
        if detail.showsLakes {
            for layer in try places.waterLayers(.inlandWater) {
                basemap.layers.append(BasemapLayer(kind: .lake, shapes: try shapes(in: layer, boxes)))
                read.insert(layer)
            }
        }
        if detail.showsAdmin {
            for layer in try places.layers(level: .admin) {
                let found = try shapes(in: layer, boxes)
                guard !found.isEmpty else { continue }
                basemap.layers.append(BasemapLayer(kind: .admin, shapes: found))
                read.insert(layer)
            }
        }
        if detail.showsDistricts {
            for layer in try places.layers(level: .district) {
                let parts: FeatureParts = detail.showsDistrictNames ? [.shape, .name, .indexedBox] : .shape
                let features = try places.features(in: layer, within: boxes, reading: parts)
                guard !features.isEmpty else { continue }
                basemap.layers.append(BasemapLayer(kind: .district, shapes: features.compactMap(\.shape)))
                if detail.showsDistrictNames {
                    basemap.labels += Self.areaLabels(features, kind: .district, within: region)
                }
                read.insert(layer)
            }
        }
        var streetsFound = false
        if detail.showsStreets {
            for layer in try places.layers(level: .thoroughfare) {
                let features = try places.features(
                    in: layer, within: boxes, reading: detail.showsStreetNames ? [.shape, .name] : .shape)
                let shapes = features.compactMap(\.shape)
                guard !shapes.isEmpty else { continue }
                basemap.layers.append(BasemapLayer(kind: .street, shapes: shapes))
                basemap.labels += Self.streetLabels(features)
                read.insert(layer)
                streetsFound = true
            }
            // A street-scale view of a place the database has no streets for would be a blank sheet: say why.
            if !streetsFound { basemap.notes.append("No street data in the places database here") }
        }
        if detail.showsCountryNames, let layer = try places.layers(level: .country).first {
            let features = try places.features(in: layer, within: boxes, reading: [.name, .indexedBox, .labelPoint])
            basemap.labels += Self.areaLabels(features, kind: .country, within: region)
            read.insert(layer)
        }
        if detail.showsSeaNames {
            for layer in try places.waterLayers(.ocean) {
                let features = try places.features(in: layer, within: boxes, reading: [.name, .indexedBox])
                basemap.labels += Self.areaLabels(features, kind: .sea, within: region)
            }
        }
        let localities = try localityLabels(in: region)
        basemap.labels += localities
        if localities.isEmpty {
            basemap.nearby = try nearestPlaces(around: region)
            if !basemap.nearby.isEmpty {
                basemap.notes.append("No named place in view: the nearest are named at the edge, with their distance from the centre")
            }
        }
        if !localities.isEmpty || !basemap.nearby.isEmpty { read.formUnion(try places.layers(level: .locality)) }
        basemap.attribution = Self.attribution(forLayers: read)
        return basemap
    }

    private func shapes(in layer: PlacesLayer, _ boxes: [BoundingBox]) throws -> [Shape] {
        try places.features(in: layer, within: boxes, reading: .shape).compactMap(\.shape)
    }

    // MARK: - Labels

    /// Names of areas, each at its label point (when the data gives one) or the centre of its index box,
    /// ranked by the box's size so the biggest areas are named first.
    private static func areaLabels(_ features: [PlacesFeature], kind: BasemapLabelKind, within region: MapRegion) -> [BasemapLabel] {
        features.compactMap { feature in
            guard let name = feature.name.map(Self.singleSpaced), let box = feature.indexedBox else { return nil }
            // A sea cut at ±180° (the Bering Sea, the Chukchi Sea) has a box round the world, whose middle is at
            // 0°, off Norway: without a label point of its own it is not named rather than named there.
            guard feature.labelPoint != nil || box.maxX - box.minX < 180 else { return nil }
            let point =
                feature.labelPoint ?? Coordinate(latitude: (box.minY + box.maxY) / 2, longitude: (box.minX + box.maxX) / 2)
            guard contains(region, point) else { return nil }
            return BasemapLabel(text: name, coordinate: point, kind: kind, rank: (box.maxX - box.minX) * (box.maxY - box.minY))
        }
    }

    /// A name with runs of spaces made one ("Ross  Sea" in Natural Earth's marine polygons).
    static func singleSpaced(_ name: String) -> String {
        name.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    /// For each street name, one label along its longest straight stretch.
    private static func streetLabels(_ features: [PlacesFeature]) -> [BasemapLabel] {
        var longest: [String: (length: Double, from: Point2D, to: Point2D)] = [:]
        for feature in features {
            guard let shape = feature.shape, let name = feature.name, !name.trimmingCharacters(in: .whitespaces).isEmpty
            else { continue }
            for line in shape.lines {
                for (a, b) in zip(line, line.dropFirst()) {
                    let length = hypot((b.x - a.x) * cos(a.y * .pi / 180), b.y - a.y)
                    if length > longest[name]?.length ?? 0 { longest[name] = (length, a, b) }
                }
            }
        }
        return longest.map { name, stretch in
            BasemapLabel(
                text: name,
                coordinate: Coordinate(latitude: (stretch.from.y + stretch.to.y) / 2, longitude: (stretch.from.x + stretch.to.x) / 2),
                kind: .street, rank: stretch.length,
                along: (
                    Coordinate(latitude: stretch.from.y, longitude: stretch.from.x),
                    Coordinate(latitude: stretch.to.y, longitude: stretch.to.x)
                ))
        }
    }

    /// The most populous localities in view.
    private func localityLabels(in region: MapRegion) throws -> [BasemapLabel] {
        try Self.boxes(for: region, growingBy: 0).flatMap { box in
            try places.mostPopulousLocalities(in: box, limit: 200).map { locality in
                BasemapLabel(text: locality.name, coordinate: locality.coordinate, kind: .locality, rank: Double(locality.population))
            }
        }
    }

    /// The nearest localities beyond a view that holds none, at most one per eighth of the compass
    /// and four in all, from the most populous in a box 64 times the view's size.
    private func nearestPlaces(around region: MapRegion) throws -> [BasemapLabel] {
        let wider = MapRegion(
            center: region.center, latitudeDelta: min(170, region.latitudeDelta * 64), longitudeDelta: min(360, region.longitudeDelta * 64))
        let found = try Self.boxes(for: wider, growingBy: 0).flatMap { try places.mostPopulousLocalities(in: $0, limit: 500) }
        var octants = Set<Int>()
        var chosen: [BasemapLabel] = []
        let byDistance = found.map { (locality: $0, metres: GreatCircle.distance(from: region.center, to: $0.coordinate)) }
            .sorted { $0.metres < $1.metres }
        for (locality, _) in byDistance {
            let bearing = GreatCircle.initialBearing(from: region.center, to: locality.coordinate)
            guard octants.insert(Int((bearing / 45).rounded()) % 8).inserted else { continue }
            chosen.append(
                BasemapLabel(text: locality.name, coordinate: locality.coordinate, kind: .locality, rank: Double(locality.population)))
            if chosen.count == 4 { break }
        }
        return chosen
    }

    // MARK: - Geometry of the query

    /// The region as one or two boxes in (longitude, latitude), split at ±180°.
    static func boxes(for region: MapRegion, growingBy fraction: Double) -> [BoundingBox] {
        let latPad = region.latitudeDelta * fraction, lonPad = region.longitudeDelta * fraction
        let south = max(-90, region.south - latPad), north = min(90, region.north + latPad)
        let halfWidth = region.longitudeDelta / 2 + lonPad
        if halfWidth >= 180 { return [BoundingBox(minX: -180, minY: south, maxX: 180, maxY: north)] }
        let west = region.center.longitude - halfWidth, east = region.center.longitude + halfWidth
        if west < -180 {
            return [
                BoundingBox(minX: -180, minY: south, maxX: east, maxY: north),
                BoundingBox(minX: west + 360, minY: south, maxX: 180, maxY: north),
            ]
        }
        if east > 180 {
            return [
                BoundingBox(minX: west, minY: south, maxX: 180, maxY: north),
                BoundingBox(minX: -180, minY: south, maxX: east - 360, maxY: north),
            ]
        }
        return [BoundingBox(minX: west, minY: south, maxX: east, maxY: north)]
    }

    static func contains(_ region: MapRegion, _ point: Coordinate) -> Bool {
        guard point.latitude >= region.south, point.latitude <= region.north else { return false }
        return abs(GreatCircle.normalizedLongitude(point.longitude - region.center.longitude)) <= region.longitudeDelta / 2
    }

    /// The licence lines (Data/README.md) for the layers drawn, recognised by their file names, and OpenStreetMap's
    /// also by the layout the import recognised (an extract's tables, GDAL's and Geofabrik's OpenStreetMap layers).
    static func attribution(forLayers layers: Set<PlacesLayer>) -> [String] {
        var lines: [String] = []
        func add(_ line: String) { if !lines.contains(line) { lines.append(line) } }
        for layer in layers.sorted(by: { $0.name < $1.name }) {
            let name = layer.name.lowercased()
            if name.hasPrefix("ne_") { add(MapAttribution.naturalEarth) }
            if name.contains("admin1") { add(MapAttribution.adminOne) }
            if name.contains("geonames") { add(MapAttribution.geoNames) }
            if name.contains("osm") || name.contains("highways") || layer.origin.contains("OpenStreetMap")
                || layer.origin.hasPrefix("Geofabrik")
            {
                add(MapAttribution.openStreetMap)
            }
            if name.contains("london_boroughs") { add(MapAttribution.londonBoroughs) }
        }
        return lines
    }
}

/// The attribution lines the data's licences require, as Data/README.md gives them.
public enum MapAttribution {
    public static let naturalEarth = "Made with Natural Earth."
    public static let adminOne = "Made with Natural Earth; © OpenStreetMap contributors; Elastic Maps Service"
    public static let geoNames = "GeoNames, geonames.org"
    public static let openStreetMap = "© OpenStreetMap contributors"
    public static let londonBoroughs = "Contains National Statistics data © Crown copyright and database right"
}
