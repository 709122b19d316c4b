import Foundation
import Travel411Core
import Travel411Store

/// Nominatim 5.3's address ranks, read from its `settings/address-levels.json` (Data/nominatim/): each
/// `tags` key and value gives a search rank and an address rank (one number for both, or `[search, address]`),
/// with entries for some `countries` overriding the default entry. The rows are those its
/// `nominatim_db/tools/refresh.py` (`_add_address_level_rows_from_entry`) loads into `address_levels`, and a
/// lookup follows `compute_place_rank` (`lib-sql/functions/ranking.sql`): the country's row before the
/// default's, an exact value before the key's catch-all (`""`), `administrative` joined with the
/// `admin_level` for boundaries. An address rank of 0 hides the object from addresses.
package struct NominatimAddressLevels: Sendable {
    package struct Ranks: Equatable, Sendable {
        package var search: Int
        package var address: Int
    }

    private struct Key: Hashable {
        var country: String?
        var key: String
        var value: String?
    }

    private let rows: [Key: Ranks]

    /// Data/nominatim/address-levels.json, read once per process; nil when Data/ has none.
    package static let embedded: NominatimAddressLevels? = {
        guard let data = try? EmbeddedData.locate() else { return nil }
        return try? NominatimAddressLevels(file: data.appendingPathComponent("nominatim/address-levels.json"))
    }()

    init(file: URL) throws {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: try Data(contentsOf: file))
        } catch {
            throw NominatimSettingsFileError(file: file.path, reason: "not readable JSON (\(error.localizedDescription))")
        }
        guard let entries = object as? [[String: Any]] else {
            throw NominatimSettingsFileError(file: file.path, reason: "not a list of entries")
        }
        var rows: [Key: Ranks] = [:]
        for (index, entry) in entries.enumerated() {
            guard let tags = entry["tags"] as? [String: [String: Any]] else {
                throw NominatimSettingsFileError(file: file.path, reason: "entry \(index + 1) has no `tags` mapping")
            }
            let countries: [String?] = (entry["countries"] as? [String]).map { $0.map { $0.lowercased() } } ?? [nil]
            for (key, values) in tags {
                for (value, ranks) in values {
                    let parsed: Ranks
                    if let both = ranks as? Int {
                        parsed = Ranks(search: both, address: both)
                    } else if let pair = ranks as? [Int], pair.count == 2 {
                        parsed = Ranks(search: pair[0], address: pair[1])
                    } else {
                        throw NominatimSettingsFileError(
                            file: file.path, reason: "entry \(index + 1): \(key)=\(value) is neither a rank nor a pair")
                    }
                    for country in countries { rows[Key(country: country, key: key, value: value.isEmpty ? nil : value)] = parsed }
                }
            }
        }
        self.rows = rows
    }

    /// The ranks of an object tagged `key=value` in `countryCode`; nil when no row matches (Nominatim then ranks 30).
    package func ranks(key: String, value: String, countryCode: String?) -> Ranks? {
        // `ORDER BY l.country_code, l.class, l.type`: the country's rows first, an exact value before the catch-all.
        let countries = countryCode.map { [$0.lowercased(), nil] } ?? [nil]
        for country in countries {
            if let exact = rows[Key(country: country, key: key, value: value)] { return exact }
            if let any = rows[Key(country: country, key: key, value: nil)] { return any }
        }
        return nil
    }

    /// A `place=type` object's ranks in `countryCode`; a capital (`capital=yes`, `is_major`) searches one rank
    /// higher, as `compute_place_rank` has it.
    package func placeRanks(type: String, countryCode: String?, isCapital: Bool = false) -> Ranks? {
        guard var found = ranks(key: "place", value: type, countryCode: countryCode) else { return nil }
        if isCapital { found.search -= 1 }
        return found
    }

    /// A `boundary=administrative` polygon's ranks at `adminLevel` in `countryCode`.
    package func boundaryRanks(adminLevel: Int, countryCode: String?) -> Ranks? {
        ranks(key: "boundary", value: "administrative\(adminLevel)", countryCode: countryCode)
    }

    /// The address part an address rank fills, in the bands Nominatim's `get_addr_tag_rank`
    /// (`lib-sql/functions/ranking.sql`) groups ranks into: 4 the country, 5-9 the state, 10-12 the county,
    /// 13-16 the city, 17-21 the suburb, 22-24 the neighbourhood; nil for 0 (hidden) and for finer ranks.
    package enum Band: Equatable, Sendable {
        case country, state, county, city, suburb, neighbourhood

        package init?(addressRank rank: Int) {
            switch rank {
            case 1...4: self = .country
            case 5...9: self = .state
            case 10...12: self = .county
            case 13...16: self = .city
            case 17...21: self = .suburb
            case 22...24: self = .neighbourhood
            default: return nil
            }
        }
    }
}
