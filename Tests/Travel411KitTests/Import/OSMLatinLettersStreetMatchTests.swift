import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// An `addr:street` names its street when the two are the same in ASCII, as Nominatim 5.3 compares them
/// transliterated (`transliteration` of settings/icu_tokenizer.yaml, ICU's Latin-ASCII; `token_matches_street`,
/// lib-sql/tokenizer/icu_tokenizer.sql), letters without a canonical decomposition too (`LatinLettersInASCII`). In Ho
/// Chi Minh City's District 3 the street way 35114150 is `Ðinh Công Tráng` with the Icelandic `Ð` (U+00D0), and the
/// restaurants on it write `addr:street=Đinh Công Tráng` with the Vietnamese `Đ` (U+0110). Real extract: the whole
/// 2026 export of openstreetmap.org (Tests/Fixtures/SOURCES.md).
@Suite struct OSMLatinLettersStreetMatchTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("vn-ho-chi-minh-city-district-3-2026.osm.pbf")
    static let extractImport = Result { try OSMExtractImportTests.importExtract(extract, as: "vn-ho-chi-minh-city.gpkg") }

    @Test func lettersWithoutADecompositionMatchTheirASCIIForm() {
        let street = OSMParentStreets.matchKey("Ðinh Công Tráng")
        #expect(OSMParentStreets.matchKey("Đinh Công Tráng") == street)
        #expect(OSMParentStreets.matchKey("Dinh Cong Trang") == street)
        #expect(OSMParentStreets.matchKey("Łąkowa") == OSMParentStreets.matchKey("Lakowa"))
        #expect(OSMParentStreets.matchKey("Søndergade") == OSMParentStreets.matchKey("Sondergade"))
        #expect(OSMParentStreets.matchKey("Hauptstraße") == OSMParentStreets.matchKey("Hauptstrasse"))
    }

    /// The restaurant Nấm (node 12570727098, `63A`, `addr:street=Đinh Công Tráng`) is on `Ðinh Công Tráng`, as
    /// Nominatim 5.3.3 answers on the same file (session 53's compare). Before: the nearest street, `Hẻm 82 Võ Thị Sáu`.
    @Test func anAddressStreetWithAnotherDNamesItsStreet() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, 10.788940, 106.691648)
        let address = try #require(object["address"] as? [String: String])
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 12_570_727_098, "\(object)")
        #expect(address["road"] == "Ðinh Công Tráng", "\(address)")
        #expect(address["house_number"] == "63A", "\(address)")
    }
}
