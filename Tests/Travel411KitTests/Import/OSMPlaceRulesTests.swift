import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411Store

/// Two of Nominatim 5.3's place rules, on a real cut of Chișinău's municipality (2018; Tests/Fixtures/SOURCES.md):
/// - a village node inside a municipality boundary of another name is moved two ranks below it (`placex_update`,
///   "make the node a subpart") and keyed by its type, `village` (`get_label_tag`), so it is the address's village
///   before the municipality's (`_write_typed_address` keeps a key's first value): Buneti and Cheltuitori in Tohatin,
///   where the sector Botanica makes Moldova a country of suburb polygons;
/// - a boundary tagged with a `place` links the node of that type whose name holds its own or is held in it
///   (`find_linked_place`'s third rule, placex_triggers.sql): Stauceni's boundary way (admin_level 10,
///   `place=village`) and Codru's relation (admin_level 8, `place=town`) link their nodes, which then answer nowhere.
/// The expectations are Nominatim 5.3.3's answers on the whole extract (imported with one thread).
@Suite struct OSMPlaceRulesTests {
    static let cut = OSMExtractImportTests.importFixture("md-tohatin-stauceni-2018.osm.pbf")

    static func answer(_ latitude: Double, _ longitude: Double, zoom: Int) throws -> [String: Any] {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.cut.get().path, settings: settings)
        let record = geocoder.record(
            for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom))
        let answer = NominatimFormatter.answer(geocoder.placemark(from: record), options: NominatimOptions(format: .jsonv2, zoom: zoom))
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
    }

    /// Nominatim: 47.089405, 28.916194 (a living street) "Buneti, Tohatin" with `village` Buneti; 47.065578, 28.924494
    /// `village` Cheltuitori. Before the rule, travel411 answered `village` Tohatin.
    @Test(arguments: [(47.089405, 28.916194, "Buneti"), (47.065578, 28.924494, "Cheltuitori")])
    func aVillageInsideAnotherVillagesBoundaryIsTheVillage(latitude: Double, longitude: Double, village: String) throws {
        let address = try #require(try Self.answer(latitude, longitude, zoom: 18)["address"] as? [String: String])
        #expect(address["village"] == village, "\(address)")
        #expect(address["suburb"] == nil, "\(address)")
    }

    /// Nominatim: at 47.087848, 28.871006 zoom 18 "4, Strada Industrială, Stauceni, MD-4839" (`village` only), at zoom
    /// 14 the boundary way 95617545 itself, `village` Stauceni with its `postal_code` MD-4839.
    @Test func aBoundaryTaggedVillageIsItsVillageNode() throws {
        let street = try #require(try Self.answer(47.087848, 28.871006, zoom: 18)["address"] as? [String: String])
        #expect(street["village"] == "Stauceni" && street["suburb"] == nil, "\(street)")
        let area = try Self.answer(47.087848, 28.871006, zoom: 14)
        #expect(area["osm_type"] as? String == "way" && area["osm_id"] as? Int == 95_617_545, "\(area)")
        #expect(
            area["address"] as? [String: String] == [
                "village": "Stauceni", "postcode": "MD-4839", "country": "Moldova", "country_code": "md",
            ])
    }

    /// The linked nodes are listed (`LinkedPlaceNodesSchema`): Stauceni's village node and Codru's town node, neither
    /// by `label` nor by `wikidata`; the villages inside Tohatin are not.
    @Test func theTypedLinksAreListed() throws {
        let database = try SQLiteDatabase(path: try Self.cut.get().path, mode: .readOnly)
        let ids = Set(try database.query("SELECT osm_id FROM \(LinkedPlaceNodesSchema.tableName)").compactMap { $0.first?.int64Value })
        #expect(ids.isSuperset(of: [262_632_916, 262_054_858]), "\(ids)")
        #expect(ids.isDisjoint(with: [360_011_288, 360_011_289]), "\(ids)")
    }
}
