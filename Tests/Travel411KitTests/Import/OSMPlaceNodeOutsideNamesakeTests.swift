import Foundation
import Testing

@testable import Travel411Import

/// A place node stays a place of its own outside the area of its name: Nominatim 5.3's `find_linked_place`
/// (`lib-sql/functions/placex_triggers.sql`) links an area to a node of its name only where the area covers the node
/// (`ST_Covers`). In a Bishkek export the suburb node Кок-Жар (node 1738020576) lies outside the `place=suburb` way
/// of its name (way 161847490), whose ring the export cuts to 11 of its 27 nodes; travel411 left out every suburb
/// node named as any suburb area, wherever it lay (`OSMSubpartNodes.Outlines.anyNamed`). A real cut of the export
/// (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on the whole export (session 56, second
/// round).
@Suite struct OSMPlaceNodeOutsideNamesakeTests {
    static let kokZhar = OSMExtractImportTests.importFixture("kg-bishkek-kok-zhar-2025.osm.pbf")

    /// At zoom 14 the node answers, at its own point and 130 m away. Before: Восток-5 микрорайон, 2.9 km north.
    @Test(arguments: [(42.846638, 74.645593), (42.8454583, 74.6447343)])
    func theNodeAnswersAtZoom14(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.kokZhar.get().path, latitude, longitude, zoom: 14)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 1738020576", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == "Кок-Жар", "\(address)")
    }

    /// At zoom 18 the streets around it name it. Before: no suburb.
    @Test(arguments: [(42.844096, 74.646169, "Арстанбап улица"), (42.849705, 74.648090, "Кок-Жайык улица")])
    func theStreetsAroundItNameIt(latitude: Double, longitude: Double, road: String) throws {
        let address = try ExtractAnswer.address(in: try Self.kokZhar.get().path, latitude, longitude)
        #expect(address["road"] == road, "\(address)")
        #expect(address["suburb"] == "Кок-Жар", "\(address)")
    }
}
