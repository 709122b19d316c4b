import Travel411Shapefile
import Travel411Store

/// The shape a shapefile feeding each level must have.
extension PlaceLevel {
    public var expectedGeometry: ShapefileGeometryKind? {
        switch self {
        case .country, .admin, .district, .timezone, .water, .timezoneBand, .basemap: return .polygon
        case .locality, .address, .postcode, .airport: return .point
        case .thoroughfare: return .polyline
        case .poi, .building, .landuse: return nil
        }
    }
}

/// The role a DBF field plays for the geocoder.
public enum FieldRole: String, Sendable {
    case name, code, countryCode, admin1, admin2, population, ref, houseNumber, street, postcode, kind
    /// An address's `addr:city`.
    case city
}

/// A known shapefile layout: which level it feeds and which fields hold what. Roles list candidate
/// field names in order of preference; matching is case-insensitive.
public struct LayerProfile: Sendable {
    public var layout: String
    public var level: PlaceLevel
    /// Polygons of a `.water` layer name an ocean or sea rather than a lake.
    public var isMarine = false
    public var roles: [FieldRole: [String]]
    /// Fields that must all exist for the layout to be recognised.
    var requiredFields: [String]
    /// A file-name fragment that must appear, for layouts whose fields are too generic to tell apart.
    var fileNameContains: [String] = []
    /// The geometry the file must hold, where it is not the level's (a building's address is a polygon).
    var geometry: ShapefileGeometryKind?
    /// OpenStreetMap tags read from GDAL's `other_tags` hstore field when the role's own fields are empty.
    var otherTags: [FieldRole: [String]] = [:]
    /// A record feeds the lookups only when this role has a value (GDAL's `lines` hold rivers and railways
    /// beside the highways); the others stay in the layer.
    var usedOnlyWith: FieldRole?

    func matches(fileName: String, fieldNames: Set<String>, geometry: ShapefileGeometryKind) -> Bool {
        let lowered = fileName.lowercased()
        if !fileNameContains.isEmpty, !fileNameContains.contains(where: { lowered.contains($0) }) { return false }
        if let expected = self.geometry ?? level.expectedGeometry, expected != geometry,
            !(expected == .point && geometry == .multiPoint)
        {
            return false
        }
        return requiredFields.allSatisfy { fieldNames.contains($0.lowercased()) }
    }

    /// The known layouts, most specific first.
    public static let known: [LayerProfile] = [
        LayerProfile(
            layout: "Natural Earth admin 0 (small-scale basemap)", level: .basemap,
            roles: [.name: ["NAME_LONG", "ADMIN", "NAME"], .code: ["ADM0_A3"]],
            requiredFields: ["ADMIN", "ADM0_A3"], fileNameContains: ["_50m_", "_110m_"]),
        LayerProfile(
            layout: "Natural Earth admin 1", level: .admin,
            roles: [.name: ["name"], .code: ["iso_3166_2"], .countryCode: ["iso_a2"]],
            requiredFields: ["name", "iso_3166_2", "adm0_a3"]),
        LayerProfile(
            layout: "Natural Earth admin 0 countries", level: .country,
            roles: [.name: ["NAME_LONG", "ADMIN", "NAME"], .code: ["ISO_A2_EH", "ISO_A2"], .kind: ["ADM0_A3"]],
            requiredFields: ["ADMIN", "ADM0_A3", "ISO_A2"]),
        LayerProfile(
            layout: "London boroughs", level: .district,
            roles: [.name: ["NAME"], .code: ["GSS_CODE"]],
            requiredFields: ["NAME", "GSS_CODE"]),
        LayerProfile(
            layout: "GeoNames places", level: .locality,
            roles: [.name: ["name"], .admin1: ["admin1"], .admin2: ["admin2"], .countryCode: ["cc"], .population: ["population"]],
            requiredFields: ["name", "admin1", "cc", "population"]),
        LayerProfile(
            layout: "Geofabrik gis_osm_places_free_1", level: .locality,
            roles: [.name: ["name"], .population: ["population"], .kind: ["fclass"]],
            requiredFields: ["name", "fclass", "population"]),
        LayerProfile(
            layout: "Geofabrik gis_osm_roads_free_1", level: .thoroughfare,
            roles: [.name: ["name"], .ref: ["ref"], .kind: ["fclass"]],
            requiredFields: ["name", "fclass", "ref"]),
        LayerProfile(
            layout: "GDAL OpenStreetMap lines", level: .thoroughfare,
            roles: [.name: ["name"], .ref: ["ref"], .kind: ["highway"]],
            requiredFields: ["osm_id", "name", "highway", "waterway", "other_tags"],
            otherTags: [.ref: ["ref"]], usedOnlyWith: .kind),
        LayerProfile(
            layout: "GDAL OpenStreetMap points with address columns", level: .address,
            roles: osmAddressColumns, requiredFields: ["osm_id", "addr_house"], otherTags: osmAddressTags),
        LayerProfile(
            layout: "GDAL OpenStreetMap points", level: .address,
            roles: osmAddressColumns, requiredFields: ["osm_id", "name", "is_in", "place", "other_tags"],
            otherTags: osmAddressTags),
        LayerProfile(
            layout: "GDAL OpenStreetMap multipolygons (addresses of buildings)", level: .address,
            roles: osmAddressColumns, requiredFields: ["osm_id", "osm_way_id", "building", "other_tags"],
            geometry: .polygon, otherTags: osmAddressTags),
        LayerProfile(
            layout: "Geofabrik gis_osm_places_a_free_1", level: .locality,
            roles: [.name: ["name"], .population: ["population"], .kind: ["fclass"]],
            requiredFields: ["osm_id", "name", "fclass", "population"], geometry: .polygon),
        LayerProfile(
            layout: "Geofabrik gis_osm_pois_free_1", level: .poi,
            roles: [.name: ["name"], .kind: ["fclass"]],
            requiredFields: ["osm_id", "code", "fclass", "name"], fileNameContains: ["pois"]),
        LayerProfile(
            layout: "Geofabrik gis_osm_buildings_a_free_1", level: .building,
            roles: [.name: ["name"], .kind: ["type"]],
            requiredFields: ["osm_id", "code", "fclass", "name", "type"], fileNameContains: ["buildings"]),
        LayerProfile(
            layout: "Geofabrik gis_osm_landuse_a_free_1", level: .landuse,
            roles: [.name: ["name"], .kind: ["fclass"]],
            requiredFields: ["osm_id", "code", "fclass", "name"], fileNameContains: ["landuse"]),
        LayerProfile(
            layout: "Geofabrik gis_osm_water_a_free_1", level: .water,
            roles: [.name: ["name"], .kind: ["fclass"]],
            requiredFields: ["osm_id", "code", "fclass", "name"], fileNameContains: ["water_a"]),
        LayerProfile(
            layout: "OpenStreetMap highway lines", level: .thoroughfare,
            roles: [.name: ["name"], .ref: ["ref"], .kind: ["highway"]],
            requiredFields: ["name", "highway"]),
        LayerProfile(
            layout: "IANA time zones (timezone-boundary-builder)", level: .timezone,
            roles: [.name: ["tzid"]],
            requiredFields: ["tzid"]),
        LayerProfile(
            layout: "Natural Earth time zones (UTC offset bands)", level: .timezoneBand,
            roles: [.name: ["time_zone"], .code: ["tz_name1st"]],
            requiredFields: ["time_zone", "zone"]),
        LayerProfile(
            layout: "Natural Earth marine polygons", level: .water, isMarine: true,
            roles: [.name: ["name"], .kind: ["featurecla"]],
            requiredFields: ["featurecla", "name", "name_fr"]),
        LayerProfile(
            layout: "Natural Earth lakes", level: .water,
            roles: [.name: ["name"], .kind: ["featurecla"]],
            requiredFields: ["featurecla", "name", "name_abb"]),
        LayerProfile(
            layout: "Ordnance Survey Code-Point Open", level: .postcode,
            roles: [.name: ["postcode"]],
            requiredFields: ["postcode", "pc_area"]),
        LayerProfile(
            layout: "OpenStreetMap address points", level: .address,
            roles: [
                .houseNumber: ["housenum", "addr_hous", "housenumber"], .street: ["street", "addr_stree"],
                .postcode: ["postcode", "addr_postc"], .name: ["name"],
            ],
            requiredFields: ["housenum", "street"]),
        LayerProfile(
            layout: "Natural Earth airports", level: .airport,
            roles: [.name: ["name"], .code: ["iata_code"], .ref: ["gps_code"]],
            requiredFields: ["iata_code", "gps_code", "name"]),
    ]

    /// GDAL's OSM driver names a column after its tag, laundered and cut to ten characters for a DBF
    /// (`addr:housenumber` becomes `addr_house`), when its configuration lists the tag.
    static let osmAddressColumns: [FieldRole: [String]] = [
        .houseNumber: ["addr_house"], .street: ["addr_stree", "addr_place"], .postcode: ["addr_postc"],
        .city: ["addr_city"], .name: ["name"],
    ]
    /// The same tags in `other_tags`, where the default configuration puts them.
    static let osmAddressTags: [FieldRole: [String]] = [
        .houseNumber: ["addr:housenumber"], .street: ["addr:street", "addr:place"], .postcode: ["addr:postcode"],
        .city: ["addr:city"],
    ]

    /// A profile for a layout the user mapped with `--level` and `--name-field`.
    public static func userMapped(level: PlaceLevel, nameField: String) -> LayerProfile {
        var roles: [FieldRole: [String]] = [.name: [nameField]]
        // ISO 3166 alpha-2 codes under their usual field names: placemarks need the country code to pick a
        // locality of the same country, and to fill in the country of places that lack one.
        let alpha2Fields = ["iso_a2", "iso2", "cc", "country_code"]
        switch level {
        case .country: roles[.code] = alpha2Fields
        case .admin: roles[.countryCode] = alpha2Fields
        case .postcode: roles[.postcode] = [nameField]
        case .address:
            roles[.houseNumber] = [nameField]
            roles[.street] = ["street", "addr_stree"]
            roles[.postcode] = ["postcode"]
        case .locality:
            roles[.population] = ["population", "pop"]
            roles[.countryCode] = ["cc", "iso_a2", "country_code"]
        case .thoroughfare: roles[.ref] = ["ref"]
        default: break
        }
        return LayerProfile(
            layout: LayoutMapping(level: level.rawValue, nameField: nameField).layout, level: level,
            isMarine: false, roles: roles, requiredFields: [nameField])
    }
}
