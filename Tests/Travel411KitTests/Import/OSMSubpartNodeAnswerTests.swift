import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store

/// A village or hamlet node inside a municipality boundary, of no area of its own (Malta's suburbs are polygons), answers
/// as Nominatim 5.3's area search finds it (`_lookup_area_address`, `nominatim_api/reverse.py`): inside the finest
/// polygon holding the point, the place node of the highest search rank within its reach, then the nearest, with its
/// own postcode (`get_nearest_postcode` at the node, nearest in degrees). A cut of Malta's 2018 extract (Geofabrik, via
/// snodnipper/gdal-ubuntu): three councils, the island's boundary, the place nodes around them and every object
/// carrying a postcode. Each point as Nominatim 5.3.3 answers it on the whole extract.
@Suite struct OSMSubpartNodeAnswerTests {
    static let extractImport = OSMExtractImportTests.importFixture("malta-councils-2018.osm.pbf")

    /// Before: the council (In-Naxxar, L-Imġarr) answered with no postcode; outside every council, the country alone.
    @Test(
        arguments: [
            (35.930700, 14.428365, 14, Int64(263_889_918), "Baħar iċ-Ċagħaq", "village", "town", "In-Naxxar", "NXR 9038"),
            (35.920409, 14.366757, 14, Int64(130_925_344), "Iż-Żebbiegħ", "hamlet", "village", "L-Imġarr", "MLH 2317"),
            (35.875900, 14.331380, 14, Int64(130_926_113), "north country", "village", "town", "Ir-Rabat", "RBT 4017"),
            (35.875900, 14.331380, 18, Int64(130_926_113), "north country", "village", "town", "Ir-Rabat", "RBT 4017"),
        ] as [(Double, Double, Int, Int64, String, String, String, String, String)])
    func aNodeInsideTheAreaAnswers(
        latitude: Double, longitude: Double, zoom: Int, node: Int64, name: String, key: String, cityKey: String, city: String,
        postcode: String
    ) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude, zoom: zoom)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == node, "\(object)")
        #expect(object["name"] as? String == name, "\(object)")
        #expect(address[key] == name, "\(address)")
        #expect(address[cityKey] == city, "\(address)")
        #expect(address["postcode"] == postcode, "\(address)")
    }

    /// A database imported before the areas were indexed by element (`PlacesSchema.areaElementIndexStatement`) asks
    /// whether a village or hamlet node has an area of its own by every area of the layer (`FinePlaceNodes.load`): at
    /// the points above, where such nodes answer, a copy without the index answers as the database with it.
    @Test func aDatabaseWithoutTheAreasIndexAnswersTheSame() throws {
        let path = try Self.extractImport.get().path
        let copy = path + "-without-areas-index.gpkg"
        try? FileManager.default.removeItem(atPath: copy)
        try FileManager.default.copyItem(atPath: path, toPath: copy)
        defer { try? FileManager.default.removeItem(atPath: copy) }
        do {
            let database = try SQLiteDatabase(path: copy, mode: .readWrite)
            #expect(try !database.query("SELECT 1 FROM sqlite_master WHERE name = ?", [.text(PlacesSchema.areaElementIndexName)]).isEmpty)
            try database.execute("DROP INDEX \(PlacesSchema.areaElementIndexName)")
        }
        for (latitude, longitude, zoom) in [(35.930700, 14.428365, 14), (35.920409, 14.366757, 14), (35.875900, 14.331380, 18)] {
            let indexed = try ExtractAnswer.jsonv2(in: path, latitude, longitude, zoom: zoom)
            let unindexed = try ExtractAnswer.jsonv2(in: copy, latitude, longitude, zoom: zoom)
            #expect((indexed as NSDictionary).isEqual(to: unindexed), "\(indexed)\n\(unindexed)")
        }
    }
}
