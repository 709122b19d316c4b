import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// A street without a postcode of its own gives the tagged postcode of the neighbourhood node its address names:
/// Nominatim 5.3's `insert_addresslines` (`lib-sql/functions/placex_triggers.sql`) keeps the postcode of the finest of
/// a street's address places that has one, and a neighbourhood node (search rank 24) is one with its own
/// `postal_code` (`NeighbourhoodNodes`, `ReverseGeocoder.neighbourhoodPostcodeOfStreet`). A real cut of a Makati
/// export around the neighbourhood node Legazpi (node 314636269, `postal_code=1229`; Tests/Fixtures/SOURCES.md). The
/// expected answers are Nominatim 5.3.3's on the whole export (session 56's compare).
@Suite struct OSMNeighbourhoodPostcodeTests {
    static let legazpi = OSMExtractImportTests.importFixture("ph-makati-legazpi-2024.osm.pbf")

    /// On Legazpi Street (way 703998734) and Ormaza Street (way 17152532), which carry no `postal_code`, the answer
    /// is 1229, Legazpi's. Before: the nearest postcode point's, 1200.
    @Test(arguments: [(14.554878, 121.016765, "way 703998734"), (14.556664, 121.017428, "way 17152532")])
    func aStreetGivesItsNeighbourhoodsPostcode(latitude: Double, longitude: Double, element: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.legazpi.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["neighbourhood"] == "Legazpi", "\(address)")
        #expect(address["postcode"] == "1229", "\(address)")
    }

    /// A street's own `postal_code` comes first (`token_get_postcode`): Paseo de Roxas (1226) inside Legazpi's box.
    @Test func aStreetsOwnPostcodeComesFirst() throws {
        let address = try ExtractAnswer.address(in: try Self.legazpi.get().path, 14.554203, 121.019067)
        #expect(address["road"] == "Paseo de Roxas", "\(address)")
        #expect(address["postcode"] == "1226", "\(address)")
    }

    /// The node's postcode is kept in the place layer as written and read back with the neighbourhood nodes.
    @Test func theNodeKeepsItsPostcode() throws {
        let reader = try SharedDatabaseReader(path: try Self.legazpi.get().path)
        // Makati's 1° tile (14° N, 121° E), as a lookup there reads it.
        let nodes = try NeighbourhoodNodes.load(
            try ExtractPlaceLayers(reader: reader), window: PlaceNodeCellWindow(tileColumn: 121, row: 14))
        let legazpi = try #require(nodes.nodes.first { $0.elementID == 314_636_269 })
        #expect(legazpi.postcode == "1229")
    }

    /// At zoom 15 the neighbourhood node Legazpi answers with its own address, which names the quarter node San Lorenzo
    /// (address rank 22) whose box (± 1 km) holds it (`takeOwnSuburbOfAnsweringFineNode`): Nominatim 5.3.3's "Legazpi,
    /// San Lorenzo, Makati, 1229" on this file (session 62's compare, 293 of 300 zoom-15 answers). Before: no quarter.
    @Test func theNeighbourhoodAnsweringNamesItsQuarter() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.legazpi.get().path, 14.551175, 121.020279, zoom: 15)
        #expect(object["osm_id"] as? Int == 314_636_269, "\(object)")
        let shown = try #require(object["display_name"] as? String)
        #expect(shown.hasPrefix("Legazpi, San Lorenzo, Makati, 1229, "), "\(shown)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["neighbourhood"] == "Legazpi" && address["quarter"] == "San Lorenzo", "\(address)")
    }
}
