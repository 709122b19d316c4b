import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// Beside the nearest street, a POI node that carries its building's house number answers when its point is nearer
/// the street's point than the street's own addresses' (`lookup_street_poi`, nominatim_api/reverse.py, "Housenumber
/// to closest result": its candidates need a house number and that parent street, not to be address points), on real
/// data cut from valhalla's moscow.osm.pbf (Chistoprudny Boulevard). Each answer is Nominatim 5.3.3's on the whole
/// extract.
@Suite struct OSMInheritedStreetNumberTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("moscow-chistoprudny-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "moscow-chistoprudny.gpkg") }

    /// Outside every building, Чистопрудный бульвар nearest: the café Блэкмилк (no address; inside 12 к4) and the
    /// restaurant Кофе Пью (inside 9 с1) lie nearer the boulevard's point than building 10 с1's or 7/2's centre, and
    /// answer; before, those buildings did.
    @Test(arguments: [
        (55.762217, 37.642559, Int64(2_196_651_539), "12 к4"), (55.763003, 37.642989, Int64(2_125_127_402), "9 с1"),
        (55.763279, 37.640960, Int64(4_575_268_910), "8 с1"),
    ])
    func aNodeWithItsBuildingsNumberAnswersBesideTheStreet(latitude: Double, longitude: Double, node: Int64, number: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == node, "\(object)")
        #expect(address["house_number"] == number, "\(address)")
        #expect(address["road"] == "Чистопрудный бульвар", "\(address)")
    }

    /// The import lists on each street exactly the nodes that the rule (`ReverseGeocoder.inheritedStreetNumber`), asked
    /// of every object of the finished database, gives that street, with their buildings; each at its point in the
    /// objects' tiles, where the answer-time search of the nodes near a street measured it before.
    @Test(arguments: ["moscow", "helsinki"])
    func eachStreetListsTheNodesCarryingItsNumbers(_ extract: String) throws {
        let path = try (extract == "moscow" ? Self.cutImport : OSMExtractImportTests.helsinkiImport).get().path
        let geocoder = try ReverseGeocoder(databasePath: path)
        let objects = try #require(geocoder.lookup.objectLevel()), streets = try #require(geocoder.lookup.streetLevel())
        let covers = try #require(geocoder.lookup.objectCovers()), addresses = try #require(geocoder.lookup.streetAddresses())
        // Street → node → building.
        var expected: [UInt32: [UInt32: UInt32]] = [:]
        for id in 0..<UInt32(try NominatimStreetSearchTests.objectCount(path)) {
            guard
                let (street, building) = ReverseGeocoder.inheritedStreetNumber(
                    of: id, objects: objects, streets: streets, covers: covers, isHouseNumber: OSMInheritedStreetNumbers.isHouseNumber)
            else { continue }
            expected[street, default: [:]][id] = building
        }
        #expect(!expected.isEmpty)
        let streetCount = try NominatimStreetSearchTests.recordCount(path, of: .thoroughfare, pageLevel: 0)
        for street in 0..<streetCount {
            var listed: [UInt32: UInt32] = [:]
            if let field = addresses.bytes(street, 0), let list = StreetAddresses(field) {
                list.forEach(nearLongitude: 0, reach: 360) { entry in
                    guard let building = entry.building else { return }
                    listed[entry.object] = building
                    let found = entry.centre.flatMap { centre in
                        objects.index.nearestInDegrees(to: centre, radiusDegrees: 1e-6, pointsOnly: true, accept: { $0 == entry.object })
                    }
                    #expect(found?.degrees == 0, "node \(entry.object) of street \(street)")
                }
            }
            #expect(listed == expected[UInt32(street)] ?? [:], "street \(street)")
        }
        withExtendedLifetime(geocoder) {}
    }
}
