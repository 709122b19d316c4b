import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// A place node that answers a point no municipality holds has the address of the node, not of the point: Nominatim
/// 5.3.3 on the whole extract answers a point of English Bay, outside Vancouver's boundary, with the suburb node
/// Kitsilano and the city Vancouver (the boundary holding the node). Real data: Vancouver's relation with its ways,
/// the node Kitsilano, two of its streets and a restaurant, cut from pelias/openstreetmap's vancouver_canada.osm.pbf.
@Suite struct OSMPlaceNodeAddressTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("vancouver-kitsilano-2015.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "vancouver-kitsilano.gpkg") }

    @Test func aSuburbNodeAnsweringOverTheSeaNamesItsOwnCity() throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, 49.287980, -123.177633)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["name"] as? String == "Kitsilano", "\(object)")
        #expect(address["suburb"] == "Kitsilano", "\(address)")
        #expect(address["city"] == "Vancouver", "\(address)")
    }
}
