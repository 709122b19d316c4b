import Travel411Geocoder

extension NominatimPlace {
    /// The key Nominatim lists a boundary's `ISO3166-2` code under, by its `admin_level`.
    static let subdivisionKeyPrefix = "ISO3166-2-lvl"

    /// The `ISO3166-2-lvl<admin_level>` line that follows an address line shown from a boundary tagged `ISO3166-2`:
    /// Nominatim 5.3's `_write_typed_address` (nominatim_api/v1/format_json.py, format_xml.py) adds it for every address
    /// line whose names hold `ISO3166-2` (an extra name, lib-lua/themes/nominatim/presets.lua) and which has an
    /// `admin_level`: Monaco's quarters `lvl10` (MC-CO), Andorra's parishes `lvl7`, French departments `lvl6`. A nil
    /// value when the line is not shown or its boundary has no code.
    static func subdivisionLine(
        after value: String?, of feature: AnsweringFeature?, _ level: NominatimDetail
    ) -> (NominatimDetail, String, String?) {
        guard value != nil, let subdivision = feature?.subdivision else { return (level, "", nil) }
        return (level, subdivisionKeyPrefix + String(subdivision.adminLevel), subdivision.code)
    }

    /// The state's line: its boundary's code at its level, else (Natural Earth's first-level areas, which carry no
    /// level; older databases) the area's code as level 4, the level of a state in most countries' address levels.
    static func stateSubdivisionLine(state: String?, _ p: Placemark, detail: NominatimDetail) -> (NominatimDetail, String, String?) {
        guard detail >= .state else { return (.state, "", nil) }
        if p.administrativeAreaFeature?.subdivision != nil { return subdivisionLine(after: state, of: p.administrativeAreaFeature, .state) }
        return (.state, subdivisionKeyPrefix + "4", p.administrativeAreaCode)
    }

    /// One value a key, the finest, as Nominatim's answer keeps it: a village inside a municipality keyed `village` too
    /// leaves the municipality out (Rotenboden, not Triesenberg). A code's key keeps its first place and takes the
    /// coarser line's code, as `_write_typed_address` writes it over.
    static func keptOnce(_ parts: [(NominatimDetail, String, String?)]) -> [(key: String, value: String)] {
        var kept: [(key: String, value: String)] = []
        for case let (_, key, value?) in parts {
            if let index = kept.firstIndex(where: { $0.key == key }) {
                if key.hasPrefix(subdivisionKeyPrefix) { kept[index].value = value }
            } else {
                kept.append((key, value))
            }
        }
        return kept
    }
}
