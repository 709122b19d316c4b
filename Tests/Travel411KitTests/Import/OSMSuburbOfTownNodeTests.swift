import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// A suburb node names a part of a town drawn as a node wherever it lies in the town node's box: Nominatim's
/// `insert_addresslines` (placex_triggers.sql) keeps a guessed place whose centroid `current_node_area` holds, the
/// `place_node_fuzzy_area` (± 4 km for a town) of the guessed town named before it (`PlaceNodeSearch.names`).
/// Real data: Porto's and Vila Nova de Gaia's place nodes and three of Gaia's streets, cut from valhalla's
/// porto.osm.pbf, whose Gaia boundary is incomplete (Nominatim, too, has only the town node).
@Suite struct OSMSuburbOfTownNodeTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("porto-gaia-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "porto-gaia.gpkg") }

    static func address(_ latitude: Double, _ longitude: Double) throws -> [String: String] {
        try ExtractAnswer.address(in: try Self.cutImport.get().path, latitude, longitude)
    }

    /// Nominatim 5.3.3 on the whole extract answers these points of Gaia, across the Douro from Centro Histórico's
    /// node (1.6-1.9 km, inside Gaia's box though outside its cell), "…, Centro Histórico, Vila Nova de Gaia".
    @Test(arguments: [
        (41.128943, -8.597885, "Avenida Dom João II"), (41.128141, -8.596442, "Rua do Agro dos Moinhos"),
        (41.135417, -8.604285, "Alameda da Serra do Pilar"),
    ])
    func aSuburbNodeInTheTownNodesBoxNamesItsStreets(latitude: Double, longitude: Double, road: String) throws {
        let address = try Self.address(latitude, longitude)
        #expect(address["road"] == road, "\(address)")
        #expect(address["town"] == "Vila Nova de Gaia", "\(address)")
        #expect(address["suburb"] == "Centro Histórico", "\(address)")
    }

    /// At zoom 14 no polygon holds these points for Nominatim (the town's area is travel411's), so it takes the place
    /// nodes of the country in reach, the highest search rank first (`lookup_country`, reverse.py): the suburb node
    /// (19) before Gaia's town node (18), answered with its own address (Nominatim 5.3.3 on the whole extract:
    /// "Centro Histórico, Porto, 4050-417, Portugal"; the cut has no postcodes).
    @Test(arguments: [(41.128943, -8.597885), (41.135417, -8.604285)])
    func aSuburbNodeOfAnotherCityAnswersInsideTheTownNodesArea(latitude: Double, longitude: Double) throws {
        let answer = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude, zoom: 14)
        #expect(answer["name"] as? String == "Centro Histórico", "\(answer)")
        let address = try #require(answer["address"] as? [String: String])
        #expect(address["city"] == "Porto", "\(address)")
        #expect(address["town"] == nil, "\(address)")
    }

    /// At zoom 18 too, where no street or object answers (4 km south of the cut's streets), Nominatim takes the place
    /// node of the highest search rank in reach (`lookup_country`): Gaia's town node (18, 0.04° away, within its 0.08°)
    /// before Porto's city node (16), though the point lies in the city's area that travel411 draws for addresses
    /// (`OSMPlaceNodeAreas`). Nominatim 5.3.3 on this file, session 56. Before: Porto.
    @Test func theFinestNodeInReachAnswersAtZoom18WhereNothingElseDoes() throws {
        let answer = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, 41.090648, -8.598653)
        #expect("\(answer["osm_type"] ?? "") \(answer["osm_id"] ?? "")" == "node 1904454689", "\(answer)")
        let address = try #require(answer["address"] as? [String: String])
        #expect(address["town"] == "Vila Nova de Gaia", "\(address)")
        #expect(address["city"] == nil, "\(address)")
    }
}
