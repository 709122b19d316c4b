import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// Nominatim 5.3's rules hold wherever an extract's place node reaches the point, not only within the extent of the
/// extract's features (`PlaceNodeReach`): where no street, object or polygon answers, its `lookup` falls back on
/// `lookup_country` (`nominatim_api/reverse.py`), the place node of the highest search rank whose
/// `reverse_place_diameter` (`lib-sql/functions/ranking.sql`) reaches the point, with the postcode nearest the node.
/// And a capital place node ranks one step more important (`compute_place_rank`'s `is_major`), so it reaches farther.
/// Real cuts: São Paulo's suburb node Glicério with five streets and the postcoded addresses around it, and
/// Gibraltar's town node with its boundaries (Tests/Fixtures/SOURCES.md).
@Suite struct OSMPlaceNodeReachTests {
    static let glicerio = OSMExtractImportTests.importFixture("br-sao-paulo-glicerio-2019.osm.pbf")
    static let gibraltar = OSMExtractImportTests.importFixture("gibraltar-rosia-2017.osm.pbf")
    static let cuenca = OSMExtractImportTests.importFixture("ec-cuenca-city-node-2025.osm.pbf")
    /// Cuenca's city node (N9911249241, search rank 16: it reaches 0.16°).
    static let cuencaNode = Coordinate(latitude: -2.8974, longitude: -79.0042)
    /// The suburb node Glicério (N3863181814).
    static let node = Coordinate(latitude: -23.5530554, longitude: -46.6290085)

    /// 2.5 km north of Glicério, 0.023° beyond the nearest street and outside the extent of the cut's features, the
    /// suburb node answers with 01514-020, the postcode nearest it, as Nominatim 5.3.3 answers at the whole export's
    /// points there (session 55's compare). Before: Brazil alone.
    @Test func aSuburbNodeAnswersWithinItsReachBeyondEveryStreet() throws {
        let path = try Self.glicerio.get().path
        let point = Coordinate(latitude: -23.5305, longitude: -46.6295)
        let geocoder = try ReverseGeocoder(databasePath: path)
        #expect(geocoder.osmRules?.covers(point) == false)
        #expect(geocoder.record(for: point).followsNominatim)
        let object = try ExtractAnswer.jsonv2(in: path, point.latitude, point.longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 3863181814", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == "Glicério", "\(address)")
        #expect(address["postcode"] == "01514-020", "\(address)")
        #expect(address["country_code"] == "br")
    }

    /// 0.045° north of Glicério, beyond a suburb's 0.04°, nothing of the extract reaches: the answer is as before, the
    /// country alone, and the extract's rules do not hold.
    @Test func beyondItsReachTheAnswerIsTheCountry() throws {
        let path = try Self.glicerio.get().path
        let point = Coordinate(latitude: Self.node.latitude + 0.045, longitude: Self.node.longitude)
        let geocoder = try ReverseGeocoder(databasePath: path)
        #expect(!geocoder.record(for: point).followsNominatim)
        let address = try ExtractAnswer.address(in: path, point.latitude, point.longitude)
        #expect(address["suburb"] == nil && address["postcode"] == nil, "\(address)")
        #expect(address["country_code"] == "br")
    }

    /// A capital (`capital=yes`) searches one rank higher than its kind, and reaches as that rank does.
    @Test func aCapitalRanksOneStepMoreImportant() {
        #expect(NominatimPlaceKinds.nodeRank(type: "town", isCapital: false) == 18)
        #expect(NominatimPlaceKinds.nodeRank(type: "town", isCapital: true) == 17)
        #expect(NominatimPlaceKinds.nodeRank(type: "city", isCapital: true) == 15)
        #expect(NominatimPlaceKinds.reversePlaceDiameter(searchRank: 17) == 0.16)
        #expect(NominatimPlaceKinds.nodeRank(type: "hamlet", isCapital: true) == 19)
    }

    /// At sea 8.5 km south-east of Gibraltar's town node (N267933614, `capital=yes`), beyond a town's 0.08° but within
    /// a capital town's 0.16°, the node answers at zoom 18 with its town and state, as Nominatim 5.3.3 answers on the
    /// whole extract (session 55's compare). Before: no town, no state.
    @Test func aCapitalTownNodeReachesAsItsRank() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.gibraltar.get().path, 36.066715, -5.322526)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == "node 267933614", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["town"] == "Gibraltar", "\(address)")
        #expect(address["state"] == "Gibraltar", "\(address)")
    }

    /// 0.147° east of Cuenca's city node, two 0.1° cells from the node's (the searches read one ring of cells
    /// before), the city node still reaches: Nominatim 5.3.3 answers Cuenca with 010101, the postcode nearest the
    /// node, at zooms 18, 14 and 10 (session 56's compare, 60 points around the node). Before: the point was taken for
    /// one no node reaches, and GeoNames' Gualaceo answered without a postcode.
    @Test(arguments: [18, 10]) func aCityNodeReachesTwoCellsAway(zoom: Int) throws {
        let path = try Self.cuenca.get().path
        let point = Coordinate(latitude: -2.908630, longitude: -78.857831)
        #expect(PlaceNodePages.cellIndex(point.longitude) - PlaceNodePages.cellIndex(Self.cuencaNode.longitude) == 2)
        let geocoder = try ReverseGeocoder(databasePath: path)
        #expect(geocoder.osmRules?.covers(point) == false)
        #expect(geocoder.record(for: point).followsNominatim)
        let address = try ExtractAnswer.address(in: path, point.latitude, point.longitude, zoom: zoom)
        #expect(address["city"] == "Cuenca", "\(address)")
        #expect(address["postcode"] == "010101", "\(address)")
    }

    /// 0.17° east of the node, beyond a city's 0.16°, nothing of the extract reaches and its rules do not hold.
    @Test func beyondACitysReachTheRulesDoNotHold() throws {
        let point = Coordinate(latitude: Self.cuencaNode.latitude, longitude: Self.cuencaNode.longitude + 0.17)
        let geocoder = try ReverseGeocoder(databasePath: try Self.cuenca.get().path)
        #expect(!geocoder.record(for: point).followsNominatim)
    }
}
