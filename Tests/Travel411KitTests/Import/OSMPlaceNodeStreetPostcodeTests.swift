import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// The postcode Nominatim 5.3 gives a street without its own, and the objects on it: the tagged postcode of the finest
/// place of its address that has one (`insert_addresslines`, lib-sql/functions/placex_triggers.sql), a village node's
/// `postal_code` before the nearest postcode point. A cut of Liechtenstein's 2021 extract (Geofabrik, via
/// georust/ogcapi): the municipalities Mauren and Eschen, the place nodes around them (Schaanwald 9486, Nendeln 9485),
/// the named streets between them, every object carrying 9485, 9486, 9487, 9492 or 9493.
@Suite struct OSMPlaceNodeStreetPostcodeTests {
    static let extractImport = OSMExtractImportTests.importFixture("liechtenstein-schaanwald-nendeln-2021.osm.pbf")

    /// Nominatim 5.3.3, on the whole extract and on this cut: Sportfeldstrasse (way 100882633), whose address names
    /// Schaanwald, is 9486 (before: the nearest point's 9485); Wirtschaftspark (way 220893983) and the path Paulahuette
    /// Lower Part (way 299346236), in Nendeln, are 9485 (before: Mauren's 9493 and Schaanwald's 9486).
    @Test(arguments: [
        (47.206809, 9.546167, "Sportfeldstrasse", "Schaanwald", "9486"),
        (47.207165, 9.535695, "Wirtschaftspark", "Nendeln", "9485"),
        (47.205117, 9.555113, "Paulahuette Lower Part", "Nendeln", "9485"),
    ])
    func aStreetTakesItsVillageNodesPostalCode(latitude: Double, longitude: Double, road: String, village: String, postcode: String)
        throws
    {
        let address = try ExtractAnswer.address(in: try Self.extractImport.get().path, latitude, longitude)
        #expect(address["road"] == road, "\(address)")
        #expect(address["village"] == village, "\(address)")
        #expect(address["postcode"] == postcode, "\(address)")
    }

    /// `where --explain` names the rule that decided.
    @Test func theExplanationStatesTheRuleThatDecided() throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.extractImport.get().path, settings: settings)
        let lines = geocoder.explanation(for: Coordinate(latitude: 47.206809, longitude: 9.546167), zoom: 18)
        let postcode = try #require(lines.firstIndex { $0.hasPrefix("postcode:") })
        #expect(lines[postcode] == "postcode: 9486", "\(lines)")
        #expect(lines[postcode + 1].contains("the tagged postcode of Schaanwald"), "\(lines[postcode + 1])")
    }
}
