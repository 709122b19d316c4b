import Foundation

/// A refused HTTP request: the status code and a message for the client. Parsing never throws anything
/// else, so the server can answer every mistake in the request's own format.
public struct ServerRequestError: Error, Equatable, CustomStringConvertible {
    public var status: Int
    public var message: String
    /// The format the error is written in: XML only when the request asked for XML by name.
    public var format: NominatimFormat

    public init(status: Int = 400, _ message: String, format: NominatimFormat = .json) {
        self.status = status
        self.message = message
        self.format = format
    }

    public var description: String { message }

    /// `{"error":{"code":400,"message":"…"}}`, or Nominatim's XML form of it.
    public var body: String { NominatimFormatter.requestError(code: status, message: message, format: format) }
}

/// `GET /reverse`'s parameters, read as Nominatim reads them. Unknown parameters are ignored, as
/// Nominatim does (clients send `email`, `polygon_*` and the like).
public struct ReverseRequest: Equatable, Sendable {
    public var coordinate: Coordinate
    public var options: NominatimOptions
    /// `accept-language`: accepted; names are served as stored.
    public var acceptLanguage: String?
    /// `layer`: accepted (address, poi, railway, natural, manmade); every answer is an address.
    public var layers: [String]

    /// 0-9, signs, the decimal point and the exponent's e.
    private static func isDecimalNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            return true
        default: return false
        }
    }

    static let knownLayers = ["address", "poi", "railway", "natural", "manmade"]

    /// `parameters` are the decoded query items in order; `queryString` is the raw query, which the
    /// XML answer echoes. The first of repeated parameters counts.
    public init(parameters: [(name: String, value: String)], queryString: String = "") throws {
        // A request has a handful of parameters: looking them up in order costs less than hashing
        // them into a dictionary, and the first of repeated ones is found first.
        let values = FirstParameterValues(parameters)

        // The format is read first, so that the other errors are written in it.
        var format = NominatimFormat.xml
        var errorFormat = NominatimFormat.json
        if let text = values["format"] {
            guard let parsed = NominatimFormat(rawValue: text.lowercased()) else {
                throw ServerRequestError(
                    "Parameter 'format' must be one of: \(NominatimFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(DisplayText.sanitized(text, limit: 40))'"
                )
            }
            format = parsed
            errorFormat = parsed
        }
        func fail(_ message: String) -> ServerRequestError { ServerRequestError(message, format: errorFormat) }

        func degrees(_ name: String, limit: Double) throws -> Double {
            guard let text = values[name] else {
                throw fail("Parameter '\(name)' is missing; give lat and lon in degrees, e.g. lat=51.47&lon=-0.45")
            }
            let trimmed =
                text.utf8.first == UInt8(ascii: " ") || text.utf8.last == UInt8(ascii: " ")
                ? text.trimmingCharacters(in: .whitespaces) : text
            // Only plain decimal numbers: Double() would also take "nan", "inf" and hexadecimal.
            guard !trimmed.isEmpty, trimmed.utf8.allSatisfy(Self.isDecimalNumberByte), let value = Double(trimmed) else {
                throw fail("Parameter '\(name)' must be a number; got '\(DisplayText.sanitized(text, limit: 40))'")
            }
            guard value.isFinite, abs(value) <= limit else {
                throw fail(
                    "Parameter '\(name)' must be between -\(Int(limit)) and \(Int(limit)); got '\(DisplayText.sanitized(text, limit: 40))'")
            }
            return value
        }
        let latitude = try degrees("lat", limit: 90)
        let longitude = try degrees("lon", limit: 180)
        coordinate = Coordinate(latitude: latitude, longitude: longitude)

        var zoom = 18
        if let text = values["zoom"] {
            guard let parsed = Int(text.trimmingCharacters(in: .whitespaces)) else {
                throw fail("Parameter 'zoom' must be a whole number from 0 to 18; got '\(DisplayText.sanitized(text, limit: 40))'")
            }
            zoom = min(max(parsed, 0), 18)
        }

        func flag(_ name: String, default fallback: Bool) throws -> Bool {
            guard let text = values[name] else { return fallback }
            switch text.lowercased() {
            case "1", "true", "yes": return true
            case "0", "false", "no", "": return false
            default: throw fail("Parameter '\(name)' must be 0 or 1; got '\(DisplayText.sanitized(text, limit: 40))'")
            }
        }
        options = NominatimOptions(
            format: format, zoom: zoom,
            addressDetails: try flag("addressdetails", default: true),
            nameDetails: try flag("namedetails", default: false),
            extraTags: try flag("extratags", default: false),
            queryString: queryString)

        acceptLanguage = values["accept-language"]
        layers = []
        if let text = values["layer"] {
            layers = text.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
            if let unknown = layers.first(where: { !Self.knownLayers.contains($0) }) {
                throw fail(
                    "Parameter 'layer' takes \(Self.knownLayers.joined(separator: ", ")); got '\(DisplayText.sanitized(unknown, limit: 40))'"
                )
            }
        }
    }

    /// The value of each parameter name's first occurrence.
    private struct FirstParameterValues {
        let parameters: [(name: String, value: String)]

        init(_ parameters: [(name: String, value: String)]) { self.parameters = parameters }

        subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }
    }

    /// The lookups the answer needs: without `extratags`, no time zone and no water.
    public var placemarkNeeds: PlacemarkNeeds { PlacemarkNeeds(fields: options.fieldsRead) }

    /// The body of the answer for `placemark`, through the formatter `where --format nominatim` uses.
    public func answer(_ placemark: Placemark, timestamp: Date? = nil) -> String {
        var options = options
        options.timestamp = timestamp
        return NominatimFormatter.answer(placemark, options: options)
    }

    public var contentType: String { Self.contentType(options.format) }

    public static func contentType(_ format: NominatimFormat) -> String {
        switch format {
        case .xml: return "text/xml; charset=utf-8"
        case .geojson, .geocodejson: return "application/geo+json; charset=utf-8"
        case .json, .jsonv2: return "application/json; charset=utf-8"
        }
    }
}
