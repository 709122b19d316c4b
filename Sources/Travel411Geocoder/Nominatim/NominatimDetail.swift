import Travel411Core

/// How fine an answer may be. Nominatim's `zoom` picks the level: 3 country, 5 state, 8 county,
/// 10 city, 14 suburb, 16-17 street, 18 building; the zooms between fall to the coarser level.
public enum NominatimDetail: Int, Comparable, CaseIterable, Sendable {
    case country, state, county, city, suburb, street, building

    public init(zoom: Int) {
        switch zoom {
        case ..<5: self = .country
        case 5..<8: self = .state
        case 8..<10: self = .county
        case 10..<14: self = .city
        case 14..<16: self = .suburb
        case 16..<18: self = .street
        default: self = .building
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// Whether a place of the suburb level with search rank `rank` (nil: unknown) is part of an answer at this detail.
    /// From zoom 14 every one is. At zooms 12 and 13, whose levels stop at the city, those the zoom's highest rank
    /// reaches: Nominatim's area search takes every place up to it (`_lookup_area_address`, nominatim_api/reverse.py
    /// 5.3), so a suburb or village node (search rank 19, settings/address-levels.json) answers at zoom 13.
    public func includesSuburbLevel(rank: Int?, maximumRank: Int) -> Bool {
        self >= .suburb || (self == .city && (rank.map { $0 <= maximumRank } ?? false))
    }

    /// The highest rank Nominatim's reverse search answers with at a zoom (its `REVERSE_MAX_RANKS`): 26
    /// major streets at 16, 27 every street at 17, 30 addresses and points of interest at 18.
    public static func maximumRank(zoom: Int) -> Int {
        let ranks = [2, 2, 2, 4, 4, 8, 10, 10, 12, 12, 16, 17, 18, 19, 22, 25, 26, 27, 30]
        return ranks[min(max(zoom, 0), ranks.count - 1)]
    }

    /// Nominatim's place_rank (and address_rank) for an answer of this level.
    public var placeRank: Int { [4, 8, 12, 16, 20, 26, 30][rawValue] }
    /// Nominatim's importance for a place without a Wikipedia-based one: 0.40001 - rank / 75, which puts
    /// countries first and houses last.
    var importance: Double { 0.40001 - Double(placeRank) / 75 }
    /// `importance` as JSON, made once per level: formatting a Double costs more than the rest of the member.
    package var importanceJSON: String { Self.importanceTexts[rawValue] }
    private static let importanceTexts = allCases.map { JSONText.number($0.importance) }
    /// category (jsonv2) or class (json), type, addresstype, and GeocodeJSON's type.
    package var category: String { ["boundary", "boundary", "boundary", "place", "place", "highway", "place"][rawValue] }
    package var type: String { ["administrative", "administrative", "administrative", "city", "suburb", "road", "house"][rawValue] }
    package var addressType: String { ["country", "state", "county", "city", "suburb", "road", "place"][rawValue] }
    package var geocodeJSONType: String { ["country", "state", "county", "city", "district", "street", "house"][rawValue] }
}
