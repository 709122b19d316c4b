import Travel411Core

/// One airport of the catalogue in `Data/airports/airports.csv`.
public struct Airport: Hashable, Sendable {
    /// Four-character ICAO code (or a local code where the airport has none); unique in the catalogue.
    public var icao: String
    /// Three-letter IATA code; many small airfields have none.
    public var iata: String?
    public var name: String
    public var city: String
    /// State, province or region.
    public var subdivision: String
    /// ISO 3166-1 alpha-2 country code.
    public var countryCode: String
    public var elevationFeet: Double?
    public var coordinate: Coordinate
    /// IANA time zone, e.g. "Europe/London".
    public var timeZone: String
    /// National location identifier (the FAA's in the US), when it has one.
    public var localIdentifier: String?

    public init(
        icao: String, iata: String?, name: String, city: String, subdivision: String, countryCode: String,
        elevationFeet: Double?, coordinate: Coordinate, timeZone: String, localIdentifier: String?
    ) {
        self.icao = icao
        self.iata = iata
        self.name = name
        self.city = city
        self.subdivision = subdivision
        self.countryCode = countryCode
        self.elevationFeet = elevationFeet
        self.coordinate = coordinate
        self.timeZone = timeZone
        self.localIdentifier = localIdentifier
    }

    /// The code travellers know: IATA when there is one, else ICAO.
    public var code: String { iata ?? icao }

    /// "LHR/EGLL" or just "EGLL".
    public var codes: String { iata.map { "\($0)/\(icao)" } ?? icao }
}
