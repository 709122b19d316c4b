import Travel411Core

/// One event from a USGS earthquake feed, with the fields both of USGS's summary formats (CSV and
/// GeoJSON) carry, under USGS's own names where they are printed. Everything but the time and the
/// position may be missing in a feed, so it is optional here.
public struct Quake: Hashable, Sendable {
    /// USGS's event id, e.g. "us7000n7n8" (CSV `id`; GeoJSON the feature's `id`).
    public var id: String?
    public var time: UTCTimestamp
    /// When USGS last changed the event.
    public var updated: UTCTimestamp?
    /// The epicentre.
    public var coordinate: Coordinate
    /// Depth in kilometres below sea level (negative above it, as USGS gives some shallow events).
    public var depthKilometres: Double?
    public var magnitude: Double?
    /// "ml", "mb", "mww", …
    public var magnitudeType: String?
    /// USGS's own description, e.g. "25 km ENE of Maricopa, CA".
    public var place: String?
    /// "earthquake", "quarry blast", "explosion", …
    public var eventType: String?
    /// "automatic" or "reviewed".
    public var status: String?
    /// The contributing network, e.g. "us", "ci".
    public var network: String?
    /// Stations used to locate the event (`nst`).
    public var stationCount: Int?
    /// Largest azimuthal gap between stations, degrees (`gap`).
    public var azimuthalGap: Double?
    /// Distance to the nearest station, degrees (`dmin`).
    public var nearestStationDegrees: Double?
    /// Root-mean-square travel-time residual, seconds (`rms`).
    public var rms: Double?

    public init(time: UTCTimestamp, coordinate: Coordinate) {
        self.time = time
        self.coordinate = coordinate
    }
}
