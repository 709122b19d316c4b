import Travel411Store

extension PlacesSchema.AreaLevel {
    /// Which need reads this level.
    @inline(__always) var need: PlacemarkNeeds {
        switch self {
        case .country: return .country
        case .admin: return .admin
        case .district: return .district
        case .timezone: return .timeZone
        case .ocean, .inlandWater: return .water
        case .city: return .localities
        case .suburb: return .subLocality
        }
    }

    /// Which need reads the level with this ordinal.
    @inline(__always) static func need(ordinal: Int) -> PlacemarkNeeds { Self(ordinal: ordinal).need }

    /// The ordinals of the levels that `needs` reads, as bits (bit n: ordinal n; `need`'s map turned around): a
    /// point's lookups and hints walk these bits rather than asking `need(ordinal:)` of all eight ordinals.
    @inline(__always) static func ordinals(readBy needs: PlacemarkNeeds) -> UInt8 {
        var bits: UInt8 = 0
        if needs.contains(.country) { bits |= 1 << 0 }
        if needs.contains(.admin) { bits |= 1 << 1 }
        if needs.contains(.district) { bits |= 1 << 2 }
        if needs.contains(.timeZone) { bits |= 1 << 3 }
        if needs.contains(.water) { bits |= 1 << 4 | 1 << 5 }
        if needs.contains(.localities) { bits |= 1 << 6 }
        if needs.contains(.subLocality) { bits |= 1 << 7 }
        return bits
    }
}
