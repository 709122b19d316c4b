import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import

/// At zoom 14 a hamlet or finer place node answers with its own address, computed from its own point as Nominatim 5.3
/// computes it once at import (`insert_addresslines` from the node's centroid, `placex_update` in
/// lib-sql/functions/placex_triggers.sql): the village whose area (`place_node_fuzzy_area`) holds the node, none where no
/// area does, and the village part (a village inside a municipality of another name) whose area holds it. A cut of the
/// extract north of Bayreuth (graphhopper's north-bayreuth.osm.gz): Heinersreuth's boundary and the place nodes around
/// Theta. Each point as Nominatim 5.3.3 answers it on the whole extract (there with a postcode the cut has not).
@Suite struct OSMAnsweringNodeAddressTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("bayreuth-theta-2014.osm.pbf")
    static let extractImport = Result { try OSMExtractImportTests.importExtract(extract, as: "bayreuth-theta.gpkg") }

    /// Before: the query point's node area named the village (Sandreuth, Weiherhaus, Altdrossenfeld alone, Waldau).
    @Test(
        arguments: [
            (49.985058, 11.549080, Int64(115_051_405), "Theta", nil, "Unterkonnersreuth"),
            (49.980301, 11.558550, Int64(269_759_046), "Hochtheta", nil, nil),
            (49.993805, 11.483378, Int64(572_643_115), "Jöslein", nil, "Altenplos"),
            (50.009208, 11.536707, Int64(1_365_591_832), "Oberkeil", "Eselslohe", "Harsdorf"),
            // 1.6 km south of 50° N: the nodes are read by 1° tile with the ring of 0.1° cells around it
            // (`PlaceNodeCellWindow`), so the dwelling north of that line still answers.
            (49.998, 11.545, Int64(1_365_591_832), "Oberkeil", "Eselslohe", "Harsdorf"),
        ] as [(Double, Double, Int64, String, String?, String?)])
    func aPlaceNodeAnswersWithItsOwnAddress(
        latitude: Double, longitude: Double, node: Int64, name: String, hamlet: String?, village: String?
    ) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude, zoom: 14)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == node, "\(object)")
        #expect(object["name"] as? String == name, "\(object)")
        if hamlet != nil { #expect(address["hamlet"] == hamlet, "\(address)") }
        #expect(address["village"] == village, "\(address)")
    }

    /// Where the point and the node lie in different village node areas (travel411's, no polygon of Nominatim's), the
    /// finer node within its reach answers: the dwelling Oberkeil (search rank 22, 0.02°) before the hamlet
    /// Obergräfenthal (20), as Nominatim's `lookup_country` orders them (before: Obergräfenthal, Sandreuth).
    @Test func aDwellingAnswersAPointOfAnotherVillagesArea() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, 50.001678, 11.552450, zoom: 14)
        let address = try #require(object["address"] as? [String: String])
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 1_365_591_832, "\(object)")
        #expect(address["hamlet"] == "Eselslohe", "\(address)")
        #expect(address["village"] == "Harsdorf", "\(address)")
    }
}
