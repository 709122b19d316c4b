import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// The suburb boundary of a street whose centroid lies in none, and of an object that lies in another than its
/// street's: Nominatim's `insert_addresslines` (placex_triggers.sql) gives a line's whole geometry to
/// `getNearFeatures`, so the Bezirksteil the street enters nearest its centroid is its address line (and
/// `current_boundary`: suburb nodes outside it are skipped); `complete_address_details` (results.py) names, of the
/// street's Bezirksteile, the one holding the result's point first, and a square's are those holding its centroid
/// (`SuburbBoundaryOfStreet`). Real data: München's five complete Bezirksteile (admin_level 10, rank 20), the square
/// Marienplatz, every place node, seven streets and three nodes, cut from valhalla's munchen.osm.pbf.
@Suite struct OSMSuburbBoundaryOnStreetTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("munchen-bezirksteile-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "munchen-bezirksteile.gpkg") }

    /// Nominatim 5.3.3 on the whole extract names these suburbs at these points. Baaderstraße, Kohlstraße and
    /// Ottostraße have their centroids outside every Bezirksteil and end a few metres inside one: the suburb is that
    /// Bezirksteil (Gärtnerplatz), or the suburb node inside it (Altstadt, in Kreuzviertel), not the nearest node of
    /// another (Graggenauerviertel, Hackenviertel). The address node on Rumfordstraße and the hairdresser on
    /// Oberanger lie in Bezirksteile their streets enter (Gärtnerplatz, Hackenviertel) but whose centroids lie in
    /// Angerviertel. Café Remer lies in Graggenau, on Marienplatz, a square of Angerviertel: Angerviertel.
    @Test(arguments: [
        (48.131958, 11.580056, "Baaderstraße", "Bezirksteil Gärtnerplatz"),
        (48.131867, 11.581339, "Kohlstraße", "Bezirksteil Gärtnerplatz"),
        (48.141604, 11.568519, "Ottostraße", "Altstadt"),
        (48.1339108, 11.579451, "Rumfordstraße", "Bezirksteil Gärtnerplatz"),
        (48.1355483, 11.572733, "Oberanger", "Bezirksteil Hackenviertel"),
        (48.1374744, 11.5756568, "Marienplatz", "Bezirksteil Angerviertel"),
    ])
    func theSuburbIsOfTheBoundariesTheStreetRunsThrough(latitude: Double, longitude: Double, road: String, suburb: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == road, "\(address)")
        #expect(address["suburb"] == suburb, "\(address)")
        #expect(address["city"] == "München", "\(address)")
    }
}
