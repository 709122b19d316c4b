import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// Three of Nominatim 5.3's street-level rules on real cuts, each point answered as Nominatim 5.3.3 answers it on the
/// whole extract: an unnamed highway area tagged `area=yes` is no street (`placex_insert`, Lund's station square); a
/// node inside an area answers when the area's outline holds it, not the nearest node in its box (`best_inside`,
/// `lookup_street_poi`); a node carrying a mall's address whose `addr:street` names no street near has its own nearest
/// street (`find_parent_for_poi`, Singapore's Marina Square).
@Suite struct OSMSquaresAndMallsTests {
    static let lund = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("lund-station-square-2023.osm.pbf"), as: "lund-square.gpkg"
        ).path
    }
    static let singapore = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("singapore-marina-2019.osm.pbf"), as: "singapore-marina.gpkg"
        ).path
    }

    static func answer(_ database: Result<String, any Error>, _ latitude: Double, _ longitude: Double) throws -> (
        element: String, road: String?
    ) {
        let object = try ExtractAnswer.jsonv2(in: try database.get(), latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        return ("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")", address["road"])
    }

    /// Relation 4851709, the square before Lund's station (`highway=pedestrian`, `area=yes`, no name), is not in
    /// Nominatim's placex: its points answer the station's objects (before: the square, without a road).
    @Test(arguments: [
        (55.706545, 13.187163, "node 1583464769", "Bangatan"), (55.706947, 13.187173, "way 39440938", "Clemenstorget"),
    ])
    func anUnnamedAreaSquareIsNoStreet(latitude: Double, longitude: Double, element: String, road: String) throws {
        let answer = try Self.answer(Self.lund, latitude, longitude)
        #expect(answer.element == element)
        #expect(answer.road == road)
    }

    /// Inside platform 4 (an area), the stop position on the track beside it is nearer but outside the platform's
    /// outline: the platform answers (before: the stop position, which lies in the platform's box).
    @Test func theNodeMustLieInsideTheAreaItAnswersFor() throws {
        #expect(try Self.answer(Self.lund, 55.706830, 13.186248).element == "way 157599625")
    }

    /// Inside the Theatres (a building without an address), the toilets inside it answer, and so does Starbucks, not
    /// the building (before: the building, a nearer node lying in its box but outside its outline).
    @Test(arguments: [(1.285039, 103.859543, "node 707"), (1.285766, 103.860041, "node 2329")])
    func theNearestNodeInsideTheOutlineAnswers(latitude: Double, longitude: Double, element: String) throws {
        #expect(try Self.answer(Self.singapore, latitude, longitude).element == element)
    }

    /// Marina Square's shops inherit the mall's `addr:street=Raffles Boulevard`, a street not in the data: Nominatim
    /// parents each by its own nearest street, the footway `Pedestrian Mall` (before: the mall's, Raffles Avenue).
    @Test(arguments: [(1.290719, 103.857481), (1.290516, 103.857290), (1.290868, 103.857150)])
    func aShopWhoseInheritedStreetIsNotNearHasItsOwnNearestStreet(latitude: Double, longitude: Double) throws {
        #expect(try Self.answer(Self.singapore, latitude, longitude).road == "Pedestrian Mall")
    }
}
