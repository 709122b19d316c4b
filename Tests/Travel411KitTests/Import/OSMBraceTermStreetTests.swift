import Foundation
import Testing

@testable import Travel411Import

/// A street whose name ends in a brace term is also named without it, as Nominatim 5.3 adds the variant before matching
/// names (`strip-brace-terms`, settings/icu_tokenizer.yaml): an address whose `addr:street` is the name without the term
/// belongs to the nearest of the streets so named. A cut of an openstreetmap.org export of Volos (2020): the houses 110,
/// 110B and 110Γ on "Νικοτσάρα", beside the side street "Νικοτσάρα (πάροδος)" and the street Νικοτσάρα.
@Suite struct OSMBraceTermStreetTests {
    static let extractImport = OSMExtractImportTests.importFixture("volos-nikotsara-2020.osm.pbf")

    /// Nominatim 5.3.3 on the whole export answers each house on the side street; travel411 answered the side street
    /// itself, without a number: the houses belonged to Νικοτσάρα, whose name alone matched theirs.
    @Test(arguments: [
        (39.363285, 22.960846, Int64(395_868_290), "110"),
        (39.363324, 22.960980, Int64(396_350_374), "110B"),
        (39.363061, 22.961076, Int64(396_350_375), "110Γ"),
    ])
    func aHouseBelongsToTheNearestStreetOfItsNameWithoutTheBraceTerm(
        latitude: Double, longitude: Double, way: Int64, number: String
    ) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        #expect(address["road"] == "Νικοτσάρα (πάροδος)", "\(address)")
        #expect(address["house_number"] == number, "\(address)")
    }

    /// `strip_brace_terms.py`: the part before the first brace, whatever follows it (`split('(')[0].strip()`).
    @Test func theNameWithoutItsBraceTerm() {
        #expect(OSMParentStreets.withoutBraceTerm("Halle (Saale)") == "Halle")
        #expect(OSMParentStreets.withoutBraceTerm("Νικοτσάρα (πάροδος)") == "Νικοτσάρα")
        #expect(OSMParentStreets.withoutBraceTerm("Rue (vieille") == "Rue")
        #expect(OSMParentStreets.withoutBraceTerm("Weg (alt) Nord") == "Weg")
        #expect(OSMParentStreets.withoutBraceTerm("(Saale)") == nil)
        #expect(OSMParentStreets.withoutBraceTerm("Hauptstraße") == nil)
    }
}
