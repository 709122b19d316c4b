import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// Gathers, while layers are imported, what the geocoder's lookup structures are built from.
final class LookupCollector {
    /// The lookup structure a layer feeds: `LookupTablesWriter` builds each one once its last layer is read.
    enum Input: Hashable {
        case area(PlacesSchema.AreaLevel)
        case locality, postcode, address, thoroughfare

        init?(_ profile: LayerProfile) {
            switch profile.level {
            case .country: self = .area(.country)
            case .admin: self = .area(.admin)
            case .district: self = .area(.district)
            case .timezone: self = .area(.timezone)
            case .water: self = .area(profile.isMarine ? .ocean : .inlandWater)
            case .locality: self = .locality
            case .postcode: self = .postcode
            case .address: self = .address
            case .thoroughfare: self = .thoroughfare
            case .timezoneBand, .airport, .basemap, .poi, .building, .landuse: return nil
            }
        }
    }

    struct AreaFeature {
        var layer: String
        var fid: Int64
        var name: String?
        var code: String?
        var countryCode: String?
        /// An OpenStreetMap municipality's or suburb's own postcode, as Nominatim gives the place (`OSMAreaPostcodes`).
        var postcode: String? = nil
        /// A suburb made from a place node: the city-level feature holding the node, whose points alone it names.
        var municipality: Int? = nil
        /// What Nominatim calls an OpenStreetMap municipality or suburb in an address (`village`, `town`,
        /// `city`, `suburb`, `quarter`, `city_district`): its place type, or its linked place node's.
        var placeType: String? = nil
        /// The point Nominatim gives its answer: the place node, a boundary's linked node, else a point on its surface.
        var centre: Point2D? = nil
        /// An extract's area's own tagged postcode (`addr:postcode`, `postal_code`), normalised: of `postcode`, the part
        /// a place inside it inherits (`ReverseGeocoder.taggedPostcodeArea`), not one computed from the postcode points.
        var taggedPostcode: String? = nil
    }

    final class AreaLevelData {
        var features: [AreaFeature] = []
        var builder: AreaIndexBuilder

        /// `runPrefix`: where the builder's sort runs go (beside the database being built).
        init(runPrefix: String?) { builder = AreaIndexBuilder(runPrefix: runPrefix) }
    }

    struct Locality {
        var name: String
        var admin1: String?
        var admin2: String?
        var countryCode: String?
        var population: Double
        var coordinate: Coordinate
    }

    var areas: [PlacesSchema.AreaLevel: AreaLevelData] = [:]
    package var localities: [Locality] = []
    /// The reach of each of the extracts' localities, the first of `localities` (`ExtractPlaces`).
    var extractLocalityReaches: [Double] = []
    /// Whether the locality with this number and point only describes (a GeoNames place kept inside an extract's
    /// data, `ExtractPlaces`): it names nothing, its admin polygon included.
    var describingOnly: ((Int, Coordinate) -> Bool)?
    /// The postcode and address points, written as they arrive (records a page at a time, points to
    /// sorted runs on disk): made by `LookupTablesWriter`, which knows the database.
    var postcodes: PointLevelWriter?
    var addresses: PointLevelWriter?
    /// The first failure to write a point where the caller cannot throw (`collectAddress`,
    /// `collectPostcode`); `LookupTablesWriter` throws it once the layer is read.
    var pointFailure: (any Error)?
    /// The streets' segments, spilled to sorted runs on disk, and their names, stored a page at a time:
    /// both made by `LookupTablesWriter`, which knows the database.
    package var streets: StreetTilesBuilder?
    var streetNames: PagedRecordsWriter?
    /// OpenStreetMap's address points and POIs (`PlacesSchema.ObjectField`), by tile as the streets: each is
    /// its point, or the outline of the building or area it stands on.
    package var objects: StreetTilesBuilder?
    /// The extents of those with an outline, by the object cells they cover (`PlacesSchema.LineIndex.objectCovers`).
    var objectCovers: StreetTilesBuilder?
    /// The extents of the streets mapped as areas, by the street cells they cover (`PlacesSchema.LineIndex.streetCovers`).
    var streetCovers: StreetTilesBuilder?
    /// Their records wait here for the streets' tiles, which find the nearest street of those without a parent.
    var objectRecords: ObjectNearestStreets?
    /// The `addr:interpolation` lines and the records of their numbers.
    var interpolations = OSMInterpolationLines()
    /// The postcode (`OSMStreetPostcodes`) and country (its centroid's: `OSMCountryOfPoint`) of each OpenStreetMap
    /// street, by street number, on disk until the streets' records are stored.
    var streetPostcodes: StreetPostcodeTable?
    /// Country polygons by feature, kept apart from the builder: overseas parts may become their own
    /// territory once the time zones are known (`TerritoryAssignment`). They wait on disk (`OSMShapeFile`), read
    /// back a feature at a time: an extract's country boundaries are among its longest outlines, and held until the
    /// time zones were read they made the import's memory grow with the extract (issue 35).
    var countryPolygons: [OSMStoredShape] = []
    private var countryShapes: OSMShapeFile?
    /// Folders of the time-zone layers, where tzdata's zone.tab and iso3166.tab may lie beside them.
    var timeZoneFolders: [URL] = []
    /// Where the area levels' border segments wait, sorted by tile (`AreaIndexBuilder`): set by
    /// `LookupTablesWriter`, beside the database being built; nil: the system's temporary folder.
    var areaRunPrefix: String?

    /// A new area level's data, its sort runs named after the level.
    func newAreaLevel(_ level: PlacesSchema.AreaLevel) -> AreaLevelData {
        AreaLevelData(runPrefix: areaRunPrefix.map { $0 + level.rawValue + "-" })
    }

    /// Takes one imported record; returns a reason when the record is unusable for its level.
    func collect(_ shape: Shape, record: Int, fid: Int64, plan: LayerPlan) throws -> String? {
        guard let input = Input(plan.profile) else { return nil }
        switch input {
        case .area(let level):
            if level == .timezone {
                let folder = plan.url.deletingLastPathComponent()
                if !timeZoneFolders.contains(folder) { timeZoneFolders.append(folder) }
            }
            return addArea(level, shape, record, fid, plan)
        case .locality:
            guard let name = plan.text(.name, record: record) else { return "no name" }
            guard let point = Self.firstPoint(shape) else { return "not a point" }
            localities.append(
                Locality(
                    name: name, admin1: plan.text(.admin1, record: record), admin2: plan.text(.admin2, record: record),
                    countryCode: plan.text(.countryCode, record: record)?.uppercased(),
                    population: max(0, plan.number(.population, record: record) ?? 0), coordinate: point))
        case .postcode:
            guard let code = plan.text(.postcode, record: record) ?? plan.text(.name, record: record) else { return "no postcode" }
            guard let point = Self.firstPoint(shape) else { return "not a point" }
            try postcodes?.add([code], at: point)
        case .address:
            guard let number = plan.text(.houseNumber, record: record) else { return "no house number" }
            guard let point = Self.firstPoint(shape) else { return "not a point" }
            try addresses?.add([number, plan.text(.street, record: record), plan.text(.postcode, record: record)], at: point)
        case .thoroughfare:
            // Unnamed lines (footways, service roads) are kept in the layer but cannot name a street.
            guard let name = plan.text(.name, record: record) ?? plan.text(.ref, record: record),
                let streets, var names = streetNames
            else { return nil }
            // The only reference while appending, so that the page is not copied (`collectStreet`).
            streetNames = nil
            defer { streetNames = names }
            try streets.add(line: UInt32(names.recordCount), lines: shape.lines)
            // An OpenStreetMap layer's highway class (GDAL's `highway`, Geofabrik's `fclass`) ranks it as Nominatim would.
            let rank = plan.text(.kind, record: record).map { OSMFeatureClassifier.streetRank($0) }
            objectRecords?.addStreet(named: !name.isEmpty, minor: rank == 27)
            var fields = [String?](repeating: nil, count: PlacesSchema.StreetField.allCases.count)
            fields[PlacesSchema.StreetField.name.rawValue] = name
            fields[PlacesSchema.StreetField.rank.rawValue] = rank.map(String.init)
            try names.append(fields)
        }
        return nil
    }

    private func addArea(_ level: PlacesSchema.AreaLevel, _ shape: Shape, _ record: Int, _ fid: Int64, _ plan: LayerPlan) -> String? {
        let rings = shape.rings
        guard !rings.isEmpty else { return "not a polygon" }
        let data: AreaLevelData
        if let known = areas[level] {
            data = known
        } else {
            data = newAreaLevel(level)
            areas[level] = data
        }
        if level == .country {
            keepCountryPolygons(shape)
        } else {
            data.builder.add(feature: data.features.count, rings: rings)
        }
        data.features.append(
            AreaFeature(
                layer: plan.table, fid: fid, name: plan.text(.name, record: record).map { Self.displayName($0, level: level) },
                code: level == .country ? plan.text(.code, record: record)?.uppercased() : plan.text(.code, record: record),
                countryCode: plan.text(.countryCode, record: record)?.uppercased()))
        return nil
    }

    /// Writes out the sort buffers of everything collected so far and lets go of them (`ExternalSorter.seal`): called
    /// after each step of an extract's end, as what one step filled waits for the tables' build at the end while the
    /// next step fills its own. Held together they made the import's memory grow with the extract until every
    /// buffer was full (issue 35).
    func sealSorters() throws {
        for data in areas.values { data.builder.seal() }
        try streets?.seal()
        try objects?.seal()
        try objectCovers?.seal()
        try streetCovers?.seal()
        try objectRecords?.seal()
        try addresses?.seal()
        try postcodes?.seal()
    }

    /// Writes a country feature's polygons to the spill file, created beside the database being built at the first;
    /// a failure to write waits in `pointFailure`, as the callers cannot throw.
    func keepCountryPolygons(_ shape: Shape) {
        guard pointFailure == nil else { return }
        do {
            if countryShapes == nil {
                countryShapes = try OSMShapeFile(
                    path: (areaRunPrefix ?? NSTemporaryDirectory() + "travel411-\(getpid())-") + "country-shapes")
            }
            if let countryShapes { countryPolygons.append(try countryShapes.store(.multiPolygon(Self.polygons(shape)))) }
        } catch {
            pointFailure = error
        }
    }

    /// The polygons of country feature `feature`, read back from disk; none for a feature without polygons.
    func countryPolygons(of feature: Int) -> [Polygon] {
        feature < countryPolygons.count ? Self.polygons(countryPolygons[feature].shape) : []
    }

    /// Throws the first failure to read a country's polygons back, then lets go of the spill file.
    func discardCountryPolygons() throws {
        countryPolygons = []
        defer { countryShapes = nil }
        try countryShapes?.checkReads()
    }

    static func polygons(_ shape: Shape) -> [Polygon] {
        switch shape {
        case .polygon(let polygon): return [polygon]
        case .multiPolygon(let polygons): return polygons
        default: return []
        }
    }

    static func firstPoint(_ shape: Shape) -> Coordinate? {
        switch shape {
        case .point(let p): return Coordinate(latitude: p.y, longitude: p.x)
        case .multiPoint(let points): return points.first.map { Coordinate(latitude: $0.y, longitude: $0.x) }
        default: return nil
        }
    }

    /// Natural Earth writes sea names in capitals ("NORTH ATLANTIC OCEAN"); people read "North Atlantic Ocean".
    static func displayName(_ name: String, level: PlacesSchema.AreaLevel) -> String {
        // Natural Earth's marine polygons write "Ross  Sea" with two spaces; a run of spaces is never part of a name.
        let name = name.contains("  ") ? name.replacing(/\ {2,}/, with: " ") : name
        guard level == .ocean, name == name.uppercased(), name != name.lowercased() else { return name }
        let small: Set<String> = ["of", "the", "and", "de", "du", "la"]
        return name.lowercased().split(separator: " ", omittingEmptySubsequences: false).enumerated().map { index, word in
            index > 0 && small.contains(String(word)) ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
        }.joined(separator: " ")
    }
}
