import Foundation
import Testing
import Travel411OSMReader

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// An `addr:street` names a street by any of the street's names, not only the one its answer shows: Nominatim 5.3
/// keeps every name of the street (`name`, `name:xx`, `alt_name`, ...) in its `name_vector` and parents an object by
/// the nearest street within 0.015° whose name vector holds the `addr:street`'s full name
/// (`getNearestNamedRoadPlaceId`, lib-sql/functions/partition-functions.sql; `token_matches_street`,
/// lib-sql/tokenizer/icu_tokenizer.sql). In Dhaka's Gulshan the streets are named in Bengali (`name`) and in English
/// (`name:en`), and the addresses in English: the mall W24818506 (`addr:street=Bir Uttam A. K. Khandakar Road`) is on
/// W143955381 (`name=বীর উত্তম এ. কে. খন্দকার সড়ক`, `name:en=Bir Uttam A. K. Khandakar Road`).
/// Real extract: the whole 2020 openstreetmap.org export (Tests/Fixtures/SOURCES.md).
@Suite struct OSMStreetOtherNamesTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("bd-dhaka-gulshan-2020.osm.pbf")
    static let extractImport = OSMExtractImportTests.importFixture("bd-dhaka-gulshan-2020.osm.pbf")

    /// Where Nominatim 5.3.3 answers the mall and the BTCL building W317322737 (same `addr:street`) on the same file,
    /// with the street's Bengali name (session 51's compare). Before: `Road 11` and `Road 16`, the nearest streets,
    /// which an object whose `addr:street` names no street near gets (`getNearestRoadPlaceId`).
    @Test(arguments: [
        (23.780002, 90.416173, 24_818_506), (23.779946, 90.415737, 24_818_506), (23.779891, 90.415111, 24_818_506),
        (23.780831, 90.414984, 317_322_737),
    ])
    func anAddressNamesAStreetByItsEnglishName(latitude: Double, longitude: Double, way: Int64) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        #expect(address["road"] == "বীর উত্তম এ. কে. খন্দকার সড়ক", "\(address)")
    }

    /// The words of an `addr:street` stay apart (settings/icu_tokenizer.yaml normalises to words, and
    /// `_retrieve_full_tokens` looks the whole form up): the tower W496262716 on `addr:street=Road135` names no street
    /// `Road 135`, so its parent is the nearest street (`getNearestRoadPlaceId`), and the shops inside it answer with
    /// it. Nominatim 5.3.3 on the same file (session 63's compare); before, `Road 135`.
    @Test(arguments: [(23.779836, 90.417075), (23.779897, 90.417001), (23.779869, 90.417256)])
    func anAddressWithWordsJoinedNamesNoStreetOfThemApart(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == "বীর উত্তম মীর শওকত সড়ক", "\(object)")
    }

    /// The street keeps its other names for the match only: its answer shows `name` (the Bengali one), as Nominatim's
    /// without a language asked.
    @Test func theStreetsOtherNamesAreRead() throws {
        let features = try OSMFixtures.readAll(Self.extract.path).features
        let found = try #require(features.first { $0.kind == .street && $0.element == OSMElementID(.way, 143_955_381) })
        #expect(found.name == "বীর উত্তম এ. কে. খন্দকার সড়ক")
        #expect(found.highway?.otherNames == ["Bir Uttam A. K. Khandakar Road"])
        #expect(found.streetNames == ["বীর উত্তম এ. কে. খন্দকার সড়ক", "Bir Uttam A. K. Khandakar Road"])
    }
}
