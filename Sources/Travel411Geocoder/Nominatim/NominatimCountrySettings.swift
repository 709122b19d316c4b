import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// Nominatim 5.3's per-country settings, read from its own data files in Data/nominatim/ (Data/README.md gives
/// their version, origin and licence): `settings/country_settings.yaml` (each country's languages, postcode
/// form and postcode extent), the country names it includes from `settings/country-names/`, and the
/// `clean-postcodes` step's `default-pattern` of `settings/icu_tokenizer.yaml`. The rules that use them cite
/// the Nominatim code they follow; no country is named in travel411's code.
package struct NominatimCountrySettings: Sendable {
    /// A country's postcodes, as `nominatim_db/data/postcode_format.py`'s `PostcodeFormatter` reads `postcode`.
    enum Postcodes: Sendable {
        /// `postcode: no`: the country has none, and no value is one.
        case none
        /// `postcode: pattern/output`: values must match and are written in the output form.
        case format(NominatimPostcodeFormat)
        /// No `postcode` entry: the `default-pattern` applies.
        case unspecified
    }

    package struct Country: Sendable {
        /// `languages`: the country's languages, in the order the file gives them.
        var languages: [String] = []
        /// Where the names Nominatim's `country_name` table holds are written: `names(countryCode:)` reads them.
        var namesEntry: NominatimYAML?
        var postcodes: Postcodes = .unspecified
        /// `postcode: extent`, in metres: how far a postcode point reaches (`get_postcode_extent`).
        var postcodeExtentMetres: Double?
        /// `partition`: the part of Nominatim's search tables that holds the country's places (`get_partition`).
        package var partition: Int?
    }

    /// By lower-case ISO 3166-1 alpha-2 code, as the file keys them.
    package let countries: [String: Country]
    /// The form any postcode of a country without a pattern must have (`clean-postcodes`' `default-pattern`).
    let defaultFormat: NominatimPostcodeFormat
    /// `get_postcode_extent`'s default for a country without `extent`: 5 km.
    package static let defaultPostcodeExtentMetres = 5000.0
    /// The folder `!include`d name files are relative to.
    private let folder: URL
    /// Each country's names, read when first asked for: the 218 name files are most of the settings' bytes, and
    /// reading all of them cost a server's first request in another language (or a one-point `where
    /// --language`) about 0.2 s of CPU, where one country's file costs about a millisecond.
    private let namesByCountry = NamesCache()

    private final class NamesCache: Sendable {
        let names = Mutex<[String: [String: String]]>([:])
    }

    /// The settings in Data/nominatim/ (`EmbeddedData`), read once per process; nil when Data/ has no such folder
    /// (the rules then know no country's form).
    package static let embedded: NominatimCountrySettings? = {
        guard let data = try? EmbeddedData.locate() else { return nil }
        return try? NominatimCountrySettings(folder: data.appendingPathComponent("nominatim", isDirectory: true))
    }()

    /// Reads `country_settings.yaml`, the names it includes and `icu_tokenizer.yaml` from `folder`.
    init(folder: URL) throws {
        self.folder = folder
        let file = folder.appendingPathComponent("country_settings.yaml")
        var countries: [String: Country] = [:]
        for (code, entry) in try NominatimYAML.parse(contentsOf: file).entries {
            var country = Country()
            country.languages = (entry["languages"]?.text ?? "").split(separator: ",").map {
                $0.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty }
            country.namesEntry = entry["names"]
            country.partition = entry["partition"]?.text.flatMap { Int($0) }
            switch entry["postcode"] {
            case nil: country.postcodes = .unspecified
            case .scalar(let value, _):
                // YAML 1.1's `no`, as Python's loader reads it: false.
                guard ["no", "false", "off"].contains(value.lowercased()) else {
                    throw NominatimSettingsFileError(file: file.path, reason: "\(code): postcode is `\(value)`, neither `no` nor a mapping")
                }
                country.postcodes = .none
            case .some(let postcode):
                guard let pattern = postcode["pattern"]?.text else {
                    throw NominatimSettingsFileError(file: file.path, reason: "\(code): postcode has no pattern")
                }
                country.postcodes = .format(
                    try NominatimPostcodeFormat(countryCode: code, pattern: pattern, output: postcode["output"]?.text))
                country.postcodeExtentMetres = postcode["extent"]?.text.flatMap(Double.init)
            }
            countries[code.lowercased()] = country
        }
        self.countries = countries
        defaultFormat = try NominatimPostcodeFormat(
            countryCode: "", pattern: try Self.defaultPattern(folder.appendingPathComponent("icu_tokenizer.yaml")), output: nil)
    }

    /// The names Nominatim's `country_name` table holds for a country (lower- or upper-case ISO code): `name`
    /// (the default), `name:xx`, `short_name`, …, flattened as `nominatim_db/data/country_info.py`'s
    /// `_flatten_name_list` does. Empty for a code the file has no names for, or whose names file cannot be read
    /// (`NominatimCountrySettingsTests` reads every country's).
    package func names(countryCode: String) -> [String: String] {
        let code = countryCode.lowercased()
        if let names = namesByCountry.names.withLock({ $0[code] }) { return names }
        let names = countries[code]?.namesEntry.flatMap { try? Self.names($0, folder: folder) } ?? [:]
        namesByCountry.names.withLock { $0[code] = names }
        return names
    }

    /// The names of every country, reading each file; throws the first file that cannot be read.
    func allNames() throws -> [String: [String: String]] {
        try countries.compactMapValues { country in try country.namesEntry.map { try Self.names($0, folder: folder) } }
    }

    /// A country's names: its `!include`d file's mapping, flattened (`name:de`, `short_name`).
    private static func names(_ entry: NominatimYAML, folder: URL) throws -> [String: String] {
        var mapping = entry
        if case .scalar(let path, let tag) = entry, tag == "!include" {
            mapping = try NominatimYAML.parse(contentsOf: folder.appendingPathComponent(path))
        }
        var flat: [String: String] = [:]
        for (prefix, value) in mapping.entries {
            if let text = value.text {
                flat[prefix] = text
            } else {
                for (suffix, name) in value.entries {
                    guard let name = name.text else { continue }
                    flat[suffix == "default" ? prefix : "\(prefix):\(suffix)"] = name
                }
            }
        }
        return flat
    }

    /// The `clean-postcodes` step's `default-pattern`: the one line of the tokenizer's settings travel411 reads.
    private static func defaultPattern(_ file: URL) throws -> String {
        let text = try String(contentsOf: file, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix("default-pattern:") else { continue }
            guard case .mapping(let entries) = try NominatimYAML.parse(trimmed, file: file.path), let pattern = entries.first?.value.text
            else { break }
            return pattern
        }
        throw NominatimSettingsFileError(file: file.path, reason: "no `default-pattern` for the clean-postcodes step")
    }

    /// A postcode in its country's written form, as Nominatim's `clean-postcodes` sanitizer keeps it; nil when
    /// the value is no postcode of that country. `countryCode` nil (a point in no country) has none: the
    /// sanitizer's "objects that have no country assigned ... are always assumed to have no postcode".
    package func postcode(_ written: String, countryCode: String?) -> String? {
        guard let code = countryCode?.lowercased() else { return nil }
        switch countries[code]?.postcodes ?? .unspecified {
        case .none: return nil
        case .format(let format): return format.normalised(written)
        case .unspecified: return defaultFormat.normalised(written)
        }
    }

    /// How far a country's postcode points reach, in metres (`PostcodeFormatter.get_postcode_extent`).
    package func postcodeExtentMetres(countryCode: String?) -> Double {
        countryCode.flatMap { countries[$0.lowercased()]?.postcodeExtentMetres } ?? Self.defaultPostcodeExtentMetres
    }
}
