import Travel411Core

/// The flat fields of a placemark, in output order. The single `where --format json` and every batch
/// format use exactly these keys, so a script can switch between them without renaming anything.
public enum PlacemarkField: String, CaseIterable, Sendable {
    case name, thoroughfare, subThoroughfare, locality, subLocality
    case administrativeArea
    /// ISO 3166-2 code of the administrativeArea ("DE-BY"), where the data knows it reliably.
    case administrativeAreaCode
    case subAdministrativeArea, postalCode, country, isoCountryCode
    /// true when the point lies outside every country polygon and `country` is that of the
    /// territorial waters (the land time zone) it is in; null when there is no country.
    case countryFromTerritorialWaters
    case timeZone, inlandWater, ocean
    /// Name of the nearest locality point.
    case nearestLocality
    /// Metres from the nearest locality to the point, rounded to whole metres.
    case distance
    /// 16-point compass bearing from the nearest locality to the point.
    case bearing
    /// "2.6 km NE of Cranford".
    case description
    /// The OpenStreetMap object the answer is, as Nominatim's `osm_type` ("node", "way", "relation") and `osm_id`:
    /// the building, point of interest or street, else the area named (a suburb's node, a municipality's
    /// boundary). Only on a database with extracts; asked for by name, not among the `standard` fields.
    case osmType, osmId

    /// The fields a placemark prints when none are named (`--fields`): every one but the OpenStreetMap ids, which
    /// only a database with extracts has.
    public static let standard: [PlacemarkField] = allCases.filter { $0 != .osmType && $0 != .osmId }

    /// Whether JSON writes the value as a literal (a number, true or false) rather than a string.
    public var isNumeric: Bool { self == .distance || self == .countryFromTerritorialWaters || self == .osmId }

    /// Whether the placemark stores this field as text of its own (the rest are computed from `nearestLocality`).
    public var isStoredText: Bool {
        switch self {
        case .nearestLocality, .distance, .bearing, .description, .countryFromTerritorialWaters, .osmType, .osmId: return false
        default: return true
        }
    }

    /// Sets the placemark's own text of this field; a computed field is left alone. A switch, not a key path: a
    /// key path written in a switch is made anew at each call, and a server spent a tenth of `placemark(from:)`
    /// making and applying them.
    func setText(_ value: String?, in placemark: inout Placemark) {
        switch self {
        case .name: placemark.name = value
        case .thoroughfare: placemark.thoroughfare = value
        case .subThoroughfare: placemark.subThoroughfare = value
        case .locality: placemark.locality = value
        case .subLocality: placemark.subLocality = value
        case .administrativeArea: placemark.administrativeArea = value
        case .administrativeAreaCode: placemark.administrativeAreaCode = value
        case .subAdministrativeArea: placemark.subAdministrativeArea = value
        case .postalCode: placemark.postalCode = value
        case .country: placemark.country = value
        case .isoCountryCode: placemark.isoCountryCode = value
        case .timeZone: placemark.timeZone = value
        case .inlandWater: placemark.inlandWater = value
        case .ocean: placemark.ocean = value
        case .nearestLocality, .distance, .bearing, .description, .countryFromTerritorialWaters, .osmType, .osmId: break
        }
    }

    /// The field's value as text, nil when absent.
    public func text(in placemark: Placemark) -> String? {
        switch self {
        case .name: return placemark.name
        case .thoroughfare: return placemark.thoroughfare
        case .subThoroughfare: return placemark.subThoroughfare
        case .locality: return placemark.locality
        case .subLocality: return placemark.subLocality
        case .administrativeArea: return placemark.administrativeArea
        case .administrativeAreaCode: return placemark.administrativeAreaCode
        case .subAdministrativeArea: return placemark.subAdministrativeArea
        case .postalCode: return placemark.postalCode
        case .country: return placemark.country
        case .isoCountryCode: return placemark.isoCountryCode
        case .timeZone: return placemark.timeZone
        case .inlandWater: return placemark.inlandWater
        case .ocean: return placemark.ocean
        case .distance: return placemark.nearestLocality.map { String(Int($0.distanceMetres.rounded())) }
        case .countryFromTerritorialWaters:
            return placemark.country == nil ? nil : String(placemark.countryFromTerritorialWaters)
        case .bearing: return placemark.nearestLocality?.compassPoint.rawValue
        case .description: return placemark.nearestLocality?.phrase
        case .nearestLocality: return placemark.nearestLocality?.name
        case .osmType: return placemark.nominatimSubject(detail: .building, maximumRank: 30)?.element?.type
        case .osmId: return placemark.nominatimSubject(detail: .building, maximumRank: 30)?.element.map { String($0.id) }
        }
    }
}
