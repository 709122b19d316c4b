/// The key an administrative boundary's line has in Nominatim's address when neither its own `place` tag nor a linked
/// place node names it: `get_label_tag`'s `ADMIN_LABELS` (nominatim_api/v1/classtypes.py, Nominatim 5.3.3, GPL-2.0;
/// its table, not its code), by half the boundary's address rank, Norway's and Sweden's own first. The rank is the
/// country's (settings/address-levels.json): India's districts (admin_level 5, rank 10) are `state_district`, Belgium's
/// regions (admin_level 4, rank 6) `region`, a Swedish or Norwegian boundary of rank 8 `county`.
package enum NominatimAdminLabel {
    private static let labels = [
        1: "continent", 2: "country", 3: "region", 4: "state", 5: "state_district", 6: "county", 7: "municipality", 8: "city",
        9: "city_district", 10: "suburb", 11: "neighbourhood", 12: "city_block",
    ]
    private static let countryLabels = ["no": [3: "state", 4: "county"], "se": [3: "state", 4: "county"]]

    /// The key of a boundary of `addressRank` in the country of `countryCode` (ISO 3166-1, either case).
    package static func key(addressRank: Int, countryCode: String?) -> String {
        let half = addressRank / 2
        if let code = countryCode?.lowercased(), let label = countryLabels[code]?[half] { return label }
        return labels[half] ?? "administrative"
    }
}
