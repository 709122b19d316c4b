import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM

/// Nominatim 5.3's house numbers of Slovakia and Japan on real cuts (Karlova Ves in Bratislava, Nakameguro in
/// Tokyo), each point answered as Nominatim 5.3.3 answers it on the whole extract: a house numbered in a place
/// (`addr:place`, no `addr:street`) has no street, nor does a node that inherits its address (`find_parent_for_poi`,
/// lib-sql/functions/placex_triggers.sql); in Japan `addr:quarter` and `addr:neighbourhood` are that place
/// (`tag-japanese`); and `addr:conscriptionnumber` and `addr:streetnumber` make a house number as `addr:housenumber` does.
@Suite struct OSMPlaceAddressTests {
    static let karlovaVes = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("karlova-ves-2026.osm.pbf"), as: "karlova-ves.gpkg"
        ).path
    }

    static let nakameguro = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("nakameguro-2018.osm.pbf"), as: "nakameguro.gpkg"
        ).path
    }

    /// The dormitory Átriové domky (`addr:place=Karlova Ves`, a place the extract does not have) and the laundry node
    /// inside it, which carries its address: house number, no road (before: the nearest street, Staré Grunty).
    @Test(arguments: [(48.161514, 17.066812, "relation 13678034"), (48.160580, 17.068204, "node 12394635642")])
    func aHouseNumberedInAPlaceHasNoStreet(latitude: Double, longitude: Double, element: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.karlovaVes.get(), latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["house_number"] == "6134")
        #expect(address["road"] == nil)
    }

    /// The dormitory, an area on no street with no postcode of its own, has its country's postcode nearest its centre:
    /// `placex_update` gives `get_nearest_postcode` the centroid of any place above address rank 25 (before: none).
    /// On this cut that is 841 04; on the whole extract Nominatim 5.3.3 and travel411 both answer 841 07.
    @Test func anAreaOnNoStreetHasThePostcodeNearestItsCentre() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.karlovaVes.get(), 48.161514, 17.066812)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "relation 13678034")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["postcode"] == "841 04")
    }

    static let poznan = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("poznan-osiedle-2025.osm.pbf"), as: "poznan-osiedle.gpkg"
        ).path
    }

    /// House 3 of Osiedle Wichrowe Wzgórze in Poznań (way 34158292, `addr:place`, on no street, no postcode of its own)
    /// has the postcode point nearest its centroid in degrees, as `get_nearest_postcode` (lib-sql/functions/utils.sql)
    /// orders them (`ST_Distance` of SRID 4326 points): 61-655, 0.0016° (157 m) away, not 61-624, 0.0021° (145 m).
    /// Nominatim 5.3.3 answers so on the whole export and on this cut (before: 61-624, nearest in metres).
    @Test func aHouseOnNoStreetHasThePostcodeNearestInDegrees() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.poznan.get(), 52.435381, 16.938001)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 34158292")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["house_number"] == "3")
        #expect(address["postcode"] == "61-655")
    }

    /// Blue Bottle Coffee (`addr:quarter=中目黒`, `addr:neighbourhood=3丁目`, `addr:block_number=23`,
    /// `addr:housenumber=16`, no `addr:street`) is no house number of 駒沢通り: the street answers, without a
    /// number (before: the café's 16).
    @Test func aJapaneseBlockAddressIsNoHouseNumberOfTheNearestStreet() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.nakameguro.get(), 35.638669, 139.697823)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 25533064")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == "駒沢通り")
        #expect(address["house_number"] == nil)
    }

    /// The number Nominatim prints: `addr:housenumber`, else `addr:streetnumber`, else `addr:conscriptionnumber`
    /// (`_setup_address_details`, nominatim_api/results.py).
    @Test(
        arguments: [
            (["addr:housenumber": "3706/1A", "addr:streetnumber": "1A", "addr:conscriptionnumber": "3706"], "3706/1A"),
            (["addr:streetnumber": "29", "addr:conscriptionnumber": "1174"], "29"),
            (["addr:conscriptionnumber": "6261", "addr:place": "Karlova Ves"], "6261"),
        ] as [([String: String], String)])
    func conscriptionAndStreetNumbers(tags: [String: String], printed: String) {
        var osmTags = OSMTags()
        for (key, value) in tags { osmTags[key] = value }
        let address = OSMFeatureClassifier.address(osmTags)
        #expect(address.housenumber == printed)
        #expect(address.isAddressPoint)
    }
}
