import Foundation
import Travel411Core

/// tzdata's `zone.tab` (each zone's one ISO 3166-1 country) and `iso3166.tab` (each code's English
/// name), read from beside the time-zone shapefile. They tell which country a land time zone's
/// polygon belongs to, and its polygons follow each country's territorial waters.
struct TimeZoneCountries {
    /// tzid → ISO 3166-1 alpha-2 code ("Indian/Maldives" → "MV").
    var countryOfZone: [String: String] = [:]
    /// ISO 3166-1 alpha-2 code → name ("GF" → "French Guiana").
    var nameOfCountry: [String: String] = [:]

    var isEmpty: Bool { countryOfZone.isEmpty }

    /// The tables in the first of `folders` holding a `zone.tab`; empty when none does (then no
    /// country is inferred from a time zone). A malformed line is a reason, not a guess.
    package static func read(from folders: [URL]) throws -> TimeZoneCountries {
        var tables = TimeZoneCountries()
        guard let folder = folders.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("zone.tab").path) })
        else {
            return tables
        }
        let zoneFile = folder.appendingPathComponent("zone.tab")
        for (number, columns) in try rows(of: zoneFile) {
            guard columns.count >= 3, isCountryCode(columns[0]), !columns[2].isEmpty else {
                throw ImportError(
                    "\(zoneFile.path): line \(number): expected a country code, coordinates and a zone name separated by tabs")
            }
            tables.countryOfZone[columns[2]] = columns[0]
        }
        let namesFile = folder.appendingPathComponent("iso3166.tab")
        if FileManager.default.fileExists(atPath: namesFile.path) {
            for (number, columns) in try rows(of: namesFile) {
                guard columns.count >= 2, isCountryCode(columns[0]), !columns[1].isEmpty else {
                    throw ImportError("\(namesFile.path): line \(number): expected a country code and a name separated by a tab")
                }
                tables.nameOfCountry[columns[0]] = columns[1]
            }
        }
        return tables
    }

    /// Numbered lines that are neither blank nor comments, split at tabs.
    private static func rows(of file: URL) throws -> [(Int, [String])] {
        let text: String
        do {
            text = try String(contentsOf: file, encoding: .utf8)
        } catch {
            throw ImportError("\(file.path): cannot read it as UTF-8 text (\(error.localizedDescription))")
        }
        return text.split(separator: "\n", omittingEmptySubsequences: false).enumerated().compactMap { index, line in
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#") else { return nil }
            return (
                index + 1,
                line.split(separator: "\t", omittingEmptySubsequences: false).map {
                    $0.trimmingCharacters(in: .whitespacesAndNewlines)
                }
            )
        }
    }

    private static func isCountryCode(_ text: String) -> Bool {
        text.count == 2 && text.unicodeScalars.allSatisfy { $0.value >= 65 && $0.value <= 90 }
    }
}
