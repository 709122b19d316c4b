import Foundation
import Travel411Core

/// Nominatim's `layer`: which kinds of object a reverse answer may be. By default addresses (streets, house
/// numbers, places, boundaries) and POIs; `railway`, `natural` and `manmade` are objects travel411 does not
/// import, so asking for those alone finds nothing, as Nominatim finds nothing where it has none.
public struct ReverseLayers: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let address = ReverseLayers(rawValue: 1 << 0)
    public static let poi = ReverseLayers(rawValue: 1 << 1)
    public static let railway = ReverseLayers(rawValue: 1 << 2)
    public static let natural = ReverseLayers(rawValue: 1 << 3)
    public static let manmade = ReverseLayers(rawValue: 1 << 4)

    /// Nominatim's default, and every answer's without `layer`.
    public static let standard: ReverseLayers = [.address, .poi]

    /// The names `layer` takes, in Nominatim's order.
    public static let names: [(name: String, layer: ReverseLayers)] = [
        ("address", .address), ("poi", .poi), ("railway", .railway), ("natural", .natural), ("manmade", .manmade),
    ]

    /// `layer`'s comma-separated list, read as Nominatim reads it (letter case and spaces ignored), for the
    /// server's parameter and `where --layer` alike. A list naming no layer, or a word that is none, is refused.
    public init(list: String) throws(Refusal) {
        let words = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
        guard !words.isEmpty else { throw Refusal(word: list) }
        var layers: ReverseLayers = []
        for word in words {
            guard let known = Self.names.first(where: { $0.name == word }) else { throw Refusal(word: word) }
            layers.insert(known.layer)
        }
        self = layers
    }

    /// A list `init(list:)` refuses: the word that is no layer (the whole list when it names none).
    public struct Refusal: Error, Equatable {
        public let word: String
        /// "takes address, poi, railway, natural, manmade; got 'trees'", after the parameter's or option's name.
        public var message: String {
            "takes \(ReverseLayers.names.map(\.name).joined(separator: ", ")); got '\(DisplayText.sanitized(word, limit: 40))'"
        }
    }
}
