import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// Malta's admin_level 4 boundaries, each an island. Nominatim 5.3.3 names an area in an address under its label
/// (`get_label_tag`, nominatim_api/v1/classtypes.py): the boundary's own `place` (Malta, tagged `place=island`), else
/// the type of the place node linked to it (Gozo, whose `label` member is an island node: `find_linked_place` takes a
/// label member first), else its rank's (`state`, Comino). A closed way tagged as an admin_level 4 boundary (Comino's
/// coastline) is none (`placex_insert`). The answers below are Nominatim 5.3.3's on the same fixture, at zoom 10.
@Suite struct OSMIslandLabelTests {
    static let extractImport = OSMExtractImportTests.importFixture("malta-islands-2018.osm.pbf")

    @Test(arguments: [
        (36.045475, 14.249029, Int64(2_101_121), "island", "Għawdex"),
        (35.930700, 14.428365, Int64(1_711_219), "island", "Malta"),
        (36.0125, 14.335, Int64(2_101_184), "state", "Kemmuna"),
    ])
    func anIslandBoundaryIsTheAddressIsland(latitude: Double, longitude: Double, relation: Int64, key: String, name: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude, zoom: 10)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "relation", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == relation, "\(object)")
        #expect(object["addresstype"] as? String == key, "\(object)")
        #expect(address == [key: name, "country": "Malta", "country_code": "mt"], "\(address)")
    }

    /// GeocodeJSON keys its parts by rank (`_write_geocodejson_address`): the island at rank 8 is still level 4.
    @Test func anIslandIsStillTheGeocodeJSONLevel4() throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.extractImport.get().path, settings: settings)
        let record = geocoder.record(
            for: Coordinate(latitude: 36.045475, longitude: 14.249029), maximumRank: NominatimDetail.maximumRank(zoom: 10))
        let answer = NominatimFormatter.answer(geocoder.placemark(from: record), options: NominatimOptions(format: .geocodejson, zoom: 10))
        #expect(answer.contains(#""admin":{"level4":"Għawdex""#), "\(answer)")
        #expect(!answer.contains(#""island""#), "\(answer)")
    }
}
