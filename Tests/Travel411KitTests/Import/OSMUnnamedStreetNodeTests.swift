import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// A node tagged with a street class that Nominatim 5.3 keeps only when named (`highway=steps`, `service`, `footway`...,
/// `MAIN_TAGS_STREETS.default`, lib-lua/themes/nominatim/presets.lua) is no place without a name: the street topic's
/// values replace the POI topic's `highway` catch-all (`modify_main_tags`, lib-lua/themes/nominatim/init.lua), so the
/// unnamed steps node N523637104 on Prague's Karlovo náměstí never answers, and the house beyond it does. Real extract:
/// the whole 2011 openstreetmap.org export of the square's corner (Tests/Fixtures/SOURCES.md).
@Suite struct OSMUnnamedStreetNodeTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("cz-praha-karlovo-namesti-2011.osm.pbf")
    static let extractImport = Result { try OSMExtractImportTests.importExtract(extract, as: "cz-praha-karlovo-namesti.gpkg") }

    /// Around the steps node, where Nominatim 5.3.3 answers the house N296550136 (`287/18`, Karlovo náměstí, 120 00) on
    /// the same file (session 50's compare). Before: the steps node, with the street and no number.
    @Test(arguments: [(50.076997, 14.419571), (50.076854, 14.419599), (50.076558, 14.419575), (50.076735, 14.419618)])
    func anUnnamedStepsNodeIsNoAnswer(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 296_550_136, "\(object)")
        #expect(address["house_number"] == "287/18", "\(address)")
        #expect(address["road"] == "Karlovo náměstí", "\(address)")
        // Czech postcodes are written `ddd dd` (`postcode: output`, settings/country_settings.yaml); tagged `12000`.
        #expect(address["postcode"] == "120 00", "\(address)")
    }

    /// The rule itself: a street class needing a name is a node POI only with one (a footway also not as a sidewalk);
    /// the POI topic's own values (`street_lamp`, `traffic_signals` named; `crossing` never) and the others stay.
    @Test func streetClassNodesNeedANameAsTheirWaysDo() {
        #expect(OSMFeatureClassifier.pointOfInterest(["highway": "steps"], named: false, isNode: true) == nil)
        let namedSteps: OSMTags = ["highway": "steps", "name": "Schody"]
        #expect(OSMFeatureClassifier.pointOfInterest(namedSteps, named: true, isNode: true)?.value == "steps")
        let sidewalk: OSMTags = ["highway": "footway", "footway": "sidewalk", "name": "Chodník"]
        #expect(OSMFeatureClassifier.pointOfInterest(sidewalk, named: true, isNode: true) == nil)
        #expect(OSMFeatureClassifier.pointOfInterest(["highway": "bus_stop"], named: false, isNode: true)?.value == "bus_stop")
        #expect(OSMFeatureClassifier.pointOfInterest(["highway": "crossing"], named: false, isNode: true) == nil)
    }
}
