/// The tables travel411 adds to the GeoPackage for fast lookups. They are plain SQLite tables that
/// GeoPackage readers ignore; the GeoPackage layers themselves stay the source of truth.
public enum PlacesSchema {
    /// Bumped whenever the lookup tables change shape; an older database is rebuilt, not misread.
    public static let version = "46"
    /// The metadata entry holding when the newest extract's data was current (`OSMReadSummary.dataTimestamp`).
    package static let osmDataTimestampKey = "osm_data_timestamp"
    /// How the description of a table of Nominatim's country grid pieces begins (an extract's countries where it
    /// holds no country boundary).
    package static let countryGridDescription = "Nominatim's country grid (country_osm_grid, nominatim-db 5.3.3)"

    /// The polygon levels with an `AreaIndex`, in the order their keys are numbered.
    public enum AreaLevel: String, CaseIterable, Sendable {
        case country, admin, district, timezone, ocean, inlandWater
        /// OpenStreetMap's municipalities and place areas, which name the locality (Nominatim's `city`) of
        /// every point inside them, and its suburbs and quarters, which name the subLocality.
        case city, suburb

        /// Inlinable, as `init(ordinal:)`: the geocoder asks it several times per point per level.
        @inlinable package var ordinal: Int64 {
            switch self {
            case .country: return 0
            case .admin: return 1
            case .district: return 2
            case .timezone: return 3
            case .ocean: return 4
            case .inlandWater: return 5
            case .city: return 6
            case .suburb: return 7
            }
        }
        @inlinable package static var count: Int { 8 }

        /// The level of an ordinal, the inverse of `ordinal` (a switch, not `allCases`, for the hot path:
        /// the lockstep lookups carry levels as ordinals in SIMD lanes). Inlinable: the geocoder calls it per
        /// level per point from another module, where an opaque call cost about 1 % of an every-field batch.
        @inlinable @inline(__always) package init(ordinal: Int) {
            switch ordinal {
            case 0: self = .country
            case 1: self = .admin
            case 2: self = .district
            case 3: self = .timezone
            case 4: self = .ocean
            case 5: self = .inlandWater
            case 6: self = .city
            default: self = .suburb
            }
        }

        /// Tiles of all levels share one integer key space.
        package func tileKey(_ tile: Int) -> Int64 { ordinal * 100_000 + Int64(tile) }
    }

    /// The point levels: the localities with a `PointIndex`, the postcodes and addresses with `PointTiles`.
    public enum PointLevel: String, CaseIterable, Sendable {
        case locality, postcode, address

        package var ordinal: Int64 { Int64(PointLevel.allCases.firstIndex(of: self) ?? 0) }
    }

    /// What a row of `travel411_pages` holds; its key packs this, a level and a page number.
    package enum PageKind: Int64 {
        case pointNodes = 1, pointRecords = 2, streetRecords = 3, localityCells = 4, localityGroups = 5
        /// One 0.1° tile of the streets' `StreetTiles`, numbered by its place in the directory.
        case streetTiles = 6
        /// One 0.1° tile of a point level's `PointTiles` (postcodes, addresses), numbered likewise.
        case pointTiles = 7
        /// One 1° tile of a level's place nodes (`PlaceNodePages`), the level numbered by `AreaLevel.ordinal`.
        case placeNodeTiles = 8
        /// The place nodes of 256 features of a level, by feature (`PlaceNodePages`).
        case placeNodeFeatures = 9

        package func key(level: Int64, page: Int) -> Int64 { rawValue << 40 | level << 32 | Int64(page) }
    }

    /// Record fields stored per point level, in order.
    package enum LocalityField: Int, CaseIterable { case name, admin1, admin2, countryCode }
    package enum AddressField: Int, CaseIterable { case houseNumber, street, postcode }
    /// A street's record: its name (empty for an unnamed OpenStreetMap street), Nominatim's rank of its
    /// class (`26`, `27`; empty from a shapefile), its OpenStreetMap element (`W123`), its class
    /// (`residential`), its extent (`minX minY maxX maxY`), an area's point on its surface (`centre`, empty
    /// for a line) and Nominatim's centroid (`x y`: that point, or the point halfway along a line), which
    /// places the street in its own municipality.
    package enum StreetField: Int, CaseIterable { case name, rank, element, kind, extent, centre, centroid }
    /// An OpenStreetMap address point or point of interest (`OSMObjects`): its name, house number, the
    /// street its address names (`addr:street`), postcode, element (`N123`), main tag (`amenity=bench`) and, for
    /// one on a building or area, the extent of its outline (`minX minY maxX maxY`), and the point that stands
    /// for it (`x y`: its node, or a point on its surface), and its parent street's number (`OSMParentStreets`;
    /// empty when its `addr:street` names no street near; `place` when it is numbered in a place and on no street,
    /// which has none: `ObjectNearestStreets.placeAddress`), and its country (upper-case ISO 3166-1, of its point:
    /// Nominatim's `placex.country_code`, which a Nominatim answer takes; `OSMCountryOfPoint`), and the municipality
    /// its own `addr:city` names (the city level's feature number, `OSMAddressCity`; empty for none), and the lines its
    /// `addr:place` adds to its address (`AddressPlaceLine.text`: the parent place; empty for none).
    package enum ObjectField: Int, CaseIterable {
        case name, houseNumber, street, postcode, element, category, extent, centre, parent, nearestStreet, country, city
        case placeLines
    }
    /// A piece of an `addr:interpolation` line (`LineIndex.interpolations`, Nominatim's `location_property_osmline` row):
    /// its first and last house number and step, the object record of its first number (the others follow, a step
    /// each: records only, in no nearest search), its parent street's number, and its points (`x y x y ...`).
    package enum InterpolationField: Int, CaseIterable { case start, end, step, firstObject, parent, line }
    /// A street's fields in the street postcodes' records (`LineIndex.streetPostcodes`): its postcode, its country
    /// (upper-case ISO 3166-1, of its centroid, as `ObjectField.country`) and `1` when the postcode is its own tag
    /// (empty when computed: a place node named in its address may give another, `ReverseGeocoder.placeNodePostcode`).
    package enum StreetPostcodeField: Int, CaseIterable { case postcode, country, own }
    /// The rows of `travel411_line_indexes`: the streets, OpenStreetMap's addresses and POIs, and the
    /// streets' postcodes and addresses (records only).
    package enum LineIndex: String {
        case thoroughfare, objects = "osm_objects", streetPostcodes = "street_postcodes"
        /// Each building's or area's extent, one segment from corner to corner, in every object cell it covers
        /// (`ObjectCovers`): the outlines that may hold a point.
        case objectCovers = "osm_object_covers"
        /// Each street mapped as an area's extent (a pedestrian square), as `objectCovers` by the street cells: the
        /// squares that may hold a point, which is then at distance 0 from them.
        case streetCovers = "osm_street_covers"
        /// The address points and buildings of each street, by street number (`StreetAddresses`; records only).
        case streetAddresses = "osm_street_addresses"
        /// The pieces of `addr:interpolation` lines (`InterpolationField`), by tile as the streets; none without any.
        case interpolations = "osm_interpolations"
    }

    /// Created after the rows are in, which is faster than maintaining them during the insert.
    package static let localityIndexStatements = """
        CREATE INDEX travel411_localities_name ON travel411_localities (name COLLATE NOCASE);
        CREATE INDEX travel411_localities_latitude ON travel411_localities (latitude);
        """

    /// The areas by the feature table row they were made from: a lookup asks whether a place node has an area of its
    /// own (`FinePlaceNodes.load`) for the few nodes around its point, where without it the question reads every area
    /// of the layer. A database without it answers the same, slower.
    package static let areaElementIndexName = "travel411_areas_by_element"
    package static let areaElementIndexStatement = "CREATE INDEX \(areaElementIndexName) ON travel411_areas (layer, fid)"

    /// `travel411_point_indexes.tree` holds the localities' k-d tree top blob (`PointIndex`), and the
    /// `PointTiles` directory of the postcodes and addresses.
    package static let createStatements = """
        CREATE TABLE travel411_areas (
            level TEXT NOT NULL, feature INTEGER NOT NULL, layer TEXT NOT NULL, fid INTEGER NOT NULL,
            name TEXT, code TEXT, country_code TEXT, administrative_area TEXT, sub_administrative_area TEXT,
            administrative_area_code TEXT, country_feature INTEGER, first_level_area INTEGER, postcode TEXT,
            municipality INTEGER, place_type TEXT, centre TEXT, tagged_postcode TEXT, PRIMARY KEY (level, feature));
        CREATE TABLE travel411_area_tiles (key INTEGER PRIMARY KEY, reference INTEGER NOT NULL, blob BLOB);
        CREATE TABLE travel411_point_indexes (
            level TEXT PRIMARY KEY, min_x REAL, min_y REAL, max_x REAL, max_y REAL, tree BLOB NOT NULL, record_pages INTEGER NOT NULL);
        CREATE TABLE travel411_pages (key INTEGER PRIMARY KEY, blob BLOB NOT NULL);
        CREATE TABLE travel411_localities (
            id INTEGER PRIMARY KEY, name TEXT NOT NULL, admin1 TEXT, admin2 TEXT, cc TEXT, population INTEGER,
            latitude REAL NOT NULL, longitude REAL NOT NULL);
        CREATE TABLE travel411_line_indexes (level TEXT PRIMARY KEY, lines BLOB NOT NULL, record_pages INTEGER NOT NULL);
        """
}
