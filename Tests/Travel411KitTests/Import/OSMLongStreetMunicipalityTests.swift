import Foundation
import Testing

@testable import Travel411Import

/// A street outside every municipality polygon at the answer and at its centroid takes the polygon it enters, however
/// long it is, as Nominatim 5.3 gives a street's address places (`insert_addresslines` with `getNearFeatures`,
/// lib-sql/functions/placex_triggers.sql: every polygon the whole line enters). A cut of an openstreetmap.org export of
/// Youssoufia, Morocco (2023): the town's boundary (relation 2827881), its town node, a mosque, and way 136599117, an
/// unnamed road of 829 nodes and 30 km kept whole, which ends inside the town.
@Suite struct OSMLongStreetMunicipalityTests {
    static let extractImport = OSMExtractImportTests.importFixture("youssoufia-long-road-2022.osm.pbf")

    /// Nominatim 5.3.3 on the whole export answers the road, 400 m west of the boundary, with the town; travel411
    /// gathered at most 64 cells of a street's extent and named no town for the road.
    @Test(arguments: [(32.260990, -8.563670, Int64(136_599_117))])
    func aLongRoadEnteringTheTownIsTheTowns(latitude: Double, longitude: Double, way: Int64) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        let town = ["city", "town", "village", "municipality"].compactMap { address[$0] }.first
        #expect(town == "Youssoufia ⵢⵓⵙⴼⵉⵢⴰ اليوسفية", "\(address)")
    }
}
