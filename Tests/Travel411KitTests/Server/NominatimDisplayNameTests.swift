import Foundation
import Testing

/// `display_name` as Nominatim 5.3.3 writes it on the same extract (its cached answers of
/// `Scripts/nominatim-compare`, seed 1, on `Tests/Fixtures/osm/helsinki.osm.pbf`).
@Suite struct NominatimDisplayNameTests {
    /// The bus stop "Kaivokatu" (node 317704057) on the street Kaivokatu: Nominatim's `display_name`
    /// (`nominatim_api/results.py`) leaves out a part the same as the one before it, so the name is written once.
    /// Without a language the country is named as Nominatim names it, Suomi.
    @Test func aPartTheSameAsTheOneBeforeIsWrittenOnce() throws {
        let answer = try OSMNameTranslationsTests.answer(try OSMNameTranslationsTests.helsinki, 60.170134, 24.939220, query: "")
        #expect(answer["osm_id"] as? Int == 317_704_057)
        // Nominatim: "Kaivokatu, Keskusta, Kaisaniemi, Helsinki, 00101, Suomi" (the test's import names no
        // neighbourhood here; `nominatim-compare`'s, through `travel411 import`, names Keskusta too).
        let display = try #require(answer["display_name"] as? String)
        #expect(display.hasPrefix("Kaivokatu, K") && display.hasSuffix(", Kaisaniemi, Helsinki, 00101, Suomi"))
        #expect(!display.contains("Kaivokatu, Kaivokatu"))
        let address = try #require(answer["address"] as? [String: String])
        #expect(address["highway"] == "Kaivokatu" && address["road"] == "Kaivokatu")
    }
}
