import Foundation
import Testing

@testable import Travel411Geocoder

/// Nominatim 5.3's own settings files in Data/nominatim/, as travel411 reads them.
struct NominatimCountrySettingsTests {
    private static func settings() throws -> NominatimCountrySettings {
        try #require(NominatimCountrySettings.embedded, "Data/nominatim/ should hold Nominatim's settings")
    }

    @Test func readsEveryCountryOfTheFile() throws {
        let settings = try Self.settings()
        // 218 entries in country_settings.yaml of nominatim-db 5.3.3.
        #expect(settings.countries.count == 218)
        let liechtenstein = try #require(settings.countries["li"])
        #expect(liechtenstein.languages == ["de"])
        let names = settings.names(countryCode: "LI")
        #expect(names["name"] == "Liechtenstein")
        #expect(names["name:fr"] == "Liechtenstein")
        #expect(names["name:ja"] == "リヒテンシュタイン")
        #expect(settings.names(countryCode: "gb")["short_name"] == "UK")
        // `"no": Norge` is a quoted key, not YAML's false.
        #expect(settings.names(countryCode: "no")["name:no"] == "Norge")
        #expect(settings.countries["ch"]?.languages == ["de", "fr", "it", "rm"])
        #expect(settings.names(countryCode: "zz").isEmpty)
    }

    /// The names are read per country when asked for: every file must still read, or a country would
    /// silently answer in its stored name only.
    @Test func everyCountrysNamesFileReads() throws {
        let all = try Self.settings().allNames()
        #expect(all.count == 218)
        #expect(all.values.allSatisfy { $0["name"] != nil })
    }

    @Test func postcodesTakeTheCountrysWrittenForm() throws {
        let settings = try Self.settings()
        // Latvia writes `LV-1010`; a code tagged bare or with a space answers so.
        #expect(settings.postcode("1010", countryCode: "LV") == "LV-1010")
        #expect(settings.postcode("lv 1010", countryCode: "lv") == "LV-1010")
        // The Netherlands' `1234 AB`, with or without the space.
        #expect(settings.postcode("1012ab", countryCode: "NL") == "1012 AB")
        #expect(settings.postcode("1012 AB", countryCode: "NL") == "1012 AB")
        // A country prefix is dropped where the output does not write one.
        #expect(settings.postcode("LI-9490", countryCode: "LI") == "9490")
        #expect(settings.postcode(" 00100 ", countryCode: "FI") == "00100")
        #expect(settings.postcode("sw1a1aa", countryCode: "GB") == "SW1A 1AA")
    }

    @Test func aValueOutsideThePatternIsNoPostcode() throws {
        let settings = try Self.settings()
        #expect(settings.postcode("94490", countryCode: "LI") == nil)
        #expect(settings.postcode("000120", countryCode: "FI") == nil)
        // Zeros are a placeholder, not a postcode.
        #expect(settings.postcode("0000", countryCode: "CH") == nil)
        // The Emirates have no postcodes (`postcode: no`); a point in no country has none either.
        #expect(settings.postcode("12345", countryCode: "AE") == nil)
        #expect(settings.postcode("9490", countryCode: nil) == nil)
        // A country without a pattern takes the default-pattern of icu_tokenizer.yaml: 3-12 of A-Z, 0-9, - and space.
        #expect(settings.postcode("AB-12", countryCode: "XX") == "AB-12")
        #expect(settings.postcode("12", countryCode: "XX") == nil)
    }

    @Test func postcodeExtentsAreTheFilesElseFiveKilometres() throws {
        let settings = try Self.settings()
        #expect(settings.postcodeExtentMetres(countryCode: "LI") == 4000)
        #expect(settings.postcodeExtentMetres(countryCode: "gb") == 700)
        #expect(settings.postcodeExtentMetres(countryCode: "FI") == 5000)
        #expect(settings.postcodeExtentMetres(countryCode: nil) == 5000)
    }

    @Test func addressLevelsFollowTheCountrysRowsFirst() throws {
        let levels = try #require(NominatimAddressLevels.embedded)
        // The default: admin_level 8 is rank 16, the city.
        #expect(levels.boundaryRanks(adminLevel: 8, countryCode: "FI") == .init(search: 16, address: 16))
        #expect(levels.boundaryRanks(adminLevel: 8, countryCode: nil) == .init(search: 16, address: 16))
        // The Netherlands: 8 is the municipality (14), 10 the city (16), 7 and 9 hidden.
        #expect(levels.boundaryRanks(adminLevel: 8, countryCode: "nl")?.address == 14)
        #expect(levels.boundaryRanks(adminLevel: 10, countryCode: "NL")?.address == 16)
        #expect(levels.boundaryRanks(adminLevel: 7, countryCode: "NL")?.address == 0)
        // Sweden and Norway: 3 the state, 4 the county.
        #expect(levels.boundaryRanks(adminLevel: 4, countryCode: "SE")?.address == 12)
        // A value no row names takes its key's catch-all.
        #expect(levels.ranks(key: "boundary", value: "protected_area", countryCode: "FI") == .init(search: 25, address: 0))
        #expect(levels.ranks(key: "place", value: "village", countryCode: "LI") == .init(search: 19, address: 16))
        #expect(NominatimAddressLevels.Band(addressRank: 14) == .city)
        #expect(NominatimAddressLevels.Band(addressRank: 12) == .county)
        #expect(NominatimAddressLevels.Band(addressRank: 0) == nil)
    }

    @Test func aBrokenFileIsNamedWithItsLine() {
        #expect(throws: NominatimYAML.SyntaxError.self) { try NominatimYAML.parse("a:\n  b: 1\n c: 2\n", file: "x.yaml") }
        do {
            _ = try NominatimYAML.parse("a: 1\nnot a mapping\n", file: "x.yaml")
            Issue.record("no error")
        } catch {
            #expect("\(error)" == "x.yaml:2: expected `key: value`, found `not a mapping`")
        }
    }
}
