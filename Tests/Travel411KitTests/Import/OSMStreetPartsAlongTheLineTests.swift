import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// A street's address is measured over its whole line, not near the point that asked: Nominatim's
/// `insert_addresslines` takes the place nodes whose area (`place_node_fuzzy_area`) the line meets
/// (`getNearFeatures`), so the nodes beside one end name the whole street, and its answer names the first address
/// line of each rank (`complete_address_details`), inside the guessed town's box or not. Real data: the Treppelweg, a
/// cycleway 15 km along the Danube, the Voest Alpine works on Schmidhüttenstraße and every place node, cut from
/// graphhopper's krems.osm.gz.
@Suite struct OSMStreetPartsAlongTheLineTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("krems-treppelweg-2013.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "krems-treppelweg.gpkg") }

    static func address(_ latitude: Double, _ longitude: Double) throws -> [String: String] {
        try ExtractAnswer.address(in: try Self.cutImport.get().path, latitude, longitude)
    }

    /// Nominatim 5.3.3 on the whole extract answers "Treppelweg, Weinzierl, Neustift an der Donau" along the whole
    /// way, 11 km from Neustift's node at its eastern points (before: no village or suburb there, the nodes being
    /// looked for within 0.1° of the point).
    @Test(arguments: [(48.379034, 15.811693), (48.377067, 15.827669), (48.392279, 15.653049)])
    func theNodesBesideOneEndNameTheWholeStreet(latitude: Double, longitude: Double) throws {
        let address = try Self.address(latitude, longitude)
        #expect(address["road"] == "Treppelweg", "\(address)")
        #expect(address["village"] == "Neustift an der Donau", "\(address)")
        #expect(address["suburb"] == "Weinzierl", "\(address)")
    }

    /// Weinzierl lies outside the box of Neustift, the village guessed for the street (`current_node_area`): no node
    /// inside it names a part, so Nominatim's answer names Weinzierl, as it does here.
    @Test func aSuburbOutsideTheGuessedVillagesBoxNamesAPartWhereNoneInsideDoes() throws {
        let address = try Self.address(48.412696, 15.648173)
        #expect(address["road"] == "Schmidhüttenstraße", "\(address)")
        #expect(address["village"] == "Neustift an der Donau", "\(address)")
        #expect(address["suburb"] == "Weinzierl", "\(address)")
    }
}
