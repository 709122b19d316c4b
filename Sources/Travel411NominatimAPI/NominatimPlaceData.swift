import Foundation
import Travel411Answers
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// What a Nominatim answer carries beyond the geocoder's placemark, read from the places database's own
/// layers: country and first-level area names in other languages (Natural Earth's `NAME_XX` columns), the
/// OpenStreetMap objects' `name:xx` tags, and the outlines `polygon_*` prints. Natural Earth's names are read
/// once (about 5,000 rows); OpenStreetMap's and outlines per request that asks for them.
public final class NominatimPlaceData: Sendable {
    public let databasePath: String
    /// Layer (table) names of the area levels, from the database's lookup tables.
    let countryLayers: [String]
    let adminLayers: [String]
    let districtLayers: [String]
    /// The municipalities' and suburbs' polygons by layer: their fids, as a boundaries layer holds every level.
    let cityFeatures: [String: Set<Int64>]
    let suburbFeatures: [String: Set<Int64>]
    /// A country's names by language ("ja" → "リヒテンシュタイン"), under each name the placemark may carry.
    let countryNames: [String: [String: String]]
    /// A first-level area's names by language, under "cc|name".
    let adminNames: [String: [String: String]]
    /// nil for a database without OpenStreetMap names.
    let osmNames: OSMNameTranslations?

    public init(databasePath: String) throws {
        self.databasePath = databasePath
        osmNames = OSMNameTranslations(databasePath: databasePath)
        let reader = try GeoPackageReader(path: databasePath)
        func layers(_ level: String) throws -> [String] {
            guard try reader.database.tableExists("travel411_areas") else { return [] }
            return try reader.database.query("SELECT DISTINCT layer FROM travel411_areas WHERE level = ?", [.text(level)])
                .compactMap { $0.first?.stringValue }
        }
        // Not the pieces of Nominatim's country grid: cells, not a country's outline for `polygon_*`.
        let gridPieces = Set(
            try reader.database.query(
                "SELECT table_name FROM gpkg_contents WHERE substr(description, 1, ?) = ?",
                [.integer(Int64(PlacesSchema.countryGridDescription.utf8.count)), .text(PlacesSchema.countryGridDescription)]
            ).compactMap { $0.first?.stringValue })
        countryLayers = try layers(PlacesSchema.AreaLevel.country.rawValue).filter { !gridPieces.contains($0) }
        adminLayers = try layers(PlacesSchema.AreaLevel.admin.rawValue)
        districtLayers = try layers(PlacesSchema.AreaLevel.district.rawValue)
        func features(_ level: String) throws -> [String: Set<Int64>] {
            guard try reader.database.tableExists("travel411_areas") else { return [:] }
            var features: [String: Set<Int64>] = [:]
            for row in try reader.database.query("SELECT layer, fid FROM travel411_areas WHERE level = ?", [.text(level)]) {
                guard row.count == 2, let layer = row[0].stringValue, let fid = row[1].int64Value else { continue }
                features[layer, default: []].insert(fid)
            }
            return features
        }
        cityFeatures = try features(PlacesSchema.AreaLevel.city.rawValue)
        suburbFeatures = try features(PlacesSchema.AreaLevel.suburb.rawValue)
        var countryNames: [String: [String: String]] = [:]
        for layer in countryLayers {
            for (keys, names) in try Self.translations(reader.database, layer: layer, keyColumns: ["NAME_LONG", "ADMIN", "NAME"]) {
                for key in keys { countryNames[key, default: [:]].merge(names) { old, _ in old } }
            }
        }
        var adminNames: [String: [String: String]] = [:]
        for layer in adminLayers {
            for (keys, names) in try Self.translations(reader.database, layer: layer, keyColumns: ["iso_a2", "name"]) where keys.count == 2
            {
                adminNames[keys[0].uppercased() + "|" + keys[1], default: [:]].merge(names) { old, _ in old }
            }
        }
        self.countryNames = countryNames
        self.adminNames = adminNames
    }

    /// Each row's key columns and its `name_xx` columns by language code (lower case), non-empty ones only.
    private static func translations(_ database: SQLiteDatabase, layer: String, keyColumns: [String]) throws -> [(
        [String], [String: String]
    )] {
        let quoted = "\"" + layer.replacingOccurrences(of: "\"", with: "\"\"") + "\""
        let columns = try database.query("PRAGMA table_info(\(quoted))").compactMap { $0.count > 1 ? $0[1].stringValue : nil }
        func column(_ name: String) -> String? { columns.first { $0.caseInsensitiveCompare(name) == .orderedSame } }
        let keys = keyColumns.compactMap(column)
        let languages = columns.compactMap { name -> (column: String, language: String)? in
            let lower = name.lowercased()
            guard lower.hasPrefix("name_"), (2...3).contains(lower.count - 5), lower.dropFirst(5).allSatisfy(\.isLetter) else { return nil }
            return (name, String(lower.dropFirst(5)))
        }
        guard !keys.isEmpty, !languages.isEmpty else { return [] }
        let select = (keys + languages.map(\.column)).map { "\"\($0)\"" }.joined(separator: ",")
        return try database.query("SELECT \(select) FROM \(quoted)").map { row in
            let keyValues = row.prefix(keys.count).compactMap { $0.stringValue }.filter { !$0.isEmpty }
            var names: [String: String] = [:]
            for (index, language) in languages.enumerated() {
                if let name = row[keys.count + index].stringValue, !name.isEmpty { names[language.language] = name }
            }
            return (keyValues, names)
        }
    }

    /// The placemark named in the first of `languages` that the data has a name in: its OpenStreetMap objects
    /// (those `ReverseGeocoder.addNameSources` set) by their `name:xx` tags, else `name`, as Nominatim names
    /// them; its country and first-level area, when no OpenStreetMap boundary names them or in a language the
    /// boundary has no name in, by Natural Earth's.
    /// Names the data has in none of the languages stay as stored, unless `fallback` is `.nominatim`.
    /// `nameDetails` fills the objects' `names` even without a language.
    public func localized(
        _ placemark: Placemark, languages: [String], nameDetails: Bool = false, fallback: NameFallback = .stored
    ) -> Placemark {
        guard !languages.isEmpty || nameDetails else {
            // No language, no namedetails: no OpenStreetMap name is read, only the country renamed.
            guard fallback == .nominatim, let ownCountryName = nominatimCountryName(placemark) else { return placemark }
            var named = placemark
            named.country = ownCountryName
            named.name = Self.name(placemark.name, madeFrom: placemark, renamed: named)
            return named
        }
        let stored = placemark
        let countryTranslations = countryTranslations(placemark)
        var placemark = osmNames?.localized(placemark, languages: languages, countryNames: countryTranslations) ?? placemark
        // An area an OpenStreetMap boundary names was named above, unless the database keeps no OSM names.
        let namedByOSM = osmNames != nil
        if !(namedByOSM && placemark.countryFeature != nil), placemark.country != nil,
            let name = Self.first(languages, in: countryTranslations) ?? (fallback == .nominatim ? nominatimCountryName(stored) : nil)
        {
            placemark.country = name
        }
        if !languages.isEmpty, !(namedByOSM && placemark.administrativeAreaFeature != nil), let area = placemark.administrativeArea,
            let code = placemark.isoCountryCode, let names = adminNames[code.uppercased() + "|" + area],
            let name = Self.first(languages, in: names)
        {
            placemark.administrativeArea = name
        }
        placemark.name = Self.name(stored.name, madeFrom: stored, renamed: placemark)
        return placemark
    }

    /// What names a place when the data has it in none of the languages asked, or no language is asked.
    public enum NameFallback: Sendable {
        /// The name as stored (`where --language`): Natural Earth's English for a country.
        case stored
        /// Nominatim's: `Locales.display_name` (`nominatim_api/localization.py`) takes `name` after the languages
        /// asked, and with none asked (`NOMINATIM_DEFAULT_LANGUAGE` is empty in `settings/env.defaults`) `name`
        /// alone. An OpenStreetMap object's `name` is what travel411 stores; a country's is the one its
        /// `country_name` table holds (`_finalize_entry`, `nominatim_api/results.py`): the country's own name
        /// from `settings/country-names/` ("Danmark", "Schweiz/Suisse/Svizzera/Svizra"), unless the data has
        /// the country's boundary, whose names replace it (`derived_name`, set in `placex_update`,
        /// `lib-sql/functions/placex_triggers.sql`), and which travel411 then answers with.
        case nominatim
    }

    /// The name Nominatim's `country_name` table gives a country no OpenStreetMap boundary of the data names
    /// (`NameFallback.nominatim`); nil when a boundary names it or Nominatim's settings have no name for it.
    func nominatimCountryName(_ placemark: Placemark) -> String? {
        guard placemark.countryFeature == nil, placemark.country != nil, let code = placemark.isoCountryCode else { return nil }
        return NominatimCountrySettings.embedded?.names(countryCode: code)["name"]
    }

    /// A country's names by language: Nominatim's (`settings/country-names/`, the names its `country_name` table
    /// answers a country with, `nominatim_db/data/country_info.py`) by the placemark's ISO code, then Natural
    /// Earth's `NAME_XX` for languages Nominatim has no name in.
    func countryTranslations(_ placemark: Placemark) -> [String: String] {
        var names = placemark.country.flatMap { countryNames[$0] } ?? [:]
        guard let code = placemark.isoCountryCode, let nominatim = NominatimCountrySettings.embedded else { return names }
        for (key, name) in nominatim.names(countryCode: code) where key.hasPrefix("name:") {
            names[String(key.dropFirst(5)).lowercased()] = name
        }
        return names
    }

    /// CLPlacemark's `name` made of the renamed fields as it was of the stored ones (`ReverseGeocoder`'s
    /// `appendName`): the object's own name, "20 Unioninkatu", the street, else an area.
    static func name(_ name: String?, madeFrom stored: Placemark, renamed: Placemark) -> String? {
        guard let name else { return nil }
        if name == stored.feature?.name { return renamed.feature?.name ?? name }
        if let number = stored.subThoroughfare, let road = stored.thoroughfare, let renamedRoad = renamed.thoroughfare,
            name == "\(number) \(road)"
        {
            return "\(number) \(renamedRoad)"
        }
        let fields: [KeyPath<Placemark, String?>] = [\.thoroughfare, \.subLocality, \.locality, \.administrativeArea, \.country]
        for field in fields where stored[keyPath: field] == name { return renamed[keyPath: field] ?? name }
        return name
    }

    private static func first(_ languages: [String], in names: [String: String]) -> String? {
        for language in languages {
            if let name = names[language] { return name }
        }
        return nil
    }

    /// The outline of the area `place` was named after, simplified (`threshold` in degrees, `OutlineSimplifier`'s
    /// vertex cap); nil for places the database keeps no outline of (localities, streets, houses) or when the
    /// point lies outside every outline (a country found off its coast).
    public func outline(of place: NominatimPlace, threshold: Double) -> Shape? {
        let layers: [String]
        // A municipality's or suburb's polygon too (an extract's boundary; a place node's answer stays a point):
        // Nominatim answers an area with its outline under `polygon_*`.
        var only: [String: Set<Int64>]?
        switch place.level {
        case .country: layers = countryLayers
        case .state: layers = adminLayers
        case .county: layers = districtLayers
        case .city: (layers, only) = (cityFeatures.keys.sorted(), cityFeatures)
        case .suburb: (layers, only) = (suburbFeatures.keys.sorted(), suburbFeatures)
        default: return nil
        }
        guard let reader = try? GeoPackageReader(path: databasePath) else { return nil }
        let x = place.location.longitude, y = place.location.latitude
        for layer in layers {
            let candidates = (try? reader.candidates(in: layer, box: BoundingBox(minX: x, minY: y, maxX: x, maxY: y))) ?? []
            for fid in candidates where only.map({ $0[layer]?.contains(fid) ?? false }) ?? true {
                guard let shape = try? reader.geometry(table: layer, fid: fid), shape.contains(x: x, y: y) else { continue }
                return OutlineSimplifier.simplified(shape, threshold: threshold)
            }
        }
        return nil
    }
}

/// `accept-language` as Nominatim reads it: languages by falling weight, each regional one followed by its
/// base language ("fo-ca,fo;q=0.8,en;q=0.3" → fo-ca, fo, en), in lower case.
public enum AcceptLanguage {
    public static func languages(_ text: String) -> [String] {
        var weighted: [(language: String, weight: Double, order: Int)] = []
        for (order, part) in text.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";")
            let language =
                pieces.first.map { $0.trimmingCharacters(in: .whitespaces).lowercased().replacingOccurrences(of: "_", with: "-") } ?? ""
            guard !language.isEmpty, language != "*", language.count <= 35 else { continue }
            var weight = 1.0
            for piece in pieces.dropFirst() {
                let trimmed = piece.trimmingCharacters(in: .whitespaces)
                if trimmed.hasPrefix("q="), let value = Double(trimmed.dropFirst(2)) { weight = value }
            }
            weighted.append((language, weight, order))
        }
        var result: [String] = []
        for entry in weighted.sorted(by: { $0.weight != $1.weight ? $0.weight > $1.weight : $0.order < $1.order }) {
            if !result.contains(entry.language) { result.append(entry.language) }
            if let base = entry.language.split(separator: "-").first.map(String.init), !result.contains(base) { result.append(base) }
        }
        return result
    }
}
