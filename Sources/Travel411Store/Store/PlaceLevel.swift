/// What a layer contributes to a placemark.
public enum PlaceLevel: String, CaseIterable, Sendable, Codable {
    case country, admin, district, locality, thoroughfare, address, postcode, timezone, water
    /// Natural Earth's UTC offset bands: stored, but `timeZone` comes from the IANA layer.
    case timezoneBand = "timezone-band"
    case airport
    /// Small-scale outlines kept for drawing maps; never used to answer a coordinate.
    case basemap
    /// OpenStreetMap's points of interest, buildings and land use (Geofabrik's free layers): stored in
    /// the GeoPackage for other tools; no placemark field is decided from them yet.
    case poi, building, landuse

    /// The levels a user may name with `--level` for a layout the importer does not know.
    public static let userMappable: [PlaceLevel] = [
        .country, .admin, .district, .locality, .thoroughfare, .address, .postcode, .timezone, .water,
    ]
}
