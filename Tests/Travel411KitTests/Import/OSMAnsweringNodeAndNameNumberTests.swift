import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411OSM

/// Nominatim 5.3's rules on real cuts of Gibraltar and Saint-Barthélemy (osmose-backend's test extracts), each point
/// answered as Nominatim 5.3.3 answers it on the whole extract: a place node answering with no street near names the
/// state it lies in, not the query point's (`placex_update` gathers a node's address lines at its centroid); an
/// `addr:housenumber` with a part of three or more characters without a digit is a name, not a house number (the
/// `clean-housenumbers` sanitizer's `convert-to-name`, `settings/icu_tokenizer.yaml`); and a territory Nominatim
/// counts as its sovereign's (Saint-Barthélemy as France) keeps its own time zone.
@Suite struct OSMAnsweringNodeAndNameNumberTests {
    static let gibraltar = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("gibraltar-rosia-2017.osm.pbf"), as: "gibraltar-rosia.gpkg"
        ).path
    }

    /// In the bay, inside Gibraltar's country boundary but outside its land boundary (admin_level 4), the town node
    /// answers with the state it lies in (before: no state, the query point's).
    @Test func anAnsweringTownNodeNamesItsOwnState() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.gibraltar.get(), 36.136724, -5.371331)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 267933614")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["town"] == "Gibraltar")
        #expect(address["state"] == "Gibraltar")
    }

    /// Beside the buildings numbered `Nelson's View` and `Victualling Yard` (no other address, no name), Nominatim
    /// answers Rosia Road and the vets' node, without a house number (before: the buildings, the name as number).
    @Test(arguments: [(36.121453, -5.351682, "way 300785458"), (36.120751, -5.351632, "node 4109379691")])
    func aNameInTheHouseNumberIsNoAddressPoint(latitude: Double, longitude: Double, element: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.gibraltar.get(), latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["house_number"] == nil)
        #expect(address["road"] == "Rosia Road")
    }

    /// The sanitizer's pattern, `(\A|.*,)[^\d,]{3,}(,.*|\Z)`, on values of the extracts compared.
    @Test(
        arguments: [
            ("Nelson's View", nil), ("s/n", nil), ("S/N", nil), ("s.n.", nil), ("7 B, sisäpiha", nil), ("SN", "SN"), ("12", "12"),
            ("12 к4", "12 к4"), ("24/7 с2", "24/7 с2"), ("12, 14", "12, 14"), ("1a-1c", "1a-1c"), ("152", "152"),
        ] as [(String, String?)])
    func houseNumbersThatAreNames(value: String, kept: String?) {
        #expect(OSMFeatureClassifier.isName(houseNumber: value) == (kept == nil))
    }

    static let gustavia = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("gustavia-2014.osm.pbf"), as: "gustavia.gpkg"
        ).path
    }

    /// Gustavia answers France, as Nominatim's country grid does, in Saint-Barthélemy's time zone (before:
    /// Europe/Paris, France's only zone once Saint-Barthélemy's zone counted as another country's).
    @Test func aTerritoryNominatimFoldsIntoItsCountryKeepsItsZone() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.gustavia.get())
        let placemark = geocoder.placemark(for: Coordinate(latitude: 17.8967, longitude: -62.8508))
        #expect(placemark.isoCountryCode == "FR")
        #expect(placemark.timeZone == "America/St_Barthelemy")
    }
}
