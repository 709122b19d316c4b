/// The tags that name an element to Nominatim 5.3 and the one its answer shows. Its import style's `full` topic
/// (lib-lua/themes/nominatim/topics/full.lua) takes the name groups `core`, `address` and `poi` of
/// lib-lua/themes/nominatim/presets.lua (`NAME_TAGS`; GPL-2.0, the lists are data): a `main` name or a house name
/// makes the element named (`has_name`, `Place:grab_name_parts` in init.lua), which the `named` main tags need (a
/// service road, a footway, a railway platform); an `extra` name (`ref`, `int_ref`, ...) is a name but makes nothing
/// named. The answer shows the first present of `NOMINATIM_OUTPUT_NAMES` (settings/env.defaults:
/// `name:XX,name,brand,official_name:XX,short_name:XX,official_name,short_name,ref`), else the first name in the
/// name column's order (`Locales.display_name`, nominatim_api/localization.py): PostgreSQL's hstore keeps its keys
/// ordered by length, then by their bytes. A trunk tagged only `int_ref=E 584` is named "E 584" (Chișinău), a tram
/// platform tagged only `official_name=Knežija` is a street named "Knežija" (Zagreb).
package enum OSMNameTags {
    /// `NAME_TAGS.core.main` and `NAME_TAGS.poi.main`: each also with a `:*` suffix (a language, a date).
    static let mainKeys = [
        "name", "int_name", "reg_name", "loc_name", "old_name", "alt_name", "official_name", "place_name", "short_name",
    ]
    /// `NAME_TAGS.poi.main`: without suffixes.
    static let brandKey = "brand"
    /// `NAME_TAGS.core.extra` and `NAME_TAGS.poi.extra`.
    static let extraKeys = ["ref", "int_ref", "nat_ref", "reg_ref", "loc_ref", "old_ref", "ISO3166-2", "iata", "icao", "faa"]
    /// `NAME_TAGS.address.house`: a name, and a named element (`grab_name_parts`: the `house` group sets `has_name`).
    static let houseKey = "addr:housename"
    /// `NOMINATIM_OUTPUT_NAMES` without its language keys, which `Locales` leaves out when no language is asked.
    static let outputKeys = ["name", "brand", "official_name", "short_name", "ref"]

    /// The keys the reader hands over whole and the prefixes it hands over by (`OSMFeatureClassifier.keysRead`).
    package static let keysRead = [brandKey, houseKey] + extraKeys + mainKeys
    /// `name:` is read already for the languages (`OSMFeatureClassifier.names(_:)`).
    package static let keyPrefixesRead = mainKeys.dropFirst().map { $0 + ":" } + ["alt_name_"]

    /// Whether the key names the element and makes it named (`main` or `house`).
    static func isMain(_ key: String) -> Bool {
        if key == brandKey || key == houseKey { return true }
        for main in mainKeys where key.hasPrefix(main) {
            if key.utf8.count == main.utf8.count { return true }
            let rest = key.utf8.dropFirst(main.utf8.count)
            if rest.first == UInt8(ascii: ":") || (main == "alt_name" && rest.first == UInt8(ascii: "_")) { return true }
        }
        return false
    }

    /// Whether the element is named: one of its keys is a main or house name with a value.
    package static func hasName(_ tags: OSMTags) -> Bool {
        tags.tags.contains { $0.role.contains(.mainName) && OSMFeatureClassifier.value($0.value) != nil }
    }

    /// The name Nominatim's answer shows without a language: the first output key present, else the first name by
    /// the hstore's order (shorter keys first, then by bytes); nil when the element has no name tag at all.
    package static func displayName(_ tags: OSMTags) -> String? {
        var best: (rank: Int, key: String, value: String)?
        for tag in tags.tags where !tag.role.isDisjoint(with: [.mainName, .extraName]) {
            let key = tag.key
            guard let value = OSMFeatureClassifier.value(tag.value) else { continue }
            let rank = outputKeys.firstIndex(of: key) ?? outputKeys.count
            if let current = best, !(rank < current.rank || (rank == current.rank && precedes(key, current.key))) { continue }
            best = (rank, key, value)
        }
        return best?.value
    }

    /// hstore's key order (`comparePairs`, PostgreSQL's hstore_io.c): by length in bytes, then by the bytes.
    static func precedes(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8.count, right = rhs.utf8.count
        return left != right ? left < right : lhs.utf8.lexicographicallyPrecedes(rhs.utf8)
    }
}
