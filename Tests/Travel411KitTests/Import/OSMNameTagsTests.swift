import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// Nominatim 5.3's name tags (`NAME_TAGS`, lib-lua/themes/nominatim/presets.lua) and the name its answer shows
/// (`Locales.display_name`, nominatim_api/localization.py), on cuts of the held-out extracts of issue 34 (sources in
/// Tests/Fixtures/SOURCES.md). The expectations are Nominatim 5.3.3's answers on the whole extracts.
@Suite struct OSMNameTagsTests {
    static let chisinau = OSMExtractImportTests.importFixture("md-chisinau-e584-2018.osm.pbf")
    static let zagreb = OSMExtractImportTests.importFixture("hr-zagreb-knezija-2025.osm.pbf")
    static let cuenca = OSMExtractImportTests.importFixture("ec-cuenca-city-node-2025.osm.pbf")
    static let ankara = OSMExtractImportTests.importFixture("tr-ankara-bahcelievler-2021.osm.pbf")

    /// The answer's object (`osm_type` initial and `osm_id`, "W238875769") and its address.
    static func answer(_ database: Result<(path: String, summary: ImportSummary), any Error>, _ latitude: Double, _ longitude: Double)
        throws -> (object: String, category: String?, address: [String: String])
    {
        let object = try ExtractAnswer.jsonv2(in: try database.get().path, latitude, longitude)
        let type = (object["osm_type"] as? String)?.prefix(1).uppercased() ?? "-"
        let id = (object["osm_id"] as? NSNumber)?.int64Value ?? 0
        return ("\(type)\(id)", object["category"] as? String, object["address"] as? [String: String] ?? [:])
    }

    /// A trunk tagged only `int_ref=E 584` is a street named by it (an extra name: `ref` is not the only one).
    @Test func aRoadNamedOnlyByItsInternationalReference() throws {
        let (object, _, address) = try Self.answer(Self.chisinau, 47.083259, 28.859413)
        #expect(object == "W238875769" && address["road"] == "E 584", "\(object) \(address)")
    }

    /// Tram platforms tagged `highway=footway` and only `official_name=Knežija` are named footways, streets of rank 27.
    @Test(arguments: [(45.788215, 15.944902, "W143871833"), (45.788158, 15.945252, "W143871834")])
    func aFootwayNamedOnlyByItsOfficialName(latitude: Double, longitude: Double, way: String) throws {
        let (object, _, address) = try Self.answer(Self.zagreb, latitude, longitude)
        #expect(object == way && address["road"] == "Knežija", "\(object) \(address)")
    }

    /// A named tree is a POI of rank 30 (`natural` is `named`; settings/address-levels.json ranks `tree` 30).
    @Test func aNamedTreeAnswers() throws {
        let (object, category, address) = try Self.answer(Self.ankara, 39.928973, 32.820475)
        #expect(object == "N4911119912" && category == "natural", "\(object) \(String(describing: category))")
        #expect(address["natural"] == "çınar" && address["road"] == "Bişkek Caddesi", "\(address)")
    }

    /// Cuenca's city node is tagged `historic=unesco_world_heritage` too: `historic` is a fallback, and the node is
    /// only the city (`place=city`), no POI: Nominatim answers the fountain beside it on Simón Bolívar.
    @Test func aPlaceIsNoFallbackPOI() throws {
        let (object, _, address) = try Self.answer(Self.cuenca, -2.897292, -79.004191)
        #expect(object != "N9911249241" && address["road"] == "Simón Bolívar", "\(object) \(address)")
    }

    /// The shown name: `name`, `brand`, `official_name`, `short_name`, `ref` in this order, else the name column's
    /// first (hstore's order: shorter keys first); `ref`-like names make nothing named.
    @Test func theShownNameFollowsNominatimsOrder() {
        #expect(OSMNameTags.displayName(["int_ref": "E 584", "name:ru": "Е 584 ru"]) == "E 584")
        #expect(OSMNameTags.displayName(["ref": "M1", "int_ref": "E 584"]) == "M1")
        #expect(OSMNameTags.displayName(["alt_name": "B", "official_name": "A", "short_name": "C"]) == "A")
        #expect(OSMNameTags.displayName(["old_name": "Old", "loc_name": "Local"]) == "Local")
        #expect(OSMNameTags.displayName(["highway": "trunk"]) == nil)
        #expect(!OSMNameTags.hasName(["ref": "M1", "int_ref": "E 584"]))
        #expect(OSMNameTags.hasName(["official_name": "Knežija"]) && OSMNameTags.hasName(["alt_name_1": "X"]))
        #expect(OSMNameTags.hasName(["name:hr": "Knežija"]) && !OSMNameTags.hasName(["brand:wikidata": "Q1"]))
    }
}
