import Travel411Core

/// What the importer takes from an OpenStreetMap element. One element can give several features: a shop with
/// `addr:*` tags is a `poi` and an `address`; a boundary relation with `place=*` is an `adminBoundary` whose `place` says
/// how it is named (`OSMAdministrativeBoundary.place`), and a `place` only when it is no administrative boundary.
public enum OSMFeatureKind: String, CaseIterable, Hashable, Sendable, Comparable {
    /// A way with `highway=*` and a `name` or `ref`: a line.
    case street
    /// `addr:housenumber` on a node (its point) or on a building or other area (a point on its surface).
    case address
    /// A way with `addr:interpolation`: a line between two address nodes.
    case addressInterpolation
    /// A named `place=*` node (a point) or area (a polygon).
    case place
    /// `boundary=administrative` with `admin_level` 2 to 12: a polygon.
    case adminBoundary
    /// `boundary=postal_code` with a postcode: a polygon.
    case postcodeBoundary
    /// Any other object carrying `addr:postcode` (a residential area, a street): Nominatim places a postcode
    /// at the mean of every object that carries it.
    case postcodePoint
    /// A named amenity, shop, tourism, leisure, historic, office, craft, healthcare or emergency feature: a
    /// point (a node's, or one on the area's surface).
    case poi

    public static func < (lhs: OSMFeatureKind, rhs: OSMFeatureKind) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// The three kinds of OpenStreetMap element.
public enum OSMElementType: String, Hashable, Sendable {
    case node, way, relation
}

/// An element as OpenStreetMap names it: `way 4567` is https://www.openstreetmap.org/way/4567.
public struct OSMElementID: Hashable, Sendable, CustomStringConvertible {
    public var type: OSMElementType
    public var id: Int64

    public init(_ type: OSMElementType, _ id: Int64) {
        self.type = type
        self.id = id
    }

    public var description: String { "\(type.rawValue) \(id)" }
}

/// The `addr:*` tags of an address (and of a POI or place that has them).
public struct OSMAddress: Hashable, Sendable {
    public var housenumber: String?
    public var street: String?
    /// `addr:place`: the hamlet or square the house is numbered in when it has no street.
    public var place: String?
    public var postcode: String?
    public var city: String?
    /// `addr:housename`: a building named in its address (`The Johnson Building`).
    public var housename: String?
    /// The house number is a name to Nominatim (`OSMFeatureClassifier.isName(houseNumber:)`): printed, but no address point.
    public var housenumberIsName = false
    /// `addr:quarter` or `addr:neighbourhood`: in Japan's block addressing, the place the house is numbered in, which
    /// Nominatim 5.3 takes as `addr:place` there (`tag-japanese`, tokenizer/sanitizers/tag_japanese.py).
    public var hasJapanesePlace = false

    public init(
        housenumber: String? = nil, street: String? = nil, place: String? = nil, postcode: String? = nil, city: String? = nil,
        housename: String? = nil
    ) {
        self.housenumber = housenumber
        self.street = street
        self.place = place
        self.postcode = postcode
        self.city = city
        self.housename = housename
    }

    public var isEmpty: Bool { housenumber == nil && street == nil && place == nil && postcode == nil && city == nil && housename == nil }

    /// An address point as Nominatim 5.3's reverse search takes one (`IsAddressPoint`,
    /// nominatim_api/sql/sqlalchemy_functions.py): a house number, or a house name (its import style keeps
    /// `addr:housename` as a name: `NAME_TAGS.address`, lib-lua/themes/nominatim/presets.lua).
    public var isAddressPoint: Bool { (housenumber != nil && !housenumberIsName) || housename != nil }
}

/// A street's `highway` class (`residential`, `primary`, `footway` …) and `ref` (`A 1`, `E 77`).
public struct OSMHighway: Hashable, Sendable {
    public var highwayClass: String
    public var ref: String?
    /// The street's other names, each once, beside the one its answer shows (`OSMFeature.name`): its `name:xx`,
    /// `alt_name`, `official_name` and the other main names of `OSMNameTags`. Nominatim 5.3 keeps them all in the
    /// street's name column, whose full names its `name_vector` holds (`ICUNameAnalyzer._compute_name_tokens`,
    /// nominatim_db/tokenizer/icu_tokenizer.py), and an `addr:street` that spells any one of them names the street
    /// (`token_matches_street`, lib-sql/tokenizer/icu_tokenizer.sql: the street tokens overlap the name vector).
    public var otherNames: [String]

    public init(highwayClass: String, ref: String? = nil, otherNames: [String] = []) {
        self.highwayClass = highwayClass
        self.ref = ref
        self.otherNames = otherNames
    }
}

/// An `addr:interpolation` line: the scheme (`odd`, `even`, `all`, `alphabetic` or a step) and the house numbers
/// of its end nodes when they carry one (they usually do: the line runs between two address nodes).
public struct OSMInterpolation: Hashable, Sendable {
    public var scheme: String
    public var firstNode: Int64
    public var lastNode: Int64
    public var firstHousenumber: String?
    public var lastHousenumber: String?
    /// The house number of each point of the line (nil where its node has none), numbered nodes between the ends
    /// included; empty when the reader did not give them (then only the ends count).
    public var housenumbers: [String?]
    /// The `addr:postcode` of each point's node when it carries a house number too (nil elsewhere), as `housenumbers`;
    /// empty when the reader did not give them.
    public var postcodes: [String?]
    /// The `addr:street` (else `addr:place`) of the first of its nodes that has one: the street of a line without
    /// its own (Nominatim's `get_interpolation_address`).
    public var nodeStreet: String?

    public init(
        scheme: String, firstNode: Int64, lastNode: Int64, firstHousenumber: String? = nil, lastHousenumber: String? = nil,
        housenumbers: [String?] = [], postcodes: [String?] = [], nodeStreet: String? = nil
    ) {
        self.scheme = scheme
        self.firstNode = firstNode
        self.lastNode = lastNode
        self.firstHousenumber = firstHousenumber
        self.lastHousenumber = lastHousenumber
        self.housenumbers = housenumbers
        self.postcodes = postcodes
        self.nodeStreet = nodeStreet
    }
}

/// `place=*` (`city`, `town`, `village`, `hamlet`, `suburb`, `quarter`, `neighbourhood`, `locality` …), its
/// `population` when that is a number, and whether it is a capital (`capital=yes`: Nominatim ranks it one
/// above its kind, Helsinki 15). A named landuse area is a place too, of `key` `landuse` and its value as `type`
/// (`OSMElementFeatures.landuseArea`).
public struct OSMPlace: Hashable, Sendable {
    public var type: String
    public var population: Int?
    public var isCapital: Bool
    /// The main tag's key, which Nominatim ranks the place by (`place`, `landuse`: settings/address-levels.json).
    public var key: String

    public init(type: String, population: Int? = nil, isCapital: Bool = false, key: String = "place") {
        self.type = type
        self.population = population
        self.isCapital = isCapital
        self.key = key
    }
}

/// `boundary=administrative`: its `admin_level` (2 country, 4 state, 6 county, 8 municipality, 10 district, as the
/// country's own scheme says) and its ISO 3166 codes when it has them.
public struct OSMAdministrativeBoundary: Hashable, Sendable {
    public var adminLevel: Int
    /// `ISO3166-1` or `ISO3166-1:alpha2`, upper-cased: "LI".
    public var iso3166_1: String?
    /// `ISO3166-2`, upper-cased: "FI-18".
    public var iso3166_2: String?
    /// Its own `place=*` (`borough`, `locality`): the key Nominatim names it under in an address.
    public var place: String?

    public init(adminLevel: Int, iso3166_1: String? = nil, iso3166_2: String? = nil, place: String? = nil) {
        self.adminLevel = adminLevel
        self.iso3166_1 = iso3166_1
        self.iso3166_2 = iso3166_2
        self.place = place
    }
}

/// A POI's defining tag: `amenity=restaurant`, `shop=bakery`, `tourism=museum`.
public struct OSMPointOfInterest: Hashable, Sendable {
    public var key: String
    public var value: String

    public init(key: String, value: String) {
        self.key = key
        self.value = value
    }
}

/// One feature read from an extract. `kind` says which of the optional parts is set (always): `highway` for a
/// street, `address` for an address, `interpolation` (and `address` with its street) for an interpolation line,
/// `place`, `adminBoundary`, `postcode` for a postcode boundary, `pointOfInterest` for a POI. `address` may be
/// set on other kinds too (a POI's or a place's own `addr:*` tags).
public struct OSMFeature: Hashable, Sendable {
    public var kind: OSMFeatureKind
    public var element: OSMElementID
    /// `name`, when the element has one.
    public var name: String?
    /// The `name:xx` translations by their suffix: `["de": "Wien", "en": "Vienna"]`.
    public var names: [String: String]
    /// A point (nodes, and addresses and POIs on areas: a point on the surface), a line (streets, interpolation
    /// lines) or a polygon (places on areas, boundaries), in degrees (x longitude, y latitude), rings closed.
    public var shape: Shape
    public var address: OSMAddress?
    public var highway: OSMHighway?
    public var interpolation: OSMInterpolation?
    public var place: OSMPlace?
    public var adminBoundary: OSMAdministrativeBoundary?
    /// A postcode boundary's postcode (`postal_code`, else `addr:postcode`); an administrative boundary's `postal_code`.
    public var postcode: String?
    public var pointOfInterest: OSMPointOfInterest?
    /// The rings of the building or area an address or POI stands on (empty for a node): how near it is
    /// is measured to them.
    public var outline: [[Point2D]] = []
    /// A street mapped as an area (a pedestrian square): a point on its surface, Nominatim's centroid of it.
    public var areaCentre: Point2D?
    /// Whether Nominatim answers with this address or POI at zoom 18 (its rank 30); a garden or a landuse
    /// area with an address is not.
    public var answersAtBuildingLevel = true
    /// The `building` tag of an address on a building (`public`, `yes`), which Nominatim names it by.
    public var building: String?
    /// A place's or a boundary's `wikidata` item ("Q1916043"), by which Nominatim links a boundary to its place
    /// node (`find_linked_place`).
    public var wikidata: String?
    /// A boundary's `label` node member's id, the place node Nominatim links it to first (`find_linked_place`); for a
    /// place node, whether a boundary names it so (`labelNode` of that boundary).
    public var labelNode: Int64?
    public var isLabelMember = false

    /// A street's names an `addr:street` may spell: the one it shows, then its others (`OSMHighway.otherNames`); none
    /// for a street without a name (one named by its `ref` only is matched by that, `OSMParentStreets.add(street:ref:)`).
    public var streetNames: [String] {
        guard let name else { return [] }
        return [name] + (highway?.otherNames ?? [])
    }

    public init(kind: OSMFeatureKind, element: OSMElementID, name: String? = nil, names: [String: String] = [:], shape: Shape) {
        self.kind = kind
        self.element = element
        self.name = name
        self.names = names
        self.shape = shape
    }

    /// One point that stands for the feature: the point itself, the point halfway along a line, a point on a
    /// polygon's surface (inside it, unlike a centroid, which can fall in a hole or outside a crescent).
    public var representativePoint: Point2D { shape.pointOnSurface }
}
