import Foundation

/// An optional that is written as `null` when absent, never left out, so that every JSON object of a type
/// has the same keys. Synthesised `Encodable` skips nil optionals; wrapping them is the one helper for
/// that, instead of a hand-written `encode(to:)` per type.
@propertyWrapper
public struct EncodedAsNull<Value: Encodable & Sendable>: Encodable, Sendable {
    public var wrappedValue: Value?

    public init(wrappedValue: Value?) { self.wrappedValue = wrappedValue }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue { try container.encode(wrappedValue) } else { try container.encodeNil() }
    }
}

extension EncodedAsNull: Equatable where Value: Equatable {}
extension EncodedAsNull: Hashable where Value: Hashable {}

/// The one rounding rule for figures a person reads in JSON: metres, kilometres and degrees of bearing to
/// a tenth (finer than any of them is known), coordinates to six decimals (about 10 cm). The placemark's
/// `distance` is whole metres, as in every batch format, since it is measured to a locality's point.
extension Double {
    public var roundedToTenths: Double { (self * 10).rounded() / 10 }

    public var roundedToMicrodegrees: Double { (self * 1_000_000).rounded() / 1_000_000 }
}

/// A JSON document as travel411 prints one: pretty, keys sorted, slashes as they are.
public enum JSONDocument {
    public static func text<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    /// One compact line, for JSON Lines streams.
    public static func line<Value: Encodable>(_ value: Value) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
