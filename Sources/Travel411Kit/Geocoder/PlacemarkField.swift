/// The flat fields of a placemark, in output order. The single `where --format json` and every batch
/// format use exactly these keys, so a script can switch between them without renaming anything.
public enum PlacemarkField: String, CaseIterable, Sendable {
    case name, thoroughfare, subThoroughfare, locality, subLocality
    case administrativeArea, subAdministrativeArea, postalCode, country, isoCountryCode
    case timeZone, inlandWater, ocean
    /// Name of the nearest locality point.
    case nearestLocality
    /// Metres from the nearest locality to the point, rounded to whole metres.
    case distance
    /// 16-point compass bearing from the nearest locality to the point.
    case bearing
    /// "2.6 km NE of Cranford".
    case description

    /// Whether JSON writes the value as a number rather than a string.
    public var isNumeric: Bool { self == .distance }

    /// The field's value as text, nil when absent.
    public func text(in placemark: Placemark) -> String? {
        switch self {
        case .name: return placemark.name
        case .thoroughfare: return placemark.thoroughfare
        case .subThoroughfare: return placemark.subThoroughfare
        case .locality: return placemark.locality
        case .subLocality: return placemark.subLocality
        case .administrativeArea: return placemark.administrativeArea
        case .subAdministrativeArea: return placemark.subAdministrativeArea
        case .postalCode: return placemark.postalCode
        case .country: return placemark.country
        case .isoCountryCode: return placemark.isoCountryCode
        case .timeZone: return placemark.timeZone
        case .inlandWater: return placemark.inlandWater
        case .ocean: return placemark.ocean
        case .nearestLocality: return placemark.nearestLocality?.name
        case .distance: return placemark.nearestLocality.map { String(Int($0.distanceMetres.rounded())) }
        case .bearing: return placemark.nearestLocality?.compassPoint.rawValue
        case .description: return placemark.nearestLocality?.phrase
        }
    }
}
