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
}
