import Foundation
import Travel411Core
import Travel411Store

/// Reads a places database for what draws maps and chooses places: its layers, the features of a layer
/// in a box, its localities. The tables behind these answers are the Kit's own and change between
/// versions of travel411; this type is the way in from outside the Kit, so that they can.
///
/// Opening checks the version of the lookup tables: one of another version throws
/// `OutdatedPlacesDatabaseError` (which `PlacesDatabase.open(at:…)` answers by rebuilding it), one without
/// any (an SQLite file that is no places database) opens, and answers what it can. Not thread-safe:
/// open one per thread.
public final class PlacesDatabase {
    public var path: String { database.path }

    private let database: SQLiteDatabase
    /// Opened on the first question about layers or features: choosing a City needs only the localities.
    private var openedFeatures: GeoPackageReader?
    private var openedLayers: [SourceRecord]?
    private var openedOrigins: [String: String]?
    private var areaNamesByLayer: [String: [Int64: String]] = [:]
    private var localitiesListed: Bool?

    public init(path: String) throws {
        database = try SQLiteDatabase(path: path, mode: .readOnly)
        if case .version(let version) = try? LookupTablesStamp.read(from: database), version != PlacesSchema.version {
            throw OutdatedPlacesDatabaseError(path: path, lookupTablesVersion: version, reading: database)
        }
    }

    // MARK: - Layers

    /// The layers imported at `level`, in import order. Not the pieces of Nominatim's country grid around an
    /// extract (`OSMCountryGridLayer`): they decide countries, but are cells, not outlines to draw or show.
    public func layers(level: PlaceLevel) throws -> [PlacesLayer] {
        let origins = try layerOrigins()
        // An extract's layer left out of the GeoPackage (`import --layers lookups`) is listed without a table.
        return try importedLayers().filter {
            $0.level == level.rawValue && origins[$0.layer].map { !$0.hasPrefix(PlacesSchema.countryGridDescription) } == true
        }.map {
            PlacesLayer(name: $0.layer, level: level, origin: origins[$0.layer] ?? "")
        }
    }

    /// The layer to draw country outlines from at this detail: of the small-scale outline layers (level
    /// `basemap`), the one with the least geometry for `.coarsest` and the most for `.coarse`; the full
    /// country layer for `.full`. Each falls back to what there is; nil when there is neither.
    public func countryOutlineLayer(_ detail: OutlineDetail) throws -> PlacesLayer? {
        let full = try layers(level: .country).first
        // The stored geometry's size ranks the layers by detail: Natural Earth's 110m, 50m and 10m
        // outlines differ by about 10x each, whatever their names.
        let sized: [(layer: PlacesLayer, bytes: Int64)] = try layers(level: .basemap).map { (layer: PlacesLayer) in
            let rows = try database.query(
                "SELECT sum(length(\(GeoPackageSchema.quoted(GeoPackageSchema.geometryColumn)))) FROM \(GeoPackageSchema.quoted(layer.name))"
            )
            let bytes: Int64 = rows.first?.first?.int64Value ?? 0
            return (layer, bytes)
        }
        let outlines: [PlacesLayer] = sized.sorted { $0.bytes < $1.bytes }.map { $0.layer }
        switch detail {
        case .full: return full ?? outlines.last
        case .coarse: return outlines.count > 1 ? outlines[outlines.count - 1] : outlines.first ?? full
        case .coarsest: return outlines.first ?? full
        }
    }

    /// The layers whose polygons `where` answers `water` from as `kind`: a layer of the water level
    /// may hold oceans, lakes or both.
    public func waterLayers(_ kind: WaterKind) throws -> [PlacesLayer] {
        guard try database.tableExists(Tables.areas) else { return [] }
        let level: PlacesSchema.AreaLevel = kind == .ocean ? .ocean : .inlandWater
        let origins = try layerOrigins()
        return try database.query(
            "SELECT DISTINCT layer FROM \(Tables.areas) WHERE level = ? ORDER BY layer", [.text(level.rawValue)]
        )
        .compactMap { $0.first?.stringValue }.map { PlacesLayer(name: $0, level: .water, origin: origins[$0] ?? "") }
    }

    /// Each layer's description in gpkg_contents, which the import writes as its layout and source file.
    private func layerOrigins() throws -> [String: String] {
        if let openedOrigins { return openedOrigins }
        var origins: [String: String] = [:]
        if try database.tableExists("gpkg_contents") {
            for row in try database.query("SELECT table_name, description FROM gpkg_contents") {
                if let table = row.first?.stringValue { origins[table] = row.last?.stringValue ?? "" }
            }
        }
        openedOrigins = origins
        return origins
    }

    // MARK: - Features

    /// The features of `layer` whose boxes in the spatial index meet any of `boxes`, each once, in the
    /// order they were imported, with the `parts` asked for. A superset of the features that meet the
    /// boxes: the index keeps boxes rounded outwards. A layer without an index gives all its features.
    public func features(in layer: PlacesLayer, within boxes: [BoundingBox], reading parts: FeatureParts) throws -> [PlacesFeature] {
        let reader = try geoPackage()
        var seen = Set<Int64>(), ids: [Int64] = []
        for box in boxes {
            for id in try reader.candidates(in: layer.name, box: box) where seen.insert(id).inserted { ids.append(id) }
        }
        ids.sort()
        guard !ids.isEmpty else { return [] }

        let names = parts.contains(.name) ? try names(in: layer.name) : nil
        let labelPoints = parts.contains(.labelPoint) ? try labelPoints(in: layer.name) : [:]
        let rtree = GeoPackageSchema.rtreeTableName(for: layer.name)
        let boxStatement =
            try parts.contains(.indexedBox) && database.tableExists(rtree)
            ? database.prepare("SELECT minx, maxx, miny, maxy FROM \(GeoPackageSchema.quoted(rtree)) WHERE id = ?") : nil

        var features: [PlacesFeature] = []
        features.reserveCapacity(ids.count)
        for id in ids {
            var feature = PlacesFeature()
            if parts.contains(.shape) { feature.shape = try reader.geometry(table: layer.name, fid: id) }
            if let names { feature.name = try names.name(of: id) }
            if let boxStatement {
                try boxStatement.bind(.integer(id), at: 1)
                defer { boxStatement.reset() }
                if try boxStatement.step() {
                    feature.indexedBox = BoundingBox(
                        minX: boxStatement.double(0), minY: boxStatement.double(2), maxX: boxStatement.double(1),
                        maxY: boxStatement.double(3))
                }
            }
            feature.labelPoint = labelPoints[id]
            features.append(feature)
        }
        return features
    }

    /// Where names come from for one layer: the lookup tables' area names for a layer that `where` answers
    /// areas from, else the layer's own `name` column.
    private enum LayerNames {
        case areas([Int64: String])
        case column(SQLiteStatement)
        case none

        func name(of id: Int64) throws -> String? {
            switch self {
            case .areas(let names): return names[id]
            case .column(let statement):
                try statement.bind(.integer(id), at: 1)
                defer { statement.reset() }
                return try statement.step() ? statement.string(0) : nil
            case .none: return nil
            }
        }
    }

    private func names(in layer: String) throws -> LayerNames {
        let areaNames = try self.areaNames(in: layer)
        if !areaNames.isEmpty { return .areas(areaNames) }
        guard try columns(of: layer).contains("name") else { return .none }
        let key = GeoPackageSchema.quoted(GeoPackageSchema.primaryKeyColumn)
        return .column(try database.prepare("SELECT name FROM \(GeoPackageSchema.quoted(layer)) WHERE \(key) = ?"))
    }

    /// The area names `where` gives the layer's polygons. A country's overseas parts are areas of their own
    /// (Mayotte, Svalbard, Caribbean NL) with the polygon's fid and later feature numbers; the polygon's
    /// name is its first area's (France).
    private func areaNames(in layer: String) throws -> [Int64: String] {
        if let known = areaNamesByLayer[layer] { return known }
        var names: [Int64: String] = [:]
        if try database.tableExists(Tables.areas) {
            let rows = try database.query("SELECT fid, name FROM \(Tables.areas) WHERE layer = ? ORDER BY feature", [.text(layer)])
            for row in rows {
                if let fid = row.first?.int64Value, names[fid] == nil, let name = row.last?.stringValue, !name.isEmpty { names[fid] = name }
            }
        }
        areaNamesByLayer[layer] = names
        return names
    }

    /// Natural Earth's LABEL_X/LABEL_Y, where the layer has them.
    private func labelPoints(in layer: String) throws -> [Int64: Coordinate] {
        guard try columns(of: layer).isSuperset(of: ["label_x", "label_y"]) else { return [:] }
        var points: [Int64: Coordinate] = [:]
        let key = GeoPackageSchema.quoted(GeoPackageSchema.primaryKeyColumn)
        for row in try database.query("SELECT \(key), LABEL_X, LABEL_Y FROM \(GeoPackageSchema.quoted(layer))") {
            if row.count == 3, let id = row[0].int64Value, let x = row[1].doubleValue, let y = row[2].doubleValue {
                points[id] = Coordinate(latitude: y, longitude: x)
            }
        }
        return points
    }

    private func columns(of layer: String) throws -> Set<String> {
        Set(try database.query("SELECT lower(name) FROM pragma_table_info(?)", [.text(layer)]).compactMap { $0.first?.stringValue })
    }

    // MARK: - Localities

    /// Whether the database lists localities (every locality layer's places, with their countries): a
    /// places database that travel411 imported always does, even if empty.
    public var listsLocalities: Bool {
        get throws {
            if let localitiesListed { return localitiesListed }
            let listed = try database.tableExists(Tables.localities)
            localitiesListed = listed
            return listed
        }
    }

    /// The `limit` most populous localities inside `box` (minX/maxX longitudes, minY/maxY latitudes; one
    /// that crosses ±180° is two boxes), most populous first, ties by name.
    public func mostPopulousLocalities(in box: BoundingBox, limit: Int) throws -> [Locality] {
        guard try listsLocalities else { return [] }
        return try localities(
            where: "latitude BETWEEN ? AND ? AND longitude BETWEEN ? AND ? ORDER BY population DESC, name LIMIT ?",
            [.real(box.minY), .real(box.maxY), .real(box.minX), .real(box.maxX), .integer(Int64(limit))])
    }

    /// The localities called `name` (ignoring ASCII case) in `countryCode` (ISO 3166-1 alpha-2, any case).
    public func localities(named name: String, inCountry countryCode: String) throws -> [Locality] {
        guard try listsLocalities else { return [] }
        return try localities(where: "name = ? COLLATE NOCASE AND cc = ? COLLATE NOCASE", [.text(name), .text(countryCode)])
    }

    /// The localities within `radiusMetres` of `point` (great-circle distance), only those called `name`
    /// (ignoring ASCII case) when given, nearest first.
    public func localities(
        near point: Coordinate, radiusMetres: Double, named name: String? = nil
    ) throws -> [(locality: Locality, distanceMetres: Double)] {
        guard try listsLocalities else { return [] }
        // A latitude band narrows the scan cheaply (the table has an index on latitude); the exact test is
        // the great-circle distance.
        let band = radiusMetres / 111_000 + 0.01
        var condition = "latitude BETWEEN ? AND ?"
        var values: [SQLValue] = [.real(point.latitude - band), .real(point.latitude + band)]
        if let name {
            condition += " AND name = ? COLLATE NOCASE"
            values.append(.text(name))
        }
        return try localities(where: condition, values)
            .map { ($0, GreatCircle.distance(from: point, to: $0.coordinate)) }
            .filter { $0.1 <= radiusMetres }
            .sorted { $0.1 < $1.1 }
    }

    private func localities(where condition: String, _ values: [SQLValue]) throws -> [Locality] {
        let rows = try database.query(
            "SELECT name, cc, population, latitude, longitude FROM \(Tables.localities) WHERE \(condition)", values)
        return rows.compactMap { row in
            guard row.count == 5, let name = row[0].stringValue, let latitude = row[3].doubleValue,
                let longitude = row[4].doubleValue,
                let coordinate = try? Coordinate(validatingLatitude: latitude, longitude: longitude)
            else { return nil }
            return Locality(
                name: name, countryCode: row[1].stringValue ?? "", population: row[2].int64Value ?? 0, coordinate: coordinate)
        }
    }

    // MARK: - The tables

    /// The lookup tables read here (PlacesSchema says what they hold).
    private enum Tables {
        static let areas = "travel411_areas", localities = "travel411_localities"
    }

    private func geoPackage() throws -> GeoPackageReader {
        if let openedFeatures { return openedFeatures }
        let reader = try GeoPackageReader(database: database)
        openedFeatures = reader
        return reader
    }

    /// The import record, read once.
    private func importedLayers() throws -> [SourceRecord] {
        if let openedLayers { return openedLayers }
        let layers = try geoPackage().sources()
        openedLayers = layers
        return layers
    }
}

/// One layer of a places database: the features of one imported shapefile, named after it.
public struct PlacesLayer: Hashable, Sendable {
    /// The shapefile's name without `.shp` (`ne_10m_admin_0_countries`), which says whose data it is.
    public let name: String
    public let level: PlaceLevel
    /// What the layer holds and where it came from, as the import described it (`Natural Earth admin 0 countries
    /// from ne_10m_admin_0_countries.shp`, `OpenStreetMap street from liechtenstein.osm.pbf`): whose data it is
    /// when its name does not say, as an extract's tables are named after the extract.
    public let origin: String
}

/// How much detail of the country outlines a map needs.
public enum OutlineDetail: Hashable, Sendable { case coarsest, coarse, full }

/// The two kinds of area of the water level: `where` names a sea or an ocean as `ocean`, a lake as `inlandWater`.
public enum WaterKind: Hashable, Sendable { case ocean, inlandWater }

/// What to read of each feature: only what is asked for is read.
public struct FeatureParts: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    public static let shape = FeatureParts(rawValue: 1 << 0)
    /// For a layer of areas that `where` answers from, the name it gives the area; for any other layer, its
    /// `name` attribute.
    public static let name = FeatureParts(rawValue: 1 << 1)
    /// The feature's box in the spatial index (rounded outwards to single precision).
    public static let indexedBox = FeatureParts(rawValue: 1 << 2)
    /// Where the data says the feature's label goes (Natural Earth's LABEL_X/LABEL_Y), if it says.
    public static let labelPoint = FeatureParts(rawValue: 1 << 3)
}

/// One feature of a layer, with the parts that were asked for (nil otherwise, or when the feature has none).
public struct PlacesFeature: Sendable {
    /// Nil for a NULL or empty geometry.
    public var shape: Shape?
    public var name: String?
    public var indexedBox: BoundingBox?
    public var labelPoint: Coordinate?
}

/// A populated place from the places database's localities (GeoNames and OpenStreetMap places alike, each
/// with its country).
public struct Locality: Hashable, Sendable, Codable {
    public var name: String
    public var countryCode: String
    public var population: Int64
    public var coordinate: Coordinate

    public init(name: String, countryCode: String, population: Int64, coordinate: Coordinate) {
        self.name = name
        self.countryCode = countryCode
        self.population = population
        self.coordinate = coordinate
    }
}
