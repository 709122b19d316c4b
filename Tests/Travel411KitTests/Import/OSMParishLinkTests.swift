import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// Andorra's parishes (admin_level 7, address rank 14: Andorra has no entry of its own in Nominatim's
/// address-levels.json) link to a town node by name only where the node's address rank is theirs
/// (`find_linked_place`, placex_triggers.sql: `OSMNameLinks`), which a town's (16) never is: Ordino's parish
/// stays a `municipality` with its town node Ordino beside it, while Encamp's parish is its town by their common
/// `wikidata` (`OSMLinkedPlaces`). Real data: the two parishes, Andorra's border and the place nodes around them,
/// cut from valhalla's andorra.osm.pbf (2020).
@Suite struct OSMParishLinkTests {
    static let parishes = OSMShapefileImportTests.fixtures.appendingPathComponent("andorra-ordino-encamp-2020-05.osm.pbf")
    static let parishesImport = Result { try OSMExtractImportTests.importExtract(parishes, as: "andorra-parishes.gpkg") }

    static func address(_ latitude: Double, _ longitude: Double, zoom: Int) throws -> [String: String] {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.parishesImport.get().path, settings: settings)
        let record = geocoder.record(
            for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom))
        let placemark = geocoder.placemark(from: record)
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: zoom))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        return try #require(object["address"] as? [String: String])
    }

    /// The cut has no streets, so each point is answered by Nominatim's area search (`_lookup_area_address`,
    /// `nominatim_api/reverse.py`): the polygon holding the point, then the place node inside it of the finest
    /// search rank within reach. At 42.565498, 1.565498 Nominatim 5.3 answers the village node Segudet (inside
    /// Ordino's parish, 2.5 km from the node, beyond its box; `takeTownNodeInsideParish`); by Llorts, Llorts; in the
    /// parish beyond every node's reach the parish itself, a `municipality` (rank 14, `ADMIN_LABELS`), where before
    /// it took its town node's name rank and answered `town` Ordino; in Encamp's parish the hamlet les Bons, its
    /// town Encamp.
    @Test(arguments: [
        (42.565498, 1.565498, "village", "Segudet"), (42.5962, 1.5262, "village", "Llorts"), (42.62, 1.60, "municipality", "Ordino"),
        (42.5435, 1.5795, "town", "Encamp"), (42.5385, 1.5845, "hamlet", "les Bons"),
    ])
    func aParishLinksToATownNodeOnlyByItsWikidata(latitude: Double, longitude: Double, key: String, name: String) throws {
        let address = try Self.address(latitude, longitude, zoom: 18)
        #expect(address[key] == name, "\(address)")
        #expect(address["country_code"] == "ad")
        // Ordino's parish is never the town Ordino.
        #expect(address["town"] != "Ordino", "\(address)")
    }

    /// At zoom 10 a village or town node is finer than the zoom (`dropCityNodeAboveRank`): the parish answers, keyed
    /// by its rank, as Nominatim answers `municipality` Ordino; Encamp's parish is its linked town.
    @Test func atZoom10TheParishAnswers() throws {
        #expect(try Self.address(42.5962, 1.5262, zoom: 10)["municipality"] == "Ordino")
        #expect(try Self.address(42.5435, 1.5795, zoom: 10)["town"] == "Encamp")
    }
}
