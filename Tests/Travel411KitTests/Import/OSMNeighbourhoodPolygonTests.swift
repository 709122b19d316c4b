import Foundation
import Testing

@testable import Travel411Import

/// A `place=neighbourhood` polygon answers as Nominatim 5.3 answers it: its area search takes named polygons of address
/// rank 4-25 up to the zoom's search rank (`_lookup_area_address`, nominatim_api/reverse.py; `REVERSE_MAX_RANKS`: 22 at
/// zoom 14), so the polygon (search rank 24) names the address of what it holds at zoom 18 (`insert_addresslines`) and
/// answers nothing at zoom 14, where the suburb node in reach does. travel411 left such polygons out; taken in, they
/// answered at zoom 14 too, over the suburb node whose area is cut to them. The exports themselves
/// (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on them (session 59).
@Suite struct OSMNeighbourhoodPolygonTests {
    static let cuenca = OSMExtractImportTests.importFixture("ec-cuenca-city-node-2025.osm.pbf")
    static let lima = OSMExtractImportTests.importFixture("lima-unmsm-2024.osm.pbf")
    static let bishkek = OSMExtractImportTests.importFixture("kg-bishkek-kok-zhar-2025.osm.pbf")

    /// A hotel on Simón Bolívar inside Cuenca's IESS centro. Before: no neighbourhood.
    @Test func anObjectInsideNamesIt() throws {
        let address = try ExtractAnswer.address(in: try Self.cuenca.get().path, -2.897884, -79.001414)
        #expect(address["road"] == "Simón Bolívar", "\(address)")
        #expect(address["neighbourhood"] == "IESS centro", "\(address)")
    }

    /// A block of Lima's Unidad Vecinal 3, beyond every street. Before: the country and the postcode alone.
    @Test func aBuildingBeyondTheStreetsNamesIt() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.lima.get().path, -12.053488, -77.083945)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "way 420677260", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["neighbourhood"] == "Unidad Vecinal 3", "\(address)")
        #expect(address["postcode"] == "15081", "\(address)")
    }

    /// At zoom 14 inside Кок-Жар микрорайон (way 50743276) the suburb node Кок-Жар answers, with its postcode.
    @Test func atZoom14TheSuburbNodeAnswers() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.bishkek.get().path, 42.849794, 74.630591, zoom: 14)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 1738020576", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == "Кок-Жар", "\(address)")
        #expect(address["neighbourhood"] == nil, "\(address)")
        #expect(address["postcode"] == "720082", "\(address)")
    }
}
