import Travel411Core

/// The answer for one coordinate, with Apple's CLPlacemark field names so that app developers
/// recognise them. Every field may be nil: at sea most are.
public struct Placemark: Hashable, Sendable, Encodable {
    public var location: Coordinate
    public var name: String?
    public var thoroughfare: String?
    public var subThoroughfare: String?
    public var locality: String?
    public var subLocality: String?
    public var administrativeArea: String?
    /// ISO 3166-2 code of the administrativeArea ("DE-BY"); nil where the data does not know it reliably.
    public var administrativeAreaCode: String?
    public var subAdministrativeArea: String?
    public var postalCode: String?
    public var country: String?
    public var isoCountryCode: String?
    /// The point lies outside every country polygon, and `country` is that of the territorial waters it is in.
    public var countryFromTerritorialWaters = false
    public var timeZone: String?
    public var inlandWater: String?
    public var ocean: String?
    /// The nearest locality point, with the distance and bearing from it to the queried location.
    public var nearestLocality: NearbyPlace?
    /// The OpenStreetMap street, address or point of interest that answers; nil from other data.
    public var feature: AnsweringFeature?
    /// The OpenStreetMap polygons or place nodes behind `locality` and `subLocality`, when they come from an
    /// extract: what Nominatim names at zoom 10-14, or where no street or building is near.
    public var localityFeature: AnsweringFeature?
    public var subLocalityFeature: AnsweringFeature?
    /// The municipality boundary of a coarser rank holding `localityFeature` (Andorra's parish Ordino, rank 14, around
    /// the village Sornàs, 16), which Nominatim's address lists after it; the Nominatim formats only.
    public var enclosingMunicipalityFeature: AnsweringFeature?
    /// The OpenStreetMap neighbourhood Nominatim's address names between the road and the suburb; no CLPlacemark
    /// field holds it (`NeighbourhoodNodes`).
    public var neighbourhoodFeature: AnsweringFeature?
    /// A village inside the municipality that Nominatim's address names above the hamlet or suburb of
    /// `subLocalityFeature` ("Steg, Rotenboden, Triesenberg"); the Nominatim formats only.
    public var villagePartFeature: AnsweringFeature?
    /// The suburb boundary above the suburb node of `subLocalityFeature` ("Kreuzviertel, Altstadt, Bezirksteil
    /// Kreuzviertel"), which Nominatim lists in `display_name` only; the Nominatim formats only.
    public var suburbBoundaryFeature: AnsweringFeature?
    /// A place node finer than the suburb (a quarter, a locality) that Nominatim answers with at zooms 14-15, named
    /// in its address above the suburb; the Nominatim formats only (`FinePlaceNodes`).
    public var finePlaceFeature: AnsweringFeature?
    /// The quarter node in the own address of the fine place node that answers ("Legazpi, San Lorenzo, Makati"); the
    /// Nominatim formats only.
    public var ownQuarterFeature: AnsweringFeature?
    /// The lines the answering object's `addr:place` gives Nominatim's address: the place parenting it
    /// (`AddressPlaceLine`); the Nominatim formats only.
    public var addressPlaceLines: [AddressPlaceLine] = []
    /// The OpenStreetMap objects behind the other named fields, which an answer in another language is named
    /// after: the street of `thoroughfare` (an address's or POI's parent street), and the boundaries behind
    /// the areas. Set only by `ReverseGeocoder.addNameSources`, for such answers.
    public var thoroughfareFeature: AnsweringFeature?
    /// `thoroughfare` is the answering object's own `addr:street` (or its building's) that names no street near, so
    /// that no street is its parent: Nominatim's address then has no road, as its road is only ever the parent
    /// street's name (`_setup_address_details`, nominatim_api/results.py, shows no unmatched `addr:street`). Set for an
    /// extract's answers only; travel411's own fields keep the name.
    public var thoroughfareNamesNoStreet = false
    /// The road of Nominatim's address: `thoroughfare`, unless it names no street (`thoroughfareNamesNoStreet`).
    public var nominatimRoad: String? { thoroughfareNamesNoStreet ? nil : thoroughfare }
    public var subAdministrativeAreaFeature: AnsweringFeature?
    public var administrativeAreaFeature: AnsweringFeature?
    public var countryFeature: AnsweringFeature?

    public init(location: Coordinate) { self.location = location }

    /// Whether the answer names a place at all: a country or a locality. Without one, Nominatim's answer is
    /// "Unable to geocode" (at sea far from any coast, or nothing of the asked layers).
    public var namesAPlace: Bool { country != nil || locality != nil }

    /// The one JSON shape of a placemark, wherever it is printed (`where --format json`, every batch
    /// format's keys, `airports show`, the travel commands): latitude and longitude, then every
    /// `PlacemarkField` under its CLPlacemark name with the same value as in batch output, `null` when absent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: FieldKey.self)
        try container.encode(location.latitude, forKey: FieldKey("latitude"))
        try container.encode(location.longitude, forKey: FieldKey("longitude"))
        for field in PlacemarkField.standard {
            let key = FieldKey(field.rawValue)
            switch (field.text(in: self), field.isNumeric) {
            case (nil, _): try container.encodeNil(forKey: key)
            case (let text?, true):
                if let flag = Bool(text) {
                    try container.encode(flag, forKey: key)
                } else {
                    try container.encode(Int(text) ?? 0, forKey: key)
                }
            case (let text?, false): try container.encode(text, forKey: key)
            }
        }
    }

    private struct FieldKey: CodingKey {
        let stringValue: String
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        var intValue: Int? { nil }
        init?(intValue: Int) { nil }
    }
}

/// Where the queried point lies relative to a named place: "2.6 km NE of Cranford".
public struct NearbyPlace: Hashable, Sendable, Codable {
    public var name: String
    public var coordinate: Coordinate
    /// Great-circle metres from the place to the queried point.
    public var distanceMetres: Double
    /// Initial bearing from the place to the queried point.
    public var bearingDegrees: Double

    public init(name: String, coordinate: Coordinate, distanceMetres: Double, bearingDegrees: Double) {
        self.name = name
        self.coordinate = coordinate
        self.distanceMetres = distanceMetres
        self.bearingDegrees = bearingDegrees
    }

    public var compassPoint: CompassPoint { CompassPoint(bearing: bearingDegrees) }

    /// "2.6 km NE of Cranford"; "in Cranford" within 100 m.
    public var phrase: String {
        if distanceMetres < 100 { return "in \(name)" }
        return "\(DistanceFormatter.humanReadable(metres: distanceMetres)) \(compassPoint.rawValue) of \(name)"
    }
}

public enum DistanceFormatter {
    /// Metres below 1 km, one decimal of km below 100 km, whole km beyond.
    public static func humanReadable(metres: Double) -> String {
        if metres < 1000 { return "\(Int(metres.rounded())) m" }
        let km = metres / 1000
        if km < 100 { return "\((km * 10).rounded() / 10) km" }
        return "\(Int(km.rounded())) km"
    }
}

/// The OpenStreetMap object that answers, in a database imported from an extract: what Nominatim's
/// `osm_type`, `osm_id`, `category`, `type`, `place_rank` and `boundingbox` describe.
public struct AnsweringFeature: Hashable, Sendable {
    public enum ElementType: String, Sendable { case node, way, relation }
    public var elementType: ElementType
    public var elementID: Int64
    /// The main tag: `highway`/`residential`, `amenity`/`bench`, `place`/`house` for a bare address node.
    public var category: String
    public var type: String
    public var name: String?
    /// 26 or 27 for a street (by its class), 30 for an address or point of interest.
    public var rank: Int
    /// A street's point nearest to the query; another object's own point (its node, or a point on its surface).
    public var location: Coordinate
    /// The extent of the object's geometry; nil for a node.
    public var extent: BoundingBox?
    /// A municipality's or suburb's own postcode (`OSMAreaPostcodes`), which its answer at zoom 10-15 carries.
    public var postcode: String? = nil
    /// A municipality's or suburb's key in Nominatim's address (`village`: Gamprin); nil for the level's own.
    public var addressKey: String? = nil
    /// A boundary's key when it is the answer itself: its own `place` tag (Highspire's `borough`), which Nominatim's
    /// `get_label_tag` (`nominatim_api/v1/classtypes.py`) reads before the linked node's type that keys it in other
    /// objects' addresses (`addressKey`: `town`); nil for `addressKey`.
    public var ownKey: String? = nil
    /// A boundary's `ISO3166-2` code at its `admin_level`, which Nominatim's address lists as `ISO3166-2-lvl<level>`
    /// (`_write_typed_address`, nominatim_api/v1/format_json.py); nil for other objects and older databases.
    public var subdivision: Subdivision? = nil
    /// Every name OpenStreetMap gives it, by tag (`name`, `name:sv`), as `namedetails` lists them; filled when
    /// an answer is named in a requested language or asks for namedetails, empty otherwise.
    public var names: [String: String] = [:]

    /// An ISO 3166-2 code and the `admin_level` of the boundary that carries it (`FR-06`, 6).
    public struct Subdivision: Hashable, Sendable {
        /// The ISO 3166-2 code as tagged, upper case.
        public var code: String
        /// The boundary's `admin_level` (2-12).
        public var adminLevel: Int

        /// A code and the level of the boundary carrying it.
        public init(code: String, adminLevel: Int) {
            self.code = code
            self.adminLevel = adminLevel
        }
    }

    /// `N123`, `W123`, `R123` as the import records an element; nil for anything else.
    static func element(_ text: String) -> (ElementType, Int64)? {
        guard let first = text.first, let id = Int64(text.dropFirst()) else { return nil }
        switch first {
        case "N": return (.node, id)
        case "W": return (.way, id)
        case "R": return (.relation, id)
        default: return nil
        }
    }
}
