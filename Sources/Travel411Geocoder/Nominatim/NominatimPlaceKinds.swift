import Travel411Core

/// What Nominatim's settings say about a kind of place, for the lookups that rank place nodes and for the
/// answers that print them.
package enum NominatimPlaceKinds {
    /// A stable number for the answer: the same place always gets the same id (FNV-1a of its names).
    package static func placeID(_ names: [String?]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for (index, name) in names.enumerated() {
            if index > 0 { add(UInt8(ascii: "|")) }
            guard var name else { continue }
            name.withUTF8 { for byte in $0 { add(byte) } }
        }
        return hash >> 12
    }

    /// Nominatim's `reverse_place_diameter` of a search rank (`lib-sql/functions/ranking.sql`), in degrees: how far from
    /// a node its place reaches, and how far around an object an `addr:*` key's place is looked for.
    package static func reversePlaceDiameter(searchRank rank: Int) -> Double {
        switch rank {
        case ...4: return 5
        case ...8: return 1.8
        case ...12: return 0.6
        case ...17: return 0.16
        case 18: return 0.08
        case 19: return 0.04
        default: return 0.02
        }
    }

    /// Nominatim's box around a place node, by its kind (half the side, in degrees); nil for a kind it keeps
    /// no size for (± 0.00005°).
    package static func nodeExtent(category: String, type: String) -> Double? {
        guard category == "place" else { return nil }
        switch type {
        case "city", "municipality": return 0.16
        case "town": return 0.04
        case "village", "hamlet", "district", "borough", "suburb": return 0.02
        case "locality", "neighbourhood", "quarter", "city_block", "farm": return 0.01
        default: return nil
        }
    }

    /// Nominatim's search rank of a place node, its `place_rank` (its address-levels.json: a suburb node is 19,
    /// though it makes an address part of rank 20); nil for a kind it does not list.
    package static func nodeRank(type: String) -> Int? {
        switch type {
        case "municipality": return 14
        case "city": return 16
        case "town", "borough": return 18
        case "village", "suburb": return 19
        case "hamlet", "quarter", "croft", "islet": return 20
        case "isolated_dwelling", "farm", "subdivision", "allotments": return 22
        case "neighbourhood": return 24
        case "locality", "city_block", "square", "mountain_pass": return 25
        default: return nil
        }
    }

    /// A place node's search rank as Nominatim 5.3 computes it (`compute_place_rank`, `lib-sql/functions/ranking.sql`):
    /// its kind's (`nodeRank(type:)`), one step more important for a major place, which `placex_insert` and
    /// `placex_update` (`lib-sql/functions/placex_triggers.sql`) say a `capital=yes` is (`is_major`). The reach follows
    /// (`reversePlaceDiameter`): Gibraltar's town node, a capital, is 17 and reaches 0.16°, not a town's 0.08°.
    package static func nodeRank(type: String, isCapital: Bool) -> Int? {
        nodeRank(type: type).map { isCapital ? $0 - 1 : $0 }
    }

    /// The factor `insert_addresslines` (Nominatim 5.3, `lib-sql/functions/placex_triggers.sql`) multiplies a guessed
    /// place's distance by when it orders the places of one address rank: at address rank 16, 0.2 for search rank 15
    /// (a capital city), 0.25 for 16 (a city), 0.5 for 18 (a town); 1 otherwise (a village, 19).
    package static func guessDistanceWeight(addressRank: Int, searchRank: Int) -> Double {
        guard addressRank == 16 else { return 1 }
        switch searchRank {
        case 15: return 0.2
        case 16: return 0.25
        case 18: return 0.5
        default: return 1
        }
    }
}
