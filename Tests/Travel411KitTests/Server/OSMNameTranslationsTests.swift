import Foundation
import Testing
import Travel411Answers

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411Store

/// `accept-language` on a database imported from an OpenStreetMap extract names the answer's objects by their
/// `name:xx` tags, else `name`, as Nominatim does. The names expected are the fixtures' own tags (Helsinki's
/// `name:sv`, Liechtenstein's relation 47), read with sqlite3 from the imported feature tables.
@Suite struct OSMNameTranslationsTests {
    /// The `/reverse` answer at a point, as a server gives it, read as JSON. The databases hold the extract alone
    /// (no Natural Earth admin1: no state).
    static func answer(
        _ path: String, _ latitude: Double, _ longitude: Double, query: String, header: String? = nil
    ) throws -> [String: Any] {
        let body = try Self.body(path, latitude, longitude, query: "format=jsonv2&" + query, header: header)
        return try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    /// The `/reverse` answer's body for the query (`format` and the rest).
    static func body(_ path: String, _ latitude: Double, _ longitude: Double, query: String, header: String? = nil) throws -> String {
        let items = URLComponents(string: "http://x/reverse?lat=\(latitude)&lon=\(longitude)&" + query)?.queryItems ?? []
        let request = try ReverseRequest(parameters: items.map { ($0.name, $0.value ?? "") }, acceptLanguageHeader: header)
        let geocoder = try ReverseGeocoder(databasePath: path)
        let record = geocoder.record(
            for: Coordinate(latitude: latitude, longitude: longitude), needs: request.placemarkNeeds,
            maximumRank: NominatimDetail.maximumRank(zoom: request.options.zoom))
        var placemark = geocoder.placemark(from: record)
        if request.needsNameSources { geocoder.addNameSources(to: &placemark, from: record) }
        return request.answer(placemark, data: try NominatimPlaceData(databasePath: path))
    }

    static var helsinki: String { get throws { try OSMExtractImportTests.helsinkiImport.get().path } }
    static var liechtenstein: String { get throws { try OSMExtractImportTests.liechtensteinImport.get().path } }

    struct Expected: Sendable, CustomTestStringConvertible {
        var language: String
        var road: String, suburb: String, city: String
        /// The country in the language, by Nominatim's country names (Data/nominatim/country-names/fi.yaml):
        /// `name:sv` is "Finland"; a language it has no name in falls back to `name`, "Suomi".
        var country = "Finland"
        var testDescription: String { "accept-language=\(language)" }
    }

    /// Ravintola Bank, Unioninkatu 20 (node 311101212): its street (way 17001909), suburb node 340107890 and
    /// city node 1372477580 each have name:fi and name:sv; the restaurant has neither.
    @Test(arguments: [
        Expected(language: "sv", road: "Unionsgatan", suburb: "Gardesstaden", city: "Helsingfors"),
        Expected(language: "fi", road: "Unioninkatu", suburb: "Kaartinkaupunki", city: "Helsinki", country: "Suomi"),
        // No name:xx for an unknown language: `name`.
        Expected(language: "xx", road: "Unioninkatu", suburb: "Kaartinkaupunki", city: "Helsinki", country: "Suomi"),
        // The first language the object has a name in.
        Expected(language: "xx,sv;q=0.5", road: "Unionsgatan", suburb: "Gardesstaden", city: "Helsingfors"),
        Expected(language: "sv-FI", road: "Unionsgatan", suburb: "Gardesstaden", city: "Helsingfors"),
    ])
    func anAddressAnswerNamesItsStreetSuburbAndCity(_ expected: Expected) throws {
        let language = expected.language.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
        let answer = try Self.answer(try Self.helsinki, 60.166165, 24.950632, query: "accept-language=\(language)")
        let address = try #require(answer["address"] as? [String: String])
        #expect(address["amenity"] == "Ravintola Bank")
        #expect(address["road"] == expected.road)
        #expect(address["suburb"] == expected.suburb)
        #expect(address["city"] == expected.city)
        #expect(answer["name"] as? String == "Ravintola Bank")
        #expect(
            answer["display_name"] as? String
                == "Ravintola Bank, 20, \(expected.road), \(expected.suburb), \(expected.city), 00131, \(expected.country)")
    }

    @Test func theHeaderWorksAsTheParameterAndTheParameterWins() throws {
        let path = try Self.helsinki
        let byParameter = try Self.answer(path, 60.166165, 24.950632, query: "accept-language=sv")
        let byHeader = try Self.answer(path, 60.166165, 24.950632, query: "", header: "sv,en;q=0.8")
        #expect(byHeader["display_name"] as? String == byParameter["display_name"] as? String)
        let both = try Self.answer(path, 60.166165, 24.950632, query: "accept-language=fi", header: "sv")
        #expect((both["address"] as? [String: String])?["road"] == "Unioninkatu")
    }

    /// A street answering (Vilhonkatu, way 29498962, at zoom 16) is named in the language, and namedetails lists
    /// all its names whatever the language.
    @Test func aStreetAnswerAndItsNameDetails() throws {
        let answer = try Self.answer(try Self.helsinki, 60.171947, 24.942349, query: "zoom=16&namedetails=1&accept-language=sv")
        #expect(answer["name"] as? String == "Vilhelmsgatan")
        #expect((answer["address"] as? [String: String])?["road"] == "Vilhelmsgatan")
        #expect((answer["display_name"] as? String)?.hasPrefix("Vilhelmsgatan, ") == true)
        let details = try #require(answer["namedetails"] as? [String: String])
        #expect(details == ["name": "Vilhonkatu", "name:fi": "Vilhonkatu", "name:sv": "Vilhelmsgatan"])
        // namedetails alone lists them too, the answer staying in `name`.
        let plain = try Self.answer(try Self.helsinki, 60.171947, 24.942349, query: "zoom=16&namedetails=1")
        #expect(plain["name"] as? String == "Vilhonkatu")
        #expect(plain["namedetails"] as? [String: String] == details)
    }

    /// At zoom 10 Helsinki's place node answers, named in the language.
    @Test func theCityAnswerAtZoom10() throws {
        let answer = try Self.answer(try Self.helsinki, 60.171947, 24.942349, query: "zoom=10&namedetails=1&accept-language=sv")
        #expect(answer["name"] as? String == "Helsingfors")
        #expect(answer["display_name"] as? String == "Helsingfors, 00100, Finland")
        let details = try #require(answer["namedetails"] as? [String: String])
        #expect(details["name"] == "Helsinki" && details["name:sv"] == "Helsingfors" && details["name:zh-Hans"] == "赫尔辛基")
        // A tag's case is kept; the language matches it whatever the case asked.
        let chinese = try Self.answer(try Self.helsinki, 60.171947, 24.942349, query: "zoom=10&accept-language=zh-hans")
        #expect(chinese["name"] as? String == "赫尔辛基")
    }

    /// Without a language Nominatim names each place by its `name` (`Locales.display_name`), the country by its own
    /// name from `settings/country-names/` ("Suomi", "Österreich") where the data has no boundary of it, and by the
    /// boundary's `name` where it has (Liechtenstein's relation 47), as Nominatim 5.3.3 answers on these extracts
    /// (Helsinki's 600 answers all end "Suomi"; on Liechtenstein's, 47.204898, 9.582462 at zoom 18 is "Älpele
    /// Güterweg, Österreich"). The same at zoom 3, where the country answers.
    @Test func withoutALanguageACountryHasItsOwnName() throws {
        let helsinki = try Self.answer(try Self.helsinki, 60.166165, 24.950632, query: "")
        #expect((helsinki["address"] as? [String: String])?["country"] == "Suomi")
        #expect(helsinki["display_name"] as? String == "Ravintola Bank, 20, Unioninkatu, Kaartinkaupunki, Helsinki, 00131, Suomi")
        let country = try Self.answer(try Self.helsinki, 60.166165, 24.950632, query: "zoom=3")
        #expect(country["name"] as? String == "Suomi" && country["display_name"] as? String == "Suomi")
        let austria = try Self.answer(try Self.liechtenstein, 47.22, 9.6, query: "")
        #expect(austria["display_name"] as? String == "Älpele Güterweg, Österreich")
        let liechtenstein = try Self.answer(try Self.liechtenstein, 47.192782, 9.543461, query: "")
        #expect((liechtenstein["address"] as? [String: String])?["country"] == "Liechtenstein")
        // The CLI's `where --language` keeps a name the languages do not have as stored (Natural Earth's).
        let geocoder = try ReverseGeocoder(databasePath: try Self.helsinki)
        let data = try NominatimPlaceData(databasePath: try Self.helsinki)
        let point = Coordinate(latitude: 60.166165, longitude: 24.950632)
        #expect(data.localized(geocoder.placemarkWithNameSources(for: point), languages: ["xx"]).country == "Finland")
    }

    /// Liechtenstein's country is the extract's relation 47, with name:cs, name:ru, name:de and name:en; its
    /// municipalities had no name:xx in 2013.
    @Test(arguments: [("cs", "Lichtenštejnsko"), ("ru", "Лихтенштейн"), ("de", "Liechtenstein"), ("en", "Liechtenstein")])
    func liechtensteinsCountryBoundary(language: String, country: String) throws {
        let answer = try Self.answer(try Self.liechtenstein, 47.192782, 9.543461, query: "accept-language=\(language)")
        let address = try #require(answer["address"] as? [String: String])
        #expect(address["country"] == country)
        #expect(address["road"] == "Keltenstrasse")
        #expect((answer["display_name"] as? String)?.hasSuffix(", 9485, \(country)") == true)
    }

    /// Vaduz's boundary (relation 48) has no name:ru; its place node (node 58243) has, and names it, as
    /// Nominatim's linked place does. A language the country's boundary has no name in (ja) comes from Natural
    /// Earth, as from Nominatim's own country names. Both as Nominatim 5.3.3 answers on this extract.
    @Test func aBoundaryTakesItsPlaceNodesNamesAndTheCountryNaturalEarths() throws {
        let russian = try Self.answer(try Self.liechtenstein, 47.141, 9.5215, query: "zoom=10&namedetails=1&accept-language=ru")
        #expect(russian["name"] as? String == "Вадуц")
        #expect((russian["address"] as? [String: String])?["country"] == "Лихтенштейн")
        let details = try #require(russian["namedetails"] as? [String: String])
        #expect(details["name"] == "Vaduz" && details["name:ru"] == "Вадуц" && details["name:la"] == "Dulcis Vallis")
        let japanese = try Self.answer(try Self.liechtenstein, 47.141, 9.5215, query: "zoom=10&accept-language=ja")
        #expect(japanese["display_name"] as? String == "ファドゥーツ, Wahlkreis Oberland, 9490, リヒテンシュタイン")
    }

    /// A copy of a database as imported before the table existed.
    static func withoutTheTable(_ path: String, _ body: (String) throws -> Void) throws {
        let copy = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-names-\(UUID().uuidString).gpkg").path
        defer { try? FileManager.default.removeItem(atPath: copy) }
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        try SQLiteDatabase(path: copy).execute("DROP TABLE \(OSMNamesTable.tableName)")
        try body(copy)
    }

    /// A database imported before the table existed answers as before: OpenStreetMap objects in `name`, the
    /// country (Liechtenstein's an OSM boundary) by Natural Earth's names.
    @Test func aDatabaseWithoutTheTableAnswersAsBefore() throws {
        try Self.withoutTheTable(try Self.helsinki) { copy in
            #expect(OSMNameTranslations(databasePath: copy) == nil)
            let answer = try Self.answer(copy, 60.166165, 24.950632, query: "accept-language=sv")
            #expect((answer["address"] as? [String: String])?["road"] == "Unioninkatu")
            #expect((answer["address"] as? [String: String])?["city"] == "Helsinki")
        }
        try Self.withoutTheTable(try Self.liechtenstein) { copy in
            let answer = try Self.answer(copy, 47.141, 9.5215, query: "zoom=10&accept-language=ja")
            #expect(answer["display_name"] as? String == "Vaduz, Wahlkreis Oberland, 9490, リヒテンシュタイン")
        }
    }

    /// CLPlacemark's `name` follows the renamed street ("Vilhelmsgatan"), and a request without a language
    /// reads no names.
    @Test func thePlacemarkNameFollows() throws {
        let path = try Self.helsinki
        let geocoder = try ReverseGeocoder(databasePath: path)
        let data = try NominatimPlaceData(databasePath: path)
        let point = Coordinate(latitude: 60.1719, longitude: 24.9423)
        let swedish = data.localized(geocoder.placemarkWithNameSources(for: point), languages: ["sv"])
        #expect(swedish.name == "Vilhelmsgatan" && swedish.thoroughfare == "Vilhelmsgatan" && swedish.locality == "Helsingfors")
        let plain = geocoder.placemark(for: point)
        #expect(plain.thoroughfareFeature == nil && data.localized(plain, languages: []) == plain)
    }

    /// Only objects with translations get a row, each under its element as the lookups write it.
    @Test func theTableHoldsTranslationsByElement() throws {
        let database = try SQLiteDatabase(path: try Self.helsinki, mode: .readOnly)
        let rows = try database.query("SELECT element, names FROM \(OSMNamesTable.tableName) WHERE element IN ('W17001909', 'N1372477580')")
        let names = Dictionary(uniqueKeysWithValues: rows.compactMap { row in row[0].stringValue.map { ($0, row[1].stringValue ?? "") } })
        #expect(names["W17001909"] == "fi=Unioninkatu\nsv=Unionsgatan")
        #expect(names["N1372477580"].map { OSMNameList.decoded($0)["sv"] } == "Helsingfors")
        #expect(try database.query("SELECT count(*) FROM \(OSMNamesTable.tableName) WHERE names = ''").first?.first?.int64Value == 0)
    }
}
