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
    /// Locality record numbers; -1 when none.
    var nearest: Int32 = -1
    var locality: Int32 = -1
    var subLocality: Int32 = -1
    var nearestDistance = 0.0
    var nearestBearing = 0.0
    /// subAdministrativeArea comes from the locality's GeoNames admin2.
    var subAdministrativeFromLocality = false
    /// Street, address and postcode record numbers; -1 when none.
    var street: Int32 = -1
    var address: Int32 = -1
    var postcode: Int32 = -1

    public init(location: Coordinate) { self.location = location }
}
