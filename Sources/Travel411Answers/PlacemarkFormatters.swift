import Foundation
import Travel411Core
import Travel411Geocoder

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

    /// `where LAT LON --fields …`: only `fields`, in their order, after the location, as the batch
    /// appends them to each row. Nil for `nominatim`, whose keys are Nominatim's, not these fields.
    public static func format(_ placemark: Placemark, as format: PlacemarkFormat, fields: [PlacemarkField]) -> String? {
        switch format {
        case .text: text(placemark, fields: fields)
        case .json: jsonObject(placemark, fields: fields)
        case .geojson: geoJSONFeature(placemark, fields: fields)
        case .nominatim: nil
        }
    }

    /// Aligned "field  value" lines for people; absent fields are left out.
    public static func text(_ placemark: Placemark, fields: [PlacemarkField] = PlacemarkField.standard) -> String {
        var lines = ["location               \(placemark.location)"]
        for field in fields {
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

    /// Every placemark key (or those of `fields`), `null` when absent, in `PlacemarkField` order (or
    /// that of `fields`) after the location.
    public static func jsonObject(_ placemark: Placemark, fields: [PlacemarkField] = PlacemarkField.standard) -> String {
        var members = [
            "\"latitude\":\(JSONText.number(placemark.location.latitude))",
            "\"longitude\":\(JSONText.number(placemark.location.longitude))",
        ]
        for field in fields {
            members.append("\(JSONText.string(field.rawValue)):\(JSONText.value(field.text(in: placemark), numeric: field.isNumeric))")
        }
        return "{" + members.joined(separator: ",") + "}"
    }

    public static func geoJSONFeature(_ placemark: Placemark, fields: [PlacemarkField] = PlacemarkField.standard) -> String {
        let coordinates = "[\(JSONText.number(placemark.location.longitude)),\(JSONText.number(placemark.location.latitude))]"
        return
            "{\"type\":\"Feature\",\"geometry\":{\"type\":\"Point\",\"coordinates\":\(coordinates)},\"properties\":\(jsonObject(placemark, fields: fields))}"
    }
}

// NominatimFormatter (the `nominatim` format, shared with `travel411 serve`) is in NominatimAnswer.swift.
