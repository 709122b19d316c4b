import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder

/// One event as JSON (and as a GeoJSON feature's properties): USGS's fields under USGS's names,
/// our description, the distance and bearing from the near point, and our placemark under
/// `placemark` with exactly the keys of `travel411 where --format json`. Every key is always
/// present, `null` when unknown.
public struct QuakeJSON: Encodable, Sendable {
    public var id: String?
    public var time: String
    public var updated: String?
    public var latitude: Double
    public var longitude: Double
    /// Kilometres.
    public var depth: Double?
    public var mag: Double?
    public var magType: String?
    /// USGS's description.
    public var place: String?
    /// Ours.
    public var description: String
    public var type: String?
    public var status: String?
    public var net: String?
    public var nst: Int?
    public var gap: Double?
    public var dmin: Double?
    public var rms: Double?
    /// From the near point; null without one.
    public var distanceMetres: Double?
    public var bearingDegrees: Double?
    public var compassPoint: String?
    /// In `Placemark`'s one JSON shape: the keys of `travel411 where --format json`.
    public var placemark: Placemark

    public init(_ item: GeocodedQuake) {
        let quake = item.quake
        id = quake.id
        time = quake.time.iso8601
        updated = quake.updated?.iso8601
        latitude = QuakeNumbers.degrees(quake.coordinate.latitude)
        longitude = QuakeNumbers.degrees(quake.coordinate.longitude)
        depth = quake.depthKilometres
        mag = quake.magnitude
        magType = quake.magnitudeType
        place = quake.place
        description = item.description
        type = quake.eventType
        status = quake.status
        net = quake.network
        nst = quake.stationCount
        gap = quake.azimuthalGap
        dmin = quake.nearestStationDegrees
        rms = quake.rms
        distanceMetres = item.selected.distanceMetres.map(QuakeNumbers.tenths)
        bearingDegrees = item.selected.bearingDegrees.map(QuakeNumbers.tenths)
        compassPoint = item.selected.bearingDegrees.map { CompassPoint(bearing: $0).rawValue }
        placemark = item.placemark
    }

    enum CodingKeys: String, CodingKey {
        case id, time, updated, latitude, longitude, depth, mag, magType, place, description, type, status
        case net, nst, gap, dmin, rms, distanceMetres, bearingDegrees, compassPoint, placemark
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        // `encode` of an optional writes null, so every event has every key.
        try container.encode(id, forKey: .id)
        try container.encode(time, forKey: .time)
        try container.encode(updated, forKey: .updated)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(depth, forKey: .depth)
        try container.encode(mag, forKey: .mag)
        try container.encode(magType, forKey: .magType)
        try container.encode(place, forKey: .place)
        try container.encode(description, forKey: .description)
        try container.encode(type, forKey: .type)
        try container.encode(status, forKey: .status)
        try container.encode(net, forKey: .net)
        try container.encode(nst, forKey: .nst)
        try container.encode(gap, forKey: .gap)
        try container.encode(dmin, forKey: .dmin)
        try container.encode(rms, forKey: .rms)
        try container.encode(distanceMetres, forKey: .distanceMetres)
        try container.encode(bearingDegrees, forKey: .bearingDegrees)
        try container.encode(compassPoint, forKey: .compassPoint)
        try container.encode(placemark, forKey: .placemark)
    }
}

/// A GeoJSON FeatureCollection of the events: Point geometry [longitude, latitude, depth] as USGS
/// writes it, and the JSON event as the properties.
public struct QuakeFeatureCollection: Encodable, Sendable {
    public var type = "FeatureCollection"
    public var features: [Feature]

    public struct Feature: Encodable, Sendable {
        public var type = "Feature"
        public var id: String?
        public var geometry: Geometry
        public var properties: QuakeJSON

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(type, forKey: .type)
            try container.encode(id, forKey: .id)
            try container.encode(geometry, forKey: .geometry)
            try container.encode(properties, forKey: .properties)
        }

        enum CodingKeys: String, CodingKey { case type, id, geometry, properties }
    }

    public struct Geometry: Encodable, Sendable {
        public var type = "Point"
        public var coordinates: [Double]
    }

    public init(_ items: [GeocodedQuake]) {
        features = items.map { item in
            let json = QuakeJSON(item)
            var coordinates = [json.longitude, json.latitude]
            if let depth = json.depth { coordinates.append(depth) }
            return Feature(id: json.id, geometry: Geometry(coordinates: coordinates), properties: json)
        }
    }
}

/// CSV of the events: the JSON's keys as columns, the placemark's as `placemark.<name>` (the JSON
/// nesting, flattened), quoted by RFC 4180 where needed. Empty fields are unknown values.
public enum QuakeCSV {
    static let eventColumns = [
        "time", "latitude", "longitude", "depth", "mag", "magType", "place", "description",
        "distanceMetres", "bearingDegrees", "compassPoint",
        "id", "updated", "type", "status", "net", "nst", "gap", "dmin", "rms",
    ]

    public static var header: [String] {
        eventColumns + PlacemarkField.standard.map { "placemark." + $0.rawValue }
    }

    public static func text(_ items: [GeocodedQuake]) -> String {
        let writer = DelimitedTextWriter(delimiter: UInt8(ascii: ","))
        let buffer = GrowableByteArray(capacity: 256 * (items.count + 1))
        func row(_ fields: [String?]) {
            for (index, field) in fields.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                if let field { writer.appendField(field, to: buffer) }
            }
            buffer.append(UInt8(ascii: "\n"))
        }
        row(header)
        for item in items {
            let json = QuakeJSON(item)
            let number = { (value: Double?) in value.map(JSONText.number) }
            var fields: [String?] = [
                json.time, number(json.latitude), number(json.longitude), number(json.depth), number(json.mag), json.magType,
                json.place, json.description, number(json.distanceMetres), number(json.bearingDegrees), json.compassPoint,
                json.id, json.updated, json.type, json.status, json.net, json.nst.map(String.init), number(json.gap),
                number(json.dmin), number(json.rms),
            ]
            fields += PlacemarkField.standard.map { $0.text(in: item.placemark) }
            row(fields)
        }
        return String(decoding: buffer.bytes, as: UTF8.self)
    }
}

/// The table people read: time (UTC), magnitude, depth, USGS's place and ours; with a near point,
/// the distance and direction from it as well.
public enum QuakeTextTable {
    public static func lines(_ items: [GeocodedQuake], withDistance: Bool) -> [[String]] {
        var header = ["TIME (UTC)", "MAG", "DEPTH"]
        if withDistance { header += ["DISTANCE", "BEARING"] }
        header += ["USGS PLACE", "OUR DESCRIPTION"]
        var rows = [header]
        for item in items {
            let quake = item.quake
            var row = [
                quake.time.readable,
                quake.magnitude.map { QuakeNumbers.magnitude($0) + (quake.magnitudeType.map { " " + $0 } ?? "") } ?? "-",
                quake.depthKilometres.map { "\(QuakeNumbers.oneDecimal($0)) km" } ?? "-",
            ]
            if withDistance {
                row.append(item.selected.distanceMetres.map { DistanceFormatter.humanReadable(metres: $0) } ?? "-")
                row.append(
                    item.selected.bearingDegrees.map { "\(CompassPoint(bearing: $0).rawValue) (\(Int($0.rounded()) % 360)°)" } ?? "-")
            }
            row.append(quake.place.map { DisplayText.sanitized($0, limit: 80) } ?? "-")
            row.append(item.description)
            rows.append(row)
        }
        return rows
    }
}

/// The roundings of printed figures: degrees to 6 decimals (about 10 cm), metres and bearings to a tenth.
enum QuakeNumbers {
    static func degrees(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }
    static func tenths(_ value: Double) -> Double { (value * 10).rounded() / 10 }
    /// USGS's own figures pass through as read; only the table rounds magnitudes, to three decimals.
    static func thousandths(_ value: Double) -> Double { (value * 1000).rounded() / 1000 }
    static func oneDecimal(_ value: Double) -> String { String(format: "%.1f", value) }
    /// "4.6", "5.0", "2.59": at least one decimal, as magnitudes are written.
    static func magnitude(_ value: Double) -> String {
        let text = JSONText.number(thousandths(value))
        return text.contains(".") ? text : text + ".0"
    }
}
