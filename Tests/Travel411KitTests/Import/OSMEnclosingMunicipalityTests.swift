import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder

/// A village node inside an Andorran parish (admin_level 7, rank 14) names the city part of the address, and the parish
/// follows it as a line of its own, with its ISO 3166-2 code: Nominatim 5.3.3's address lists every polygon holding the
/// place (`insert_addresslines`), keyed by its label (`municipality`). Before, the parish was left out. The answers are
/// Nominatim's on the same extract (session 65).
@Suite struct OSMEnclosingMunicipalityTests {
    @Test(
        arguments: [
            (42.602286, 1.508741, "Llorts, Ordino, AD300, Andorra", ["village", "municipality", "ISO3166-2-lvl7", "postcode"]),
            (
                42.576808, 1.707840, "Port Dret, les Bordes d'Envalira, Canillo, AD100, Andorra",
                ["locality", "village", "municipality", "ISO3166-2-lvl7", "postcode"]
            ),
        ])
    func aVillageInAParishNamesBoth(latitude: Double, longitude: Double, displayName: String, keys: [String]) throws {
        let path = try OSMLocalityBeyondStreetsTests.cutImport.get().path
        let answer = try ExtractAnswer.text(in: path, latitude, longitude, zoom: 18)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        #expect(object["display_name"] as? String == displayName)
        #expect(try ExtractAnswer.addressKeys(of: answer).filter(keys.contains) == keys, "\(answer)")
    }

    /// `where --explain` says the village lies inside the parish, which its address names too.
    @Test func theExplanationNamesTheParish() throws {
        let geocoder = try ReverseGeocoder(
            databasePath: try OSMLocalityBeyondStreetsTests.cutImport.get().path, settings: GeocoderSettings())
        let lines = geocoder.explanation(for: Coordinate(latitude: 42.602286, longitude: 1.508741), zoom: 18)
        let city = try #require(lines.firstIndex { $0.hasPrefix("city: Llorts") }, "\(lines)")
        #expect(lines[(city + 1)...].prefix(3).contains { $0.hasPrefix("  inside Ordino (key municipality") }, "\(lines)")
    }

    /// At zoom 10 the parish answers by itself: no second line of it.
    @Test func theParishAloneAtZoomTen() throws {
        let path = try OSMLocalityBeyondStreetsTests.cutImport.get().path
        let address = try ExtractAnswer.address(in: path, 42.602286, 1.508741, zoom: 10)
        #expect(address["municipality"] == "Ordino")
        #expect(address["village"] == nil)
    }
}
