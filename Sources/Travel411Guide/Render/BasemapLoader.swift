import Foundation
import Travel411Kit

/// Reads the basemap for one view from the places database: only the features whose R-tree boxes
/// meet the view, from the layers that suit its scale, never the whole 10m world for a city map.
/// Which layer is which comes from the import record (`travel411_sources`), so a database imported
/// from other shapefiles is drawn from its own layers.
public final class BasemapLoader {
    private let reader: GeoPackageReader
    private var database: SQLiteDatabase { reader.database }
    /// Layer names by level, in import order.
    private let layersByLevel: [String: [String]]
    private var areaNames: [String: [Int64: String]] = [:]

    public init(path: String) throws {
        reader = try GeoPackageReader(path: path)
        var layers: [String: [String]] = [:]
        for source in try reader.sources() { layers[source.level, default: []].append(source.layer) }
        layersByLevel = layers
    }

    public func load(for viewport: MapViewport) throws -> Basemap {
        let region = viewport.visibleRegion
        let detail = BasemapDetail(longitudeSpan: viewport.longitudeSpan, metresPerPixel: viewport.metresPerPixel())
        // A little beyond the edges, so outlines do not stop short of them.
        let boxes = Self.boxes(for: region, growingBy: 0.05)
        var basemap = Basemap()
        var read = Set<String>()

        if let countryLayer = try countryOutlineLayer(detail.countryOutline) {
            basemap.layers.append(BasemapLayer(kind: .land, shapes: try shapes(in: countryLayer, boxes)))
            read.insert(countryLayer)
        }
        if detail.showsLakes {
            for layer in try areaLayers(level: "inlandWater") {
                basemap.layers.append(BasemapLayer(kind: .lake, shapes: try shapes(in: layer, boxes)))
                read.insert(layer)
            }
        }
        if detail.showsAdmin {
            for layer in layersByLevel["admin", default: []] {
                let found = try shapes(in: layer, boxes)
                guard !found.isEmpty else { continue }
                basemap.layers.append(BasemapLayer(kind: .admin, shapes: found))
                read.insert(layer)
            }
        }
        if detail.showsDistricts {
            for layer in layersByLevel["district", default: []] {
                let fids = try candidates(in: layer, boxes)
                guard !fids.isEmpty else { continue }
                basemap.layers.append(
                    BasemapLayer(kind: .district, shapes: try fids.compactMap { try reader.geometry(table: layer, fid: $0) }))
                if detail.showsDistrictNames {
                    basemap.labels += try boxLabels(in: layer, fids: fids, kind: .district, within: region, labelColumns: false)
                }
                read.insert(layer)
            }
        }
        if detail.showsStreets {
            for layer in layersByLevel["thoroughfare", default: []] {
                let (shapes, labels) = try streets(in: layer, boxes, named: detail.showsStreetNames)
                guard !shapes.isEmpty else { continue }
                basemap.layers.append(BasemapLayer(kind: .street, shapes: shapes))
                basemap.labels += labels
                read.insert(layer)
            }
        }
        if detail.showsCountryNames, let layer = layersByLevel["country"]?.first {
            basemap.labels += try boxLabels(
                in: layer, fids: try candidates(in: layer, boxes), kind: .country, within: region, labelColumns: true)
            read.insert(layer)
        }
        if detail.showsSeaNames {
            for layer in try areaLayers(level: "ocean") {
                basemap.labels += try boxLabels(
                    in: layer, fids: try candidates(in: layer, boxes), kind: .sea, within: region, labelColumns: false)
            }
        }
        let localities = try localityLabels(in: region)
        basemap.labels += localities
        if !localities.isEmpty { read.formUnion(layersByLevel["locality", default: []]) }
        basemap.attribution = Self.attribution(forLayers: read)
        return basemap
    }

    // MARK: - Layers

    /// The country outlines for this detail: of the small-scale basemap layers, the one with the
    /// least (coarsest) or most geometry; the full country layer when zoomed in or when there is none.
    private func countryOutlineLayer(_ outline: BasemapDetail.CountryOutline) throws -> String? {
        let full = layersByLevel["country"]?.first
        let basemaps = try layersByLevel["basemap", default: []].map { layer in
            (
                layer,
                try database.query(
                    "SELECT sum(length(\(GeoPackageSchema.quoted(GeoPackageSchema.geometryColumn)))) FROM \(GeoPackageSchema.quoted(layer))"
                )
                .first?.first?.int64Value ?? 0
            )
        }.sorted { $0.1 < $1.1 }.map(\.0)
        switch outline {
        case .full: return full ?? basemaps.last
        case .coarse: return basemaps.count > 1 ? basemaps[basemaps.count - 1] : basemaps.first ?? full
        case .coarsest: return basemaps.first ?? full
        }
    }

    /// Layers whose areas the lookup tables file under `level` (inlandWater, ocean).
    private func areaLayers(level: String) throws -> [String] {
        guard try database.tableExists("travel411_areas") else { return [] }
        return try database.query("SELECT DISTINCT layer FROM travel411_areas WHERE level = ? ORDER BY layer", [.text(level)])
            .compactMap { $0.first?.stringValue }
    }

    private func candidates(in layer: String, _ boxes: [BoundingBox]) throws -> [Int64] {
        var seen = Set<Int64>(), fids: [Int64] = []
        for box in boxes {
            for fid in try reader.candidates(in: layer, box: box) where seen.insert(fid).inserted { fids.append(fid) }
        }
        return fids.sorted()
    }

    private func shapes(in layer: String, _ boxes: [BoundingBox]) throws -> [Shape] {
        try candidates(in: layer, boxes).compactMap { try reader.geometry(table: layer, fid: $0) }
    }

    // MARK: - Labels

    private func names(in layer: String) throws -> [Int64: String] {
        if let known = areaNames[layer] { return known }
        var names: [Int64: String] = [:]
        if try database.tableExists("travel411_areas") {
            // A country's overseas parts are areas of their own (Mayotte, Svalbard, Caribbean NL) with the
            // polygon's fid and later feature numbers; the polygon's label is its first area's name (France).
            let rows = try database.query("SELECT fid, name FROM travel411_areas WHERE layer = ? ORDER BY feature", [.text(layer)])
            for row in rows {
                if let fid = row.first?.int64Value, names[fid] == nil, let name = row.last?.stringValue, !name.isEmpty { names[fid] = name }
            }
        }
        areaNames[layer] = names
        return names
    }

    /// Names of areas, each at its label point (Natural Earth's LABEL_X/LABEL_Y when asked and present)
    /// or the centre of its R-tree box, ranked by the box's size so the biggest areas are named first.
    private func boxLabels(
        in layer: String, fids: [Int64], kind: BasemapLabelKind, within region: MapRegion,
        labelColumns: Bool
    ) throws -> [BasemapLabel] {
        let names = try names(in: layer)
        let rtree = GeoPackageSchema.rtreeTableName(for: layer)
        guard !fids.isEmpty, try database.tableExists(rtree) else { return [] }
        var labelPoints: [Int64: Coordinate] = [:]
        if labelColumns, try columns(of: layer).isSuperset(of: ["label_x", "label_y"]) {
            for row in try database.query("SELECT fid, LABEL_X, LABEL_Y FROM \(GeoPackageSchema.quoted(layer))") {
                if row.count == 3, let fid = row[0].int64Value, let x = row[1].doubleValue, let y = row[2].doubleValue {
                    labelPoints[fid] = Coordinate(latitude: y, longitude: x)
                }
            }
        }
        let statement = try database.prepare("SELECT minx, maxx, miny, maxy FROM \(GeoPackageSchema.quoted(rtree)) WHERE id = ?")
        var labels: [BasemapLabel] = []
        for fid in fids {
            guard let name = names[fid] else { continue }
            try statement.bind(.integer(fid), at: 1)
            defer { statement.reset() }
            guard try statement.step() else { continue }
            let (minX, maxX, minY, maxY) = (statement.double(0), statement.double(1), statement.double(2), statement.double(3))
            let point = labelPoints[fid] ?? Coordinate(latitude: (minY + maxY) / 2, longitude: (minX + maxX) / 2)
            guard Self.contains(region, point) else { continue }
            labels.append(BasemapLabel(text: name, coordinate: point, kind: kind, rank: (maxX - minX) * (maxY - minY)))
        }
        return labels
    }

    private func columns(of layer: String) throws -> Set<String> {
        Set(try database.query("SELECT lower(name) FROM pragma_table_info(?)", [.text(layer)]).compactMap { $0.first?.stringValue })
    }

    /// The street lines, and for each street name one label along its longest straight stretch.
    private func streets(in layer: String, _ boxes: [BoundingBox], named: Bool) throws -> ([Shape], [BasemapLabel]) {
        let fids = try candidates(in: layer, boxes)
        var nameStatement: SQLiteStatement?
        if named, try columns(of: layer).contains("name") {
            nameStatement = try database.prepare("SELECT name FROM \(GeoPackageSchema.quoted(layer)) WHERE fid = ?")
        }
        var shapes: [Shape] = []
        var longest: [String: (length: Double, from: Point2D, to: Point2D)] = [:]
        for fid in fids {
            guard let shape = try reader.geometry(table: layer, fid: fid) else { continue }
            shapes.append(shape)
            guard let statement = nameStatement else { continue }
            try statement.bind(.integer(fid), at: 1)
            let name = try statement.step() ? statement.string(0) : nil
            statement.reset()
            guard let name, !name.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            for line in shape.lines {
                for (a, b) in zip(line, line.dropFirst()) {
                    let length = hypot((b.x - a.x) * cos(a.y * .pi / 180), b.y - a.y)
                    if length > longest[name]?.length ?? 0 { longest[name] = (length, a, b) }
                }
            }
        }
        let labels = longest.map { name, stretch in
            BasemapLabel(
                text: name,
                coordinate: Coordinate(latitude: (stretch.from.y + stretch.to.y) / 2, longitude: (stretch.from.x + stretch.to.x) / 2),
                kind: .street, rank: stretch.length,
                along: (
                    Coordinate(latitude: stretch.from.y, longitude: stretch.from.x),
                    Coordinate(latitude: stretch.to.y, longitude: stretch.to.x)
                ))
        }
        return (shapes, labels)
    }

    /// The most populous localities in view, from the lookup tables' locality list.
    private func localityLabels(in region: MapRegion) throws -> [BasemapLabel] {
        guard try database.tableExists("travel411_localities") else { return [] }
        var labels: [BasemapLabel] = []
        for box in Self.boxes(for: region, growingBy: 0) {
            let rows = try database.query(
                """
                SELECT name, population, latitude, longitude FROM travel411_localities
                WHERE latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ?
                ORDER BY population DESC, name LIMIT 200
                """, [.real(box.minY), .real(box.maxY), .real(box.minX), .real(box.maxX)])
            for row in rows where row.count == 4 {
                guard let name = row[0].stringValue, let latitude = row[2].doubleValue, let longitude = row[3].doubleValue else { continue }
                labels.append(
                    BasemapLabel(
                        text: name, coordinate: Coordinate(latitude: latitude, longitude: longitude),
                        kind: .locality, rank: Double(row[1].int64Value ?? 0)))
            }
        }
        return labels
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

    /// The licence lines (Data/README.md) for the layers drawn, recognised by their file names.
    static func attribution(forLayers layers: Set<String>) -> [String] {
        var lines: [String] = []
        func add(_ line: String) { if !lines.contains(line) { lines.append(line) } }
        for layer in layers.sorted() {
            let name = layer.lowercased()
            if name.hasPrefix("ne_") { add(MapAttribution.naturalEarth) }
            if name.contains("admin1") { add(MapAttribution.adminOne) }
            if name.contains("geonames") { add(MapAttribution.geoNames) }
            if name.contains("osm") || name.contains("highways") { add(MapAttribution.openStreetMap) }
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
