import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// A suburb node moved below the suburb boundary holding it names only the streets of that boundary: Nominatim's
/// `insert_addresslines` (placex_triggers.sql) names the boundary nearest a street's centroid first, then skips a
/// guessed place outside it (`current_boundary`), so of the nodes it holds the one nearest the street is its suburb
/// (`SuburbBoundaryOfStreet`, `OSMSubpartNodes`). Real data: München's old town, its five Bezirksteile (admin_level
/// 10, rank 20), its suburb and neighbourhood nodes and four of its streets, cut from valhalla's munchen.osm.pbf.
@Suite struct OSMSuburbNodeBoundaryTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("munchen-altstadt-2020.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "munchen-altstadt.gpkg") }

    static func address(_ latitude: Double, _ longitude: Double) throws -> [String: String] {
        try ExtractAnswer.address(in: try Self.cutImport.get().path, latitude, longitude)
    }

    /// Nominatim 5.3.3 on the whole extract answers these points with objects on these streets, whose address is the
    /// street's: Neuhauser Straße, of Bezirksteil Kreuzviertel, "Kreuzviertel, Altstadt, Bezirksteil Kreuzviertel"
    /// (Hackenviertel's node is nearer its west end, but in another Bezirksteil); the others, of Bezirksteil Graggenau,
    /// "Graggenauerviertel, Bezirksteil Graggenau", without Altstadt, nearer to them but outside it, and without the
    /// neighbourhood Kreuzviertel, whose node lies outside it too.
    @Test(arguments: [
        (48.139117, 11.569463, "Neuhauser Straße", "Altstadt", "Kreuzviertel"),
        (48.137479, 11.577714, "Burgstraße", "Graggenauerviertel", nil),
        (48.141809, 11.578021, "Residenzstraße", "Graggenauerviertel", nil),
    ])
    func aStreetNamesTheSuburbNodeInsideItsBoundary(
        latitude: Double, longitude: Double, road: String, suburb: String, neighbourhood: String?
    ) throws {
        let address = try Self.address(latitude, longitude)
        #expect(address["road"] == road, "\(address)")
        #expect(address["suburb"] == suburb, "\(address)")
        #expect(address["neighbourhood"] == neighbourhood, "\(address)")
        #expect(address["city"] == "München", "\(address)")
    }

    /// Zoom 13 reaches search rank 19, below the Bezirksteile's 20: Nominatim 5.3.3 passes over the boundary holding
    /// the point (Kreuzviertel, which answers at zoom 14) to the suburb node within reach, Hackenviertel (node
    /// 1700532830, its postcode 80333), both as the server answers and as `where --zoom 13` prints it.
    @Test func atZoom13TheSuburbNodeAnswersInsideABoundaryOfRank20() throws {
        let path = try Self.cutImport.get().path
        let atThirteen = try ExtractAnswer.jsonv2(in: path, 48.140469, 11.569927, zoom: 13)
        #expect(atThirteen["osm_id"] as? Int == 1_700_532_830, "\(atThirteen)")
        #expect(atThirteen["place_rank"] as? Int == 19, "\(atThirteen)")
        let address = try #require(atThirteen["address"] as? [String: String])
        #expect(address["suburb"] == "Hackenviertel" && address["city"] == "München" && address["postcode"] == "80333", "\(address)")
        let atFourteen = try ExtractAnswer.address(in: path, 48.140469, 11.569927, zoom: 14)
        #expect(atFourteen["suburb"] == "Bezirksteil Kreuzviertel", "\(atFourteen)")

        var settings = GeocoderSettings()
        settings.detail = NominatimDetail(zoom: 13)
        settings.maximumRank = NominatimDetail.maximumRank(zoom: 13)
        let printed = try ReverseGeocoder(databasePath: path, settings: settings).placemark(
            for: Coordinate(latitude: 48.140469, longitude: 11.569927))
        #expect(printed.name == "Hackenviertel" && printed.subLocality == "Hackenviertel" && printed.postalCode == "80333", "\(printed)")
    }

    /// A `place=square` node (search rank 25, Nominatim 5.3's settings/address-levels.json) is a place node like a
    /// neighbourhood (24): at zoom 15 (rank 25 at most) Nominatim 5.3.3 answers Reichenbachplatz (node 2746208), the
    /// highest rank within reach (0.02° from rank 20 on), even 1.3 km away across the old town, with the postcode of its
    /// own place. Before: the neighbourhood nodes Gärtnerplatz and Kreuzviertel.
    @Test(arguments: [(48.130338, 11.581762), (48.142684, 11.565442)])
    func atZoom15ASquareNodeAnswersAsAPlace(latitude: Double, longitude: Double) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude, zoom: 15)
        #expect(object["osm_id"] as? Int == 2_746_208, "\(object)")
        #expect(object["place_rank"] as? Int == 25 && object["addresstype"] as? String == "square", "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["square"] == "Reichenbachplatz" && address["postcode"] == "80333", "\(address)")
        // The square's own address (`takeOwnSuburbOfAnsweringFineNode`), not the query point's Altstadt.
        #expect(address["neighbourhood"] == "Gärtnerplatz" && address["suburb"] == "Bezirksteil Gärtnerplatz", "\(address)")
    }

    /// Nominatim lists every address line in `display_name` and keys only the first of each key: a suburb node inside
    /// a Bezirksteil is the `suburb`, the Bezirksteil follows it in the display only (`suburbBoundaryLine`). A place node
    /// answering has its own address (`takeOwnSuburbOfAnsweringFineNode`): the neighbourhood Kreuzviertel names the
    /// suburb node Altstadt, not the Bezirksteil holding the query's point. Each display is Nominatim 5.3.3's on this
    /// file (`nominatim reverse`) but for the country's name, in the database's language here. Before: no Bezirksteil.
    @Test(arguments: [
        (48.139117, 11.569463, 18, "Neuhauser Straße, Kreuzviertel, Altstadt, Bezirksteil Kreuzviertel, München, 80333, ", "Altstadt"),
        (48.137479, 11.577714, 18, "Burgstraße, Graggenauerviertel, Bezirksteil Graggenau, München, 80333, ", "Graggenauerviertel"),
        (
            48.130338, 11.581762, 15, "Reichenbachplatz, Gärtnerplatz, Bezirksteil Gärtnerplatz, München, 80333, ",
            "Bezirksteil Gärtnerplatz"
        ),
        (48.140469, 11.569927, 15, "Kreuzviertel, Altstadt, Bezirksteil Kreuzviertel, München, 80333, ", "Altstadt"),
        (48.130338, 11.581762, 14, "Graggenauerviertel, Bezirksteil Graggenau, München, 80333, ", "Graggenauerviertel"),
    ])
    func theDisplayNameListsTheBezirksteilAfterTheSuburbNode(
        latitude: Double, longitude: Double, zoom: Int, display: String, suburb: String
    ) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude, zoom: zoom)
        let shown = try #require(object["display_name"] as? String)
        #expect(shown.hasPrefix(display), "\(shown)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["suburb"] == suburb, "\(address)")
    }
}
