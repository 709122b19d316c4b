import Travel411Core
import Travel411Store

/// A placemark as plain numbers: which polygon, locality, street or address answers each field.
/// Making and passing one costs no allocation and no reference counting, so batch threads can
/// geocode and print in parallel; the text is looked up only when a field is printed (see
/// `ReverseGeocoder.appendText`) or when a `Placemark` is built from it.
public struct PlacemarkRecord: Sendable {
    public var location: Coordinate
    /// Feature numbers within each area level; -1 when no polygon contains the point.
    var country: Int32 = -1
    var admin: Int32 = -1
    var district: Int32 = -1
    var timeZone: Int32 = -1
    var ocean: Int32 = -1
    var inlandWater: Int32 = -1
    /// The OpenStreetMap municipality or place area holding the point, which names the locality, and the
    /// suburb or quarter, which names the subLocality; -1 when none.
    var cityArea: Int32 = -1
    var suburbArea: Int32 = -1
    /// Locality record numbers; -1 when none.
    package var nearest: Int32 = -1
    var locality: Int32 = -1
    var subLocality: Int32 = -1
    var nearestDistance = 0.0
    /// The bearing from the nearest place to the point as the two numbers its arctangent takes
    /// (`GreatCircle.bearing(east:north:)`): a batch's text needs only its compass point, which they mostly decide
    /// alone (`PlacemarkText.compassText(east:north:)`).
    var nearestEast = 0.0, nearestNorth = 0.0
    /// The bearing from the nearest place to the point in degrees (0 when there is none, as atan2(0, 0) gives it).
    var nearestBearing: Double { GreatCircle.bearing(east: nearestEast, north: nearestNorth) }
    /// No municipality, locality, suburb, subLocality or finer place node is named: the answer stops above them.
    var namesNoPlace: Bool { cityArea < 0 && locality < 0 && suburbArea < 0 && subLocality < 0 && finePlace < 0 }
    /// The county, else the state, that answers at `detail` when no place below it is named: the area whose own
    /// postcode the answer then carries (`placex_update` sets it at search rank 8 and coarser from the area's own tag).
    func upperArea(at detail: NominatimDetail) -> (level: PlacesSchema.AreaLevel, feature: Int32)? {
        if detail >= .county, district >= 0 { return (.district, district) }
        if detail >= .state, admin >= 0 { return (.admin, admin) }
        return nil
    }
    var nearestBearingParts: (east: Double, north: Double) {
        // Inlined: outlined, the getter cost 18 instructions a row.
        @inline(__always) get { (nearestEast, nearestNorth) }
    }
    /// The point lies outside every country polygon, and `country` is that of the land time zone whose
    /// territorial waters it is in.
    var countryFromTerritorialWaters = false
    /// The point lies where the database's OpenStreetMap extracts are: it answers by Nominatim's rules
    /// (`OSMAnswerRules`).
    var followsNominatim = false
    /// subAdministrativeArea comes from the locality's GeoNames admin2.
    var subAdministrativeFromLocality = false
    /// Street, address and postcode record numbers; -1 when none.
    var street: Int32 = -1
    package var address: Int32 = -1
    package var postcode: Int32 = -1
    /// The OpenStreetMap address point or POI answering (`PlacesSchema.ObjectField`); -1 when none.
    package var object: Int32 = -1
    /// The building whose house number, street and postcode the answering object carries, having none of its own
    /// (`inheritedAddress`); -1 when the object's own answer.
    package var addressObject: Int32 = -1
    /// The piece of an interpolation line whose number `object` is (`answerFromInterpolationLine`); -1 when none.
    var interpolation: Int32 = -1
    /// The postcode is the street's (`OSMStreetPostcodes`).
    var streetPostcode = false
    /// No street or object within reach: the postcode is that of the suburb or municipality answering (the code
    /// of its `suburbArea`, else of its `cityArea`, else the county's or state's own), none when the country answers.
    var postcodeFromAnsweringArea = false
    /// Whether the street answers (rather than the object, or the street of the object), and its point
    /// nearest to the query: Nominatim's lat/lon for a street.
    var streetAnswers = false
    var streetPoint = Coordinate(latitude: 0, longitude: 0)
    /// The extract's neighbourhood node named in Nominatim's address (`NeighbourhoodNodeTiles`), -1 for none.
    var neighbourhood: Int64 = -1
    /// The extract's `quarter` node named in Nominatim's address of a street or object (`FinePlaceNodeTiles`), -1 for none.
    var quarter: Int64 = -1
    /// The suburb-level boundary named as the quarter or neighbourhood instead of a node (a boundary linked to such a
    /// node: `ReverseGeocoder.finerBoundary`), -1 for none.
    var quarterArea: Int32 = -1
    var neighbourhoodArea: Int32 = -1
    /// The extract's place node finer than a suburb that answers at zooms 14-15 (`FinePlaceNodeTiles`), -1 for none;
    /// `postcode` is then its nearest postcode point's, which the answer carries unless an address area of it has a tagged
    /// postcode (`ReverseGeocoder.taggedPostcodeArea`).
    var finePlace: Int64 = -1
    /// A village part named in Nominatim's address above a hamlet or suburb (`PlaceNodeSearch.addressParts`),
    /// a suburb-level feature; -1 for none.
    var villagePart: Int32 = -1
    /// The suburb boundary whose suburb node inside it names the suburb (`SuburbBoundaryOfStreet`): Nominatim's
    /// address holds both lines, the node first, and its answer keys only the node (one value a key) but lists both in
    /// `display_name`; a suburb-level feature, -1 for none.
    var suburbBoundaryLine: Int32 = -1
    /// The OpenStreetMap object Nominatim's answer names (`osm_type`, `osm_id`), decided once when the fields
    /// ask for it (`PlacemarkNeeds.osmElement`); nil for none or not asked. An enum and a number: the record
    /// stays free of reference counting.
    var osmElement: (type: AnsweringFeature.ElementType, id: Int64)?

    @inline(__always) public init(location: Coordinate) { self.location = location }

    /// Stores an area level's answer in its field.
    @inline(__always)
    mutating func setFeature(_ feature: Int32, of level: PlacesSchema.AreaLevel) {
        switch level {
        case .country: country = feature
        case .admin: admin = feature
        case .district: district = feature
        case .timezone: timeZone = feature
        case .ocean: ocean = feature
        case .inlandWater: inlandWater = feature
        case .city: cityArea = feature
        case .suburb: suburbArea = feature
        }
    }
}

/// Which lookups a caller needs, so a batch asking for a few fields does only their work.
public struct PlacemarkNeeds: OptionSet, Sendable {
    public let rawValue: UInt16
    public init(rawValue: UInt16) { self.rawValue = rawValue }

    public static let country = PlacemarkNeeds(rawValue: 1 << 0)
    public static let admin = PlacemarkNeeds(rawValue: 1 << 1)
    public static let district = PlacemarkNeeds(rawValue: 1 << 2)
    public static let timeZone = PlacemarkNeeds(rawValue: 1 << 3)
    public static let water = PlacemarkNeeds(rawValue: 1 << 4)
    public static let localities = PlacemarkNeeds(rawValue: 1 << 5)
    public static let subLocality = PlacemarkNeeds(rawValue: 1 << 6)
    public static let streets = PlacemarkNeeds(rawValue: 1 << 7)
    /// The nearest locality itself (its name, distance and bearing), not only the locality rule.
    public static let nearestLocality = PlacemarkNeeds(rawValue: 1 << 8)
    /// The OpenStreetMap object answering (`osmType`, `osmId`): Nominatim's place of the whole placemark, made
    /// once per point. Not in `all`, which the other fields' printing needs.
    public static let osmElement = PlacemarkNeeds(rawValue: 1 << 9)
    public static let all: PlacemarkNeeds = [
        .country, .admin, .district, .timeZone, .water, .localities, .subLocality, .streets, .nearestLocality,
    ]

    /// Everything the fields' rules read (a locality needs the country it must lie in, and so on).
    public init(fields: [PlacemarkField]) {
        var needs: PlacemarkNeeds = []
        for field in fields {
            switch field {
            case .name: needs.formUnion(.all)
            case .osmType, .osmId: needs.formUnion(PlacemarkNeeds.all.union(.osmElement))
            case .thoroughfare, .subThoroughfare: needs.insert(.streets)
            // A postcode point answers in its own country only (`SameCountryPostcode`).
            case .postalCode: needs.formUnion([.streets, .country])
            case .locality: needs.formUnion([.localities, .country])
            case .subLocality: needs.formUnion([.localities, .subLocality, .country, .admin])
            case .administrativeArea, .administrativeAreaCode: needs.formUnion([.admin, .country])
            case .countryFromTerritorialWaters: needs.formUnion([.country, .timeZone])
            case .subAdministrativeArea: needs.formUnion([.admin, .district, .localities, .country])
            case .country, .isoCountryCode: needs.insert(.country)
            // The zone must agree with the country (`reconcileTimeZoneAndCountry`).
            case .timeZone: needs.formUnion([.timeZone, .country])
            case .inlandWater, .ocean: needs.insert(.water)
            case .nearestLocality, .distance, .bearing, .description: needs.formUnion([.localities, .nearestLocality])
            }
        }
        self = needs
    }
}
