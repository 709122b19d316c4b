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

    /// nil when a name is none of `names`; the empty list gives the standard layers.
    public init?(names: [String]) {
        guard !names.isEmpty else {
            self = .standard
            return
        }
        var layers: ReverseLayers = []
        for name in names {
            guard let known = Self.names.first(where: { $0.name == name }) else { return nil }
            layers.insert(known.layer)
        }
        self = layers
    }
}
