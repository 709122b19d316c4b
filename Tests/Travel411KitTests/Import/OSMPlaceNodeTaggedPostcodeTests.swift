import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// A place node answering beyond every street carries the postcode Nominatim 5.3 gives it (`placex_update`,
/// lib-sql/functions/placex_triggers.sql): a tagged postcode of its address areas, else the nearest postcode point's
/// (`get_nearest_postcode`). An area's postcode computed from the postcode points (`OSMAreaPostcodes`) is no tag, and a
/// place inside does not inherit it. A cut of Liechtenstein's 2021 extract (Geofabrik, via georust/ogcapi): the
/// municipalities Triesenberg and Triesen, the place nodes around them, every object carrying 9495 or 9497.
@Suite struct OSMPlaceNodeTaggedPostcodeTests {
    static let extractImport = OSMExtractImportTests.importFixture("liechtenstein-triesenberg-2021.osm.pbf")
    static let point = Coordinate(latitude: 47.107935, longitude: 9.561574)

    /// Nominatim 5.3.3 on the whole extract: the locality Waslerheuberg, 9497 (the nearest postcode point, 873 m), where
    /// travel411 answered 9495, the postcode computed for the village Wangerberg's area holding the locality.
    @Test func aLocalityTakesItsNearestPostcodeNotItsVillagesComputedOne() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, Self.point.latitude, Self.point.longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 4_294_456_016, "\(object)")
        #expect(address["locality"] == "Waslerheuberg", "\(address)")
        #expect(address["village"] == "Wangerberg", "\(address)")
        #expect(address["town"] == "Triesenberg", "\(address)")
        #expect(address["postcode"] == "9497", "\(address)")
    }

    /// `where --explain` names the rule that decided: the nearest postcode, no area of the node having a tagged one.
    @Test func theExplanationStatesTheRuleThatDecided() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.extractImport.get().path, settings: GeocoderSettings())
        let lines = geocoder.explanation(for: Self.point, zoom: 18)
        let postcode = try #require(lines.firstIndex { $0.hasPrefix("postcode:") })
        #expect(lines[postcode] == "postcode: 9497", "\(lines)")
        let rule = lines[postcode + 1]
        #expect(rule.contains("the nearest of its country around the node (get_nearest_postcode)"), "\(rule)")
        #expect(rule.contains("no address area of it (suburb, municipality, county, state) has a tagged postcode"), "\(rule)")
    }

    /// A tagged postcode is inherited: the parishes' `postal_code` (admin_level 7) names the localities inside them, through
    /// a village's area cut to the parish too (el Tarter's, in Canillo). Nominatim 5.3.3 on the cut of Andorra (no postcode
    /// points, so no nearest one): AD300, AD100, AD700.
    @Test(arguments: [
        (42.642579, 1.570706, "pas del Monjo", "AD300"),
        (42.560518, 1.635921, "Jardí de Riba", "AD100"),
        (42.501522, 1.590086, "Canal de la Bova", "AD700"),
    ])
    func aLocalityInheritsItsParishsPostalCode(latitude: Double, longitude: Double, name: String, postcode: String) throws {
        let address = try ExtractAnswer.address(in: try OSMLocalityBeyondStreetsTests.cutImport.get().path, latitude, longitude)
        #expect(address["locality"] == name, "\(address)")
        #expect(address["postcode"] == postcode, "\(address)")
    }

    /// The import keeps a tagged area postcode apart from a computed one: Wangerberg's area has 9495 computed at its node
    /// and no tag; Vaduz's town node, outside both boundaries of the cut, is an area with its own `postal_code` 9490.
    @Test func theImportKeepsTaggedPostcodesApart() throws {
        let path = try Self.extractImport.get().path
        func count(_ condition: String) throws -> Int {
            try OSMExtractImportTests.count("SELECT count(*) FROM travel411_areas WHERE \(condition)", in: path)
        }
        #expect(try count("name = 'Wangerberg' AND postcode = '9495' AND tagged_postcode IS NULL") == 1)
        #expect(try count("name = 'Vaduz' AND postcode = '9490' AND tagged_postcode = '9490'") == 1)
        #expect(try count("name = 'Triesenberg' AND tagged_postcode IS NULL") == 1)
    }
}
