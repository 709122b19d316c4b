import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store
@testable import Travel411StoreWriters

/// The pieces of Nominatim's rules the OpenStreetMap import reproduces, on the values the two extracts hold.
@Suite struct OSMRulesTests {
    /// Liechtenstein's 2013 `addr:postcode` values: `94490` (once) is a typo, `LI-9496` is 9496.
    @Test func postcodesOfLiechtenstein() {
        let postcodes = OSMPostcodes(counts: ["9490": 60, "9494": 30, "9495": 20, "9496": 21, "LI-9496": 1, "94490": 1])
        #expect(postcodes.normalised("9490") == "9490")
        #expect(postcodes.normalised("LI-9496") == "9496")
        #expect(postcodes.normalised("94490") == nil)
        #expect(postcodes.normalised(" 9494 ") == "9494")
    }

    /// British postcodes come in several shapes, every one common enough to stay.
    @Test func postcodesOfSeveralShapes() {
        let postcodes = OSMPostcodes(counts: ["W1T 3QJ": 40, "SE1 1AA": 30, "EC1A 1BB": 20, "N1 9GU": 20, "W1T3QJ": 1])
        #expect(postcodes.normalised("ec1a 1bb") == "EC1A 1BB")
        #expect(postcodes.normalised("W1T3QJ") == nil)
    }

    /// Three suburb nodes about 1 km apart at 60° N: their boxes (± 2 km) overlap, and bisectors in degrees,
    /// not metres, split them; a point beyond every box belongs to none.
    @Test func placeNodeCells() throws {
        let west = OSMPlaceNodeAreas.Node(name: "West", type: "suburb", point: Point2D(x: 24.93, y: 60.17), layer: "t", fid: 1)
        let east = OSMPlaceNodeAreas.Node(name: "East", type: "suburb", point: Point2D(x: 24.95, y: 60.17), layer: "t", fid: 2)
        let north = OSMPlaceNodeAreas.Node(name: "North", type: "suburb", point: Point2D(x: 24.94, y: 60.1805), layer: "t", fid: 3)
        let cells = OSMPlaceNodeAreas.cells(of: [west, east, north]) { OSMPlaceNodeAreas.halfWidthMetres(suburbType: $0) }
        #expect(cells.map(\.node.name) == ["West", "East", "North"])
        var builder = AreaIndexBuilder()
        for (i, cell) in cells.enumerated() { builder.add(feature: i, rings: cell.shape.rings) }
        let index = try AreaIndex(built: builder.build())
        #expect(index.featureIndex(longitude: 24.9349, latitude: 60.17) == 0)
        #expect(index.featureIndex(longitude: 24.9451, latitude: 60.17) == 1)
        // 24.936 E 60.1745 N lies 601 m from West's node and 703 m from North's, but 0.0075° from West's and
        // 0.0072° from North's: North, as Nominatim answers.
        #expect(index.featureIndex(longitude: 24.936, latitude: 60.1745) == 2)
        #expect(index.featureIndex(longitude: 24.88, latitude: 60.17) == nil)
        #expect(OSMPlaceNodeAreas.halfWidthMetres(townType: "city") == 15_000)
        #expect(OSMPlaceNodeAreas.halfWidthMetres(suburbType: "neighbourhood") == nil)
    }
}
