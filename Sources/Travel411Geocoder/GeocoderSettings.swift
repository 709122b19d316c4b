import Travel411Core

/// How far the nearby-feature rules reach (docs/fields.md).
public struct GeocoderSettings: Sendable {
    /// A thoroughfare is the nearest named line within this distance.
    public var thoroughfareRadiusMetres = 100.0
    /// Whether a database may set its own thoroughfare radius (`OSMAnswerRules`): false once the user gave one.
    public var thoroughfareRadiusFromDatabase = true
    /// A house number comes from the nearest address point within this distance.
    public var addressRadiusMetres = 50.0
    /// A postcode is the nearest postcode centroid within this distance (unit postcodes are small).
    public var postcodeRadiusMetres = 200.0
    /// Whether a database may set its own postcode radius (`OSMAnswerRules`): false once the user gave one.
    public var postcodeRadiusFromDatabase = true
    /// The nearest locality becomes the subLocality within this distance.
    public var subLocalityRadiusMetres = 5000.0
    /// With no town's catchment containing the point, the nearest locality in the same country within this
    /// distance is the locality.
    public var nearestLocalityFallbackMetres = 10_000.0
    /// A point outside every country polygon takes the country found this far around it, if any
    /// (probed on rings of 1, 2.5, 5, 10 and 20 km; the nearest ring that finds land decides): the
    /// 1:10m coastline is simplified, and harbours, reclaimed land and islets fall outside it.
    public var coastalSnapMetres = 20_000.0
    /// How fine the answer may be, as Nominatim's `zoom` chooses it (`where --zoom`, docs/fields.md): the
    /// fields finer than this are left out, and `name` is the finest one left.
    public var detail: NominatimDetail = .building
    /// Nominatim's highest rank for the zoom (`NominatimDetail.maximumRank(zoom:)`), which a database imported
    /// from OpenStreetMap answers by: 26 major streets only (zoom 16), 27 all streets (17), 30 addresses and
    /// points of interest too (18).
    public var maximumRank = 30
    /// The kinds of object that may answer, as Nominatim's `layer` (`where --layer`): addresses and POIs.
    public var layers: ReverseLayers = .standard
    /// Nominatim's address on a database imported from OpenStreetMap (the server, `where --format nominatim`):
    /// the municipality and suburb are the answered street's or object's, where it is (its point nearest the
    /// query, the object's point), not the query point's. Off, a point answers the municipality it lies in.
    public var addressOfTheAnswer = false

    public init() {}
}
