import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// An interpolated number's postcode as Nominatim 5.3 gives it (lib-sql/functions/interpolation.sql, `osmline_update`):
/// the `addr:postcode` of the numbered node that starts its piece, else of the one that ends it, else the previous
/// piece's; only without any the parent street's, else the nearest postcode's (`get_nearest_postcode`). The line's own
/// `addr:postcode` is not read.
@Suite struct OSMInterpolationPostcodeTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("ar-la-plata-calle-57-2026.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "ar-la-plata-calle-57.gpkg") }

    static func pieces(_ housenumbers: [String?], _ postcodes: [String?]) -> [String?] {
        let line = OSMInterpolation(scheme: "odd", firstNode: 1, lastNode: 2, housenumbers: housenumbers, postcodes: postcodes)
        let points = housenumbers.indices.map { Point2D(x: Double($0), y: 0) }
        return OSMLevelMapping.interpolatedPieces(line, along: points).map(\.postcode)
    }

    @Test func aPieceTakesItsStartNodesPostcodeThenItsEndNodesThenThePreviousPieces() {
        #expect(Self.pieces(["1", "9", "19"], ["1900", "B1900AJY", nil]) == ["1900", "B1900AJY"])
        #expect(Self.pieces(["1", "9", "19"], [nil, "1901", nil]) == ["1901", "1901"])
        #expect(Self.pieces(["1", "9", "19", "29"], ["1902", nil, nil, nil]) == ["1902", "1902", "1902"])
        #expect(Self.pieces(["1", "9"], [nil, nil]) == [nil])
        // A piece two numbers a step apart is none, and a node's postcode still counts for the piece after it.
        #expect(Self.pieces(["1", "3", "9"], [nil, "1903", nil]) == ["1903"])
        // No postcodes read: no postcode of a piece.
        #expect(Self.pieces(["1", "9"], []) == [nil])
    }

    /// Points by La Plata's Calle 57, odd side 801-849 (way 303785070), whose end nodes are tagged `1900`, as Nominatim
    /// 5.3.3 answers them on the whole export (session 47's compare): `1900`, the nodes' postcode. Before: `B1900BKA`, the
    /// postcode point nearest the parent street (a shop's code 350 m away; the centroid of all `1900` lies farther).
    @Test(arguments: [
        (-34.922346, -57.948947, "803"), (-34.922424, -57.949197, "813"), (-34.922611, -57.949319, "823"),
        (-34.922905, -57.949636, "843"),
    ])
    func anInterpolatedNumberTakesItsNumberedNodesPostcode(latitude: Double, longitude: Double, number: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect((object["osm_id"] as? NSNumber)?.int64Value == 303_785_070, "\(object)")
        #expect(address["house_number"] == number, "\(address)")
        #expect(address["road"] == "Calle 57", "\(address)")
        #expect(address["postcode"] == "1900", "\(address)")
    }
}
