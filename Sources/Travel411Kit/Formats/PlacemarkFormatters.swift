import Foundation

/// Turns one value into the text a command prints. Every output format of a command is one of these,
/// chosen by its `--format`, so that commands print and never shape output themselves.
public protocol OutputFormatter<Subject>: Sendable {
    associatedtype Subject
    func format(_ subject: Subject) throws -> String
}

/// A JSON document: pretty-printed, keys sorted, in the subject's one `Encodable` shape.
public struct JSONDocumentFormatter<Subject: Encodable>: OutputFormatter {
    public init() {}
    public func format(_ subject: Subject) throws -> String { try JSONDocument.text(subject) }
}

/// Output shapes for a single placemark (`travel411 where LAT LON`).
public enum PlacemarkFormat: String, CaseIterable, Sendable {
    case text, json, geojson, nominatim

    public var formatter: any OutputFormatter<Placemark> {
        switch self {
        case .text: PlacemarkFormatter.Text()
        case .json: PlacemarkFormatter.JSONObject()
        case .geojson: PlacemarkFormatter.GeoJSONFeature()
        case .nominatim: NominatimFormatter.JSONV2()
        }
    }
}

public enum PlacemarkFormatter {
    public struct Text: OutputFormatter {
        public func format(_ placemark: Placemark) -> String { text(placemark) }
    }

    /// Compact, keys in `PlacemarkField` order: the same keys and values as `Placemark`'s `Encodable`
    /// shape (a test holds them equal), written directly because batches print one per row.
    public struct JSONObject: OutputFormatter {
        public func format(_ placemark: Placemark) -> String { jsonObject(placemark) }
    }

    public struct GeoJSONFeature: OutputFormatter {
        public func format(_ placemark: Placemark) -> String { geoJSONFeature(placemark) }
    }

    public static func format(_ placemark: Placemark, as format: PlacemarkFormat) -> String {
        // None of the placemark formatters throws.
        (try? format.formatter.format(placemark)) ?? ""
    }

    /// Aligned "field  value" lines for people; absent fields are left out.
    public static func text(_ placemark: Placemark) -> String {
        var lines = ["location               \(placemark.location)"]
        for field in PlacemarkField.allCases {
            guard let value = field.text(in: placemark) else { continue }
            // A flag people need to see only when it holds; its name is longer than the label column.
            if field == .countryFromTerritorialWaters {
                if placemark.countryFromTerritorialWaters { lines.append("\(field.rawValue) true") }
                continue
            }
            let label = field.rawValue.padding(toLength: 22, withPad: " ", startingAt: 0)
            lines.append("\(label) \(field == .distance ? value + " m" : value)")
        }
        return lines.joined(separator: "\n")
    }

    /// Every placemark key, `null` when absent, in `PlacemarkField` order after the location.
    public static func jsonObject(_ placemark: Placemark) -> String {
        var members = [
            "\"latitude\":\(JSONText.number(placemark.location.latitude))",
            "\"longitude\":\(JSONText.number(placemark.location.longitude))",
        ]
        for field in PlacemarkField.allCases {
            members.append("\(JSONText.string(field.rawValue)):\(JSONText.value(field.text(in: placemark), numeric: field.isNumeric))")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    public static func geoJSONFeature(_ placemark: Placemark) -> String {
        let coordinates = "[\(JSONText.number(placemark.location.longitude)),\(JSONText.number(placemark.location.latitude))]"
        return "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(coordinates)},\"properties\":\(jsonObject(placemark))}"
    }
}

/// Nominatim's `format=jsonv2` reverse answer, for clients written against Nominatim.
public enum NominatimFormatter {
    public struct JSONV2: OutputFormatter {
        public func format(_ placemark: Placemark) -> String { jsonV2(placemark) }
    }

    static let licence = "Data: Natural Earth (public domain); GeoNames (CC-BY 4.0); © OpenStreetMap contributors (ODbL 1.0); Contains OS data © Crown copyright and database right"

    public static func jsonV2(_ p: Placemark) -> String {
        guard p.country != nil || p.locality != nil else { return "{\"error\":\"Unable to geocode\"}" }
        let road = p.thoroughfare.map { street in p.subThoroughfare.map { "\($0) \(street)" } ?? street }
        let address: [(String, String?)] = [
            ("house_number", p.subThoroughfare), ("road", p.thoroughfare), ("suburb", p.subLocality), ("city", p.locality),
            ("county", p.subAdministrativeArea), ("state", p.administrativeArea), ("ISO3166-2-lvl4", p.administrativeAreaCode),
            ("postcode", p.postalCode),
            ("country", p.country), ("country_code", p.isoCountryCode?.lowercased()),
        ]
        let displayParts = [road, p.subLocality, p.locality, p.subAdministrativeArea, p.administrativeArea, p.postalCode, p.country]
        let lat = p.location.latitude, lon = p.location.longitude
        let delta = p.thoroughfare != nil ? 0.0005 : 0.005
        // Nominatim writes 7 decimals; rounding also hides binary noise such as 51.464999999999996.
        let box = [lat - delta, lat + delta, lon - delta, lon + delta].map { JSONText.string(JSONText.number(($0 * 1e7).rounded() / 1e7)) }
        var members = [
            "\"place_id\":\(placeID(p))",
            "\"licence\":\(JSONText.string(licence))",
            "\"lat\":\(JSONText.string(JSONText.number(lat)))",
            "\"lon\":\(JSONText.string(JSONText.number(lon)))",
            "\"category\":\(JSONText.string(p.thoroughfare != nil ? "highway" : "place"))",
            "\"type\":\(JSONText.string(p.thoroughfare != nil ? "road" : (p.locality != nil ? "city" : "country")))",
            "\"display_name\":\(JSONText.string(displayParts.compactMap { $0 }.joined(separator: ", ")))",
        ]
        let addressMembers = address.compactMap { key, value in value.map { "\(JSONText.string(key)):\(JSONText.string($0))" } }
        members.append("\"address\":{" + addressMembers.joined(separator: ",") + "}")
        members.append("\"boundingbox\":[" + box.joined(separator: ",") + "]")
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A stable number for the answer: the same place always gets the same id (FNV-1a of its names).
    static func placeID(_ p: Placemark) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in [p.thoroughfare, p.locality, p.administrativeArea, p.isoCountryCode].map({ $0 ?? "" }).joined(separator: "|").utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash >> 12
    }
}

/// JSON text pieces for single answers: strings escaped by the batch's `JSONTextWriter` (one
/// escaper for every JSON travel411 writes), numbers in their shortest round-tripping form.
public enum JSONText {
    public static func string(_ text: String) -> String {
        let buffer = ByteBuffer(capacity: text.utf8.count + 8)
        JSONTextWriter.appendString(text, to: buffer)
        return String(decoding: buffer.bytes, as: UTF8.self)
    }

    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return Coordinate.format(value)
    }

    static func value(_ text: String?, numeric: Bool) -> String {
        guard let text else { return "null" }
        return numeric ? text : string(text)
    }
}
