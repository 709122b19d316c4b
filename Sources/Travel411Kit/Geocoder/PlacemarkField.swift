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

    /// Whether JSON writes the value as a literal (a number, true or false) rather than a string.
    public var isNumeric: Bool { self == .distance || self == .countryFromTerritorialWaters }

    /// The Placemark property holding this field, for the fields stored as text (the rest are
    /// computed from `nearestLocality`).
    public var storedText: WritableKeyPath<Placemark, String?>? {
        switch self {
        case .name: return \.name
        case .thoroughfare: return \.thoroughfare
        case .subThoroughfare: return \.subThoroughfare
        case .locality: return \.locality
        case .subLocality: return \.subLocality
        case .administrativeArea: return \.administrativeArea
        case .administrativeAreaCode: return \.administrativeAreaCode
        case .subAdministrativeArea: return \.subAdministrativeArea
        case .postalCode: return \.postalCode
        case .country: return \.country
        case .isoCountryCode: return \.isoCountryCode
        case .timeZone: return \.timeZone
        case .inlandWater: return \.inlandWater
        case .ocean: return \.ocean
        case .nearestLocality, .distance, .bearing, .description, .countryFromTerritorialWaters: return nil
        }
    }

    /// The field's value as text, nil when absent.
    public func text(in placemark: Placemark) -> String? {
        if let storedText { return placemark[keyPath: storedText] }
        switch self {
        case .distance: return placemark.nearestLocality.map { String(Int($0.distanceMetres.rounded())) }
        case .countryFromTerritorialWaters:
            return placemark.country == nil ? nil : String(placemark.countryFromTerritorialWaters)
        case .bearing: return placemark.nearestLocality?.compassPoint.rawValue
        case .description: return placemark.nearestLocality?.phrase
        default: return placemark.nearestLocality?.name
        }
    }
}
