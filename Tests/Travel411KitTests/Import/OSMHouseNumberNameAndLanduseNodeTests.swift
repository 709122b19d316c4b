import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// Two Nominatim 5.3 rules on a real cut of Chennai's Ashok Nagar (an openstreetmap.org export), each point answered as
/// Nominatim 5.3.3 answers it on the whole export: a POI whose `addr:housenumber` is a whole address is no house number
/// of its street (the `clean-housenumbers` sanitizer's `convert-to-name`, settings/icu_tokenizer.yaml, leaves it no
/// `housenumber`, which `_find_housenumber_for_street` asks for), and a named `landuse` node is a rank-30 object
/// (`compute_place_rank`, lib-sql/functions/ranking.sql: landuse that is no area), answered like any POI.
@Suite struct OSMHouseNumberNameAndLanduseNodeTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("in-chennai-ashok-nagar-2026.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "in-chennai-ashok-nagar.gpkg") }

    /// Beside the dental academy numbered "23/49, G1, Ground Floor, Chandra Flats," and the restaurant numbered "No: 22/1,
    /// 8th Main Road,manthope colony,", the street answers, without a number (before: the POI, its address as number).
    @Test(arguments: [(13.036596, 80.216285, Int64(25_466_310), "7th Avenue"), (13.037195, 80.216168, Int64(23_698_636), "8th Avenue")])
    func anAddressInTheHouseNumberIsNoNumberOfItsStreet(latitude: Double, longitude: Double, way: Int64, road: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        #expect(address["road"] == road, "\(address)")
        #expect(address["house_number"] == nil, "\(address)")
    }

    /// Around the named `landuse=residential` node numbered "43," on 11th Avenue, the node answers with its number
    /// (before: 12th Avenue, the nearest street, or a bus stop; a landuse was an area's rank, 24, on a node too).
    @Test(arguments: [(13.031141, 80.212430), (13.031275, 80.212554)])
    func aNamedLanduseNodeAnswersAtStreetLevel(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 7_652_422_429, "\(object)")
        #expect(object["category"] as? String == "landuse", "\(object)")
        #expect(address["road"] == "11th Avenue", "\(address)")
        #expect(address["house_number"] == "43,", "\(address)")
    }

    /// The rank rule itself: landuse on a node is rank 30 whatever its value, on an area its address level's.
    @Test func landuseIsRank30OnANodeOnly() {
        let residential = OSMPointOfInterest(key: "landuse", value: "residential")
        #expect(OSMFeatureClassifier.isBuildingLevel(residential, isNode: true))
        #expect(!OSMFeatureClassifier.isBuildingLevel(residential, isNode: false))
        let tags: OSMTags = ["landuse": "residential", "name": "Rams Maruthi Flats"]
        #expect(OSMFeatureClassifier.pointOfInterest(tags, named: true, isNode: true) == residential)
        #expect(OSMFeatureClassifier.pointOfInterest(tags, named: true, isNode: false) == nil)
        #expect(OSMFeatureClassifier.pointOfInterest(["landuse": "residential"], named: false, isNode: true) == nil)
    }
}
