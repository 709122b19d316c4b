import Foundation
import Testing

@testable import Travel411Core

/// `/reverse` answers of areas and address parts as Nominatim gives them, on the real extracts imported alone.
@Suite struct NominatimAreaAnswerTests {
    private static func body(_ path: String, _ latitude: Double, _ longitude: Double, query: String) throws -> String {
        try OSMNameTranslationsTests.body(path, latitude, longitude, query: query)
    }

    private static func json(_ body: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any])
    }

    /// Finland from Natural Earth at zoom 3 with its outline: the box is the outline's, not 0.01° around the point.
    @Test func aCountrysBoxIsItsPolygons() throws {
        let path = try OSMExtractImportTests.helsinkiImport.get().path
        let answer = try Self.json(try Self.body(path, 60.17, 24.94, query: "format=jsonv2&zoom=3&polygon_geojson=1"))
        let box = try #require(answer["boundingbox"] as? [String]).compactMap(Double.init)
        #expect(box.count == 4)
        // Finland spans 59.8-70.1 N, 20.5-31.6 E.
        #expect(box[0] < 60 && box[1] > 70 && box[2] < 21 && box[3] > 31)
        let geometry = try #require(answer["geojson"] as? [String: Any])
        #expect(geometry["type"] as? String != "Point")
    }

    /// Vaduz at zoom 10 is its municipality boundary: `polygon_geojson` gives the outline, not a point.
    @Test func aMunicipalityAnswersWithItsOutline() throws {
        let path = try OSMExtractImportTests.liechtensteinImport.get().path
        let answer = try Self.json(try Self.body(path, 47.14294, 9.52011, query: "format=jsonv2&zoom=10&polygon_geojson=1"))
        #expect(answer["name"] as? String == "Vaduz")
        let geometry = try #require(answer["geojson"] as? [String: Any])
        #expect(["Polygon", "MultiPolygon"].contains(geometry["type"] as? String ?? ""))
        let box = try #require(answer["boundingbox"] as? [String]).compactMap(Double.init)
        // Vaduz reaches from the Rhine (9.47 E) up to the Alps (past 9.6 E).
        #expect(box.count == 4 && box[3] - box[2] > 0.05)
    }

    /// GeocodeJSON writes each key once, the finest part's (Nominatim's `_write_geocodejson_address`): a suburb and a
    /// neighbourhood are both its `district`.
    @Test func geocodeJSONWritesAKeyOnce() throws {
        let path = try OSMExtractImportTests.helsinkiImport.get().path
        var checked = 0
        for latitude in stride(from: 60.165, through: 60.178, by: 0.002) {
            for longitude in stride(from: 24.936, through: 24.952, by: 0.002) {
                let body = try Self.body(path, latitude, longitude, query: "format=geocodejson&addressdetails=1")
                let answer = try Self.json(body)
                let features = try #require(answer["features"] as? [[String: Any]])
                guard let geocoding = (features.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any] else { continue }
                // JSONSerialization keeps one value of a repeated key: count the address keys in the text.
                for key in ["housenumber", "street", "district", "city", "county", "state", "postcode", "country"] {
                    #expect(body.components(separatedBy: "\"\(key)\":").count - 1 <= 1, "\(key) at \(latitude),\(longitude)")
                }
                checked += 1
            }
        }
        #expect(checked > 20)
    }

    /// A country's name in a language neither the extract nor Natural Earth has: Nominatim's country names.
    @Test func countryNamesInEveryLanguageNominatimKnows() throws {
        let path = try OSMExtractImportTests.helsinkiImport.get().path
        let answer = try Self.json(try Self.body(path, 60.17, 24.94, query: "format=jsonv2&zoom=3&accept-language=eo"))
        #expect((answer["address"] as? [String: Any])?["country"] as? String == "Finnlando")
    }
}
