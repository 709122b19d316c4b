import Foundation
import Travel411Answers
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// A refused HTTP request: the status code and a message for the client. Parsing never throws anything
/// else, so the server can answer every mistake in the request's own format.
public struct ServerRequestError: Error, Equatable, CustomStringConvertible {
    /// The HTTP status code.
    public var code: Int
    public var message: String
    /// The format the error is written in: XML only when the request asked for XML by name.
    public var format: NominatimFormat
    /// For 405: the methods the path takes (the `Allow` header).
    public var allowedMethods: [String]

    public init(status: Int = 400, _ message: String, format: NominatimFormat = .json, allowedMethods: [String] = []) {
        self.code = status
        self.message = message
        self.format = format
        self.allowedMethods = allowedMethods
    }

    public var description: String { message }

    /// `{"error":{"code":400,"message":"…"}}`, or Nominatim's XML form of it.
    public var body: String { NominatimFormatter.requestError(code: code, message: message, format: format) }
}

/// `GET /reverse`'s parameters, read as Nominatim reads them. Unknown parameters are ignored, as
/// Nominatim does (clients send `email` and the like).
public struct ReverseRequest: Equatable, Sendable {
    /// The point; nil when it lies outside -90…90, -180…180, which Nominatim answers "Unable to geocode".
    public var coordinate: Coordinate?
    public var options: NominatimOptions
    /// `accept-language` (the parameter, else the header), as languages by falling weight.
    public var languages: [String]
    /// `layer`: which kinds of object may answer (`ReverseLayers`); addresses and POIs by default.
    public var layers: ReverseLayers
    /// `polygon_threshold`: the tolerance (degrees) outlines are simplified with.
    public var polygonThreshold: Double
    /// `json_callback`: the JSON answer wrapped as JSONP (`callback(…)`).
    public var jsonCallback: String?
    /// `debug`: an HTML page that shows how the answer was found.
    public var debug: Bool

    /// `parameters` are the decoded query items in order; the first of repeated parameters counts.
    /// `acceptLanguageHeader` is the request's `Accept-Language`, used when there is no parameter.
    public init(parameters: [(name: String, value: String)], queryString: String = "", acceptLanguageHeader: String? = nil) throws {
        // The format is read first, so that the other errors are written in it.
        let values = try ReverseParameters(parameters)
        let format = values.format
        let latitude = try values.degrees("lat")
        let longitude = try values.degrees("lon")
        // Out of range is a point nowhere, not a bad request: Nominatim answers it "Unable to geocode".
        coordinate = abs(latitude) <= 90 && abs(longitude) <= 180 ? Coordinate(latitude: latitude, longitude: longitude) : nil
        let zoom = try values.zoom()
        let geometries = try values.geometryOutputs()
        polygonThreshold = 0
        if let text = values["polygon_threshold"] { polygonThreshold = try values.number("polygon_threshold", text) }

        // Only the XML answer echoes the query (as Nominatim rebuilds it); JSON answers skip the formatting.
        var query = ""
        if format == .xml {
            query = "lat=\(JSONText.number(latitude))&lon=\(JSONText.number(longitude))&format=xml"
            if let zoomText = values["zoom"], !zoomText.isEmpty { query += "&zoom=\(zoom)" }
        }
        options = NominatimOptions(
            format: format, zoom: zoom,
            addressDetails: values.flag("addressdetails", default: true),
            nameDetails: values.flag("namedetails", default: false),
            extraTags: values.flag("extratags", default: false),
            queryString: query, geometryOutput: geometries.first)

        languages = AcceptLanguage.languages(values["accept-language"] ?? acceptLanguageHeader ?? "")
        layers = try values.layers()
        jsonCallback = try values.jsonCallback()
        debug = values.flag("debug", default: false)
    }

    /// A JavaScript name path such as `jQuery123.cb`: only [A-Za-z0-9_$.], parts not empty and not starting with a
    /// digit, so that JSONP can never carry script of the caller's choosing.
    static func isSafeCallback(_ callback: String) -> Bool {
        guard !callback.isEmpty, callback.utf8.count <= 200 else { return false }
        return callback.split(separator: ".", omittingEmptySubsequences: false).allSatisfy { part in
            guard let first = part.utf8.first, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else { return false }
            return part.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                    UInt8(ascii: "_"), UInt8(ascii: "$"):
                    return true
                default: return false
                }
            }
        }
    }

    /// Whether the answer names OpenStreetMap objects by their other names (`ReverseGeocoder.addNameSources`):
    /// with a language or namedetails only, so that other answers read nothing more.
    public var needsNameSources: Bool { !languages.isEmpty || options.nameDetails }

    /// The lookups the answer needs: without `extratags`, no time zone and no water.
    public var placemarkNeeds: PlacemarkNeeds { PlacemarkNeeds(fields: options.fieldsRead) }

    /// The body of the answer for `placemark` (nil: the point is out of range), through the formatter
    /// `where --format nominatim` uses; `data` names places in the requested languages (with none, as Nominatim
    /// does) and gives outlines; `licence` is the answering database's.
    public func answer(
        _ placemark: Placemark?, timestamp: Date? = nil, data: NominatimPlaceData? = nil, licence: DataLicence = .embedded
    ) -> String {
        String(decoding: answerBytes(placemark, timestamp: timestamp, data: data, licence: licence), as: UTF8.self)
    }

    /// `answer` as the UTF-8 bytes a server sends; `explanation`, the lines `where --explain` prints for the
    /// point (`ReverseGeocoder.explanation`), goes into the `debug=1` page.
    public func answerBytes(
        _ placemark: Placemark?, timestamp: Date? = nil, data: NominatimPlaceData? = nil, licence: DataLicence = .embedded,
        explanation: [String] = []
    ) -> [UInt8] {
        var options = options
        options.timestamp = timestamp
        options.licence = licence
        let body: [UInt8]
        if var placemark {
            // Named as Nominatim names: with no language asked, a country by its own name ("Danmark").
            if let data {
                placemark = data.localized(placemark, languages: languages, nameDetails: options.nameDetails, fallback: .nominatim)
            }
            let threshold = polygonThreshold
            body = NominatimFormatter.answerBytes(
                placemark, options: options, outline: data.map { data in { data.outline(of: $0, threshold: threshold) } })
        } else {
            body = Array(NominatimFormatter.unableToGeocode(options).utf8)
        }
        if debug {
            return Array(Self.debugPage(String(decoding: body, as: UTF8.self), request: self, explanation: explanation).utf8)
        }
        guard let jsonCallback else { return body }
        return Array(jsonCallback.utf8) + [UInt8(ascii: "(")] + body + [UInt8(ascii: ")")]
    }

    /// `debug=1`: an HTML page with the request as read, how the answer was found (`explanation`, as `where
    /// --explain` prints it: each field's source, candidates, distances, ranks and deciding rule) and the answer, no
    /// script. Nominatim's `debug=1` answers HTML too, its search's steps in place of the format asked for
    /// (`docs/api/Reverse.md`, 5.3); travel411 has no SQL to show, so its page shows its own steps.
    static func debugPage(_ answer: String, request: ReverseRequest, explanation: [String] = []) -> String {
        let point = request.coordinate.map { "\(JSONText.number($0.latitude)), \(JSONText.number($0.longitude))" } ?? "out of range"
        let steps =
            explanation.isEmpty
            ? "" : "<h2>How the answer was found</h2>\n<pre>\(XMLText.escaped(explanation.joined(separator: "\n")))</pre>\n"
        return """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"/><title>travel411 reverse: debug</title></head><body>
            <h1>travel411 reverse</h1>
            <p>point: \(XMLText.escaped(point)); zoom \(request.options.zoom) (\(request.options.detail)); format \(request.options.format.rawValue); languages: \(XMLText.escaped(request.languages.joined(separator: ", ")))</p>
            \(steps)<h2>Answer</h2>
            <pre>\(XMLText.escaped(answer))</pre>
            </body></html>
            """
    }

    public var contentType: String {
        if debug { return "text/html; charset=utf-8" }
        if jsonCallback != nil { return "application/javascript; charset=utf-8" }
        return Self.contentType(options.format)
    }

    public static func contentType(_ format: NominatimFormat) -> String {
        // Nominatim sends every JSON shape, GeoJSON included, as application/json.
        format == .xml ? "text/xml; charset=utf-8" : "application/json; charset=utf-8"
    }
}

/// `GET /reverse`'s parameters as ReverseRequest reads them: the value of each name's first occurrence, and each
/// parameter's rule, refusing a bad value with a message written in the requested format.
private struct ReverseParameters {
    /// A request has a handful of parameters: looking them up in order costs less than hashing
    /// them into a dictionary, and the first of repeated ones is found first.
    let parameters: [(name: String, value: String)]
    let format: NominatimFormat
    /// The format errors are written in: JSON unless the request named a format.
    let errorFormat: NominatimFormat

    init(_ parameters: [(name: String, value: String)]) throws {
        self.parameters = parameters
        guard let text = parameters.first(where: { $0.name == "format" })?.value else {
            (format, errorFormat) = (.xml, .json)
            return
        }
        guard let parsed = NominatimFormat(rawValue: text.lowercased()) else {
            throw ServerRequestError(
                "Parameter 'format' must be one of: \(NominatimFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(DisplayText.sanitized(text, limit: 40))'"
            )
        }
        (format, errorFormat) = (parsed, parsed)
    }

    subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }

    func fail(_ message: String) -> ServerRequestError { ServerRequestError(message, format: errorFormat) }

    /// A plain decimal number, as Nominatim's float(): not a number, NaN and infinity are refused.
    func number(_ name: String, _ text: String) throws -> Double {
        let trimmed =
            text.utf8.first == UInt8(ascii: " ") || text.utf8.last == UInt8(ascii: " ")
            ? text.trimmingCharacters(in: .whitespaces) : text
        // Only plain decimal numbers: Double() would also take "nan", "inf" and hexadecimal.
        guard !trimmed.isEmpty, trimmed.utf8.allSatisfy(Self.isDecimalNumberByte), let value = Double(trimmed), value.isFinite else {
            throw fail("Parameter '\(name)' must be a number; got '\(DisplayText.sanitized(text, limit: 40))'")
        }
        return value
    }

    /// 0-9, signs, the decimal point and the exponent's e.
    private static func isDecimalNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "e"),
            UInt8(ascii: "E"):
            return true
        default: return false
        }
    }

    func degrees(_ name: String) throws -> Double {
        guard let text = self[name] else {
            throw fail("Parameter '\(name)' is missing; give lat and lon in degrees, e.g. lat=51.47&lon=-0.45")
        }
        return try number(name, text)
    }

    /// `zoom`, 18 when missing, clamped to 0…18.
    func zoom() throws -> Int {
        guard let text = self["zoom"] else { return 18 }
        guard let parsed = Int(text.trimmingCharacters(in: .whitespaces)) else {
            throw fail("Parameter 'zoom' must be a whole number from 0 to 18; got '\(DisplayText.sanitized(text, limit: 40))'")
        }
        return min(max(parsed, 0), 18)
    }

    /// Nominatim's booleans: only "0" is false; any other value, "no" and "false" included, is true.
    func flag(_ name: String, default fallback: Bool) -> Bool {
        guard let text = self[name] else { return fallback }
        return text != "0"
    }

    /// The polygon_* asked for: one at most.
    func geometryOutputs() throws -> [NominatimGeometryOutput] {
        // GeoJSON and GeocodeJSON print an outline only as GeoJSON; the other polygon_* do not count there.
        let geometryFormats: [NominatimGeometryOutput] =
            format == .geojson || format == .geocodejson ? [.geojson] : NominatimGeometryOutput.allCases
        let geometries = geometryFormats.filter { flag($0.parameter, default: false) }
        guard geometries.count <= 1 else {
            throw fail("Only one polygon output may be requested; got \(geometries.map(\.parameter).joined(separator: ", "))")
        }
        return geometries
    }

    /// `layer`: addresses and POIs when missing; an empty parameter is none, as Nominatim reads it.
    func layers() throws -> ReverseLayers {
        guard let text = self["layer"], !text.allSatisfy(\.isWhitespace) else { return .standard }
        do { return try ReverseLayers(list: text) } catch { throw fail("Parameter 'layer' \(error.message)") }
    }

    /// `json_callback`, for a JSON format only.
    func jsonCallback() throws -> String? {
        guard format.isJSON, let callback = self["json_callback"] else { return nil }
        guard ReverseRequest.isSafeCallback(callback) else {
            throw fail(
                "Invalid json_callback value; it may hold only letters, digits, '_', '$' and '.', and no part may start with a digit")
        }
        return callback
    }
}
