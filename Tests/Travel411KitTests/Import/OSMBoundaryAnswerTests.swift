import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// What Nominatim 5.3 answers at zoom 14 inside an administrative boundary: the boundary with its own address.
/// Real data: two of München's Bezirksteile, the city node and the postal_code boundary 80331, cut from valhalla's
/// munchen.osm.pbf; Nominatim 5.3.3 on the whole extract answers the points below as written.
@Suite struct OSMBoundaryAnswerTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("munchen-postal-80331-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "munchen-postal.gpkg") }

    static func answer(_ latitude: Double, _ longitude: Double) throws -> (name: String?, address: [String: String]) {
        let answer = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude, zoom: 14)
        return (answer["name"] as? String, try #require(answer["address"] as? [String: String]))
    }

    /// The boundaries are indexed before the place nodes (`index_boundaries`), so a boundary's address names no city
    /// node: "Bezirksteil Hackenviertel, 80331, Deutschland", not "…, München, …".
    @Test(arguments: [(48.134903, 11.566097, "Bezirksteil Hackenviertel"), (48.134028, 11.574298, "Bezirksteil Angerviertel")])
    func aBoundaryNamesNoCityNode(latitude: Double, longitude: Double, name: String) throws {
        let (answered, address) = try Self.answer(latitude, longitude)
        #expect(answered == name, "\(address)")
        #expect(address["city"] == nil, "\(address)")
    }

    /// A boundary's postcode is the one postcode point inside it (`get_nearest_postcode` on an area), and the
    /// postal_code polygon's point is its centroid, which lies in Hackenviertel, not its point on its surface,
    /// which lies in Angerviertel.
    @Test func aPostalCodePolygonStandsAtItsCentroid() throws {
        #expect(try Self.answer(48.134903, 11.566097).address["postcode"] == "80331")
        #expect(try Self.answer(48.134028, 11.574298).address["postcode"] == nil)
    }
}
