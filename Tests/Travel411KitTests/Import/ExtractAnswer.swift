import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411NominatimAPI

/// An imported extract's answer at a zoom (18 unless told) as the server writes it (`format=jsonv2`, the answer's address), parsed:
/// what the tests that compare an extract's answers with Nominatim's read.
enum ExtractAnswer {
    static func jsonv2(in databasePath: String, _ latitude: Double, _ longitude: Double, zoom: Int = 18) throws -> [String: Any] {
        let answer = try text(in: databasePath, latitude, longitude, zoom: zoom)
        return try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
    }

    /// The answer as written, its keys in order.
    static func text(in databasePath: String, _ latitude: Double, _ longitude: Double, zoom: Int = 18) throws -> String {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: databasePath, settings: settings)
        let record = geocoder.record(
            for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom))
        return NominatimFormatter.answer(geocoder.placemark(from: record), options: NominatimOptions(format: .jsonv2, zoom: zoom))
    }

    /// The keys of an answer's `address`, in the order it writes them (a dictionary loses it).
    static func addressKeys(of answer: String) throws -> [String] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        let address = try #require(object["address"] as? [String: String])
        let body = try #require(answer.range(of: "\"address\":{").map { answer[$0.upperBound...] })
        let position = { (key: String) in body.range(of: "\"\(key)\":")?.lowerBound ?? body.endIndex }
        return address.keys.sorted { position($0) < position($1) }
    }

    /// The `address` of that answer.
    static func address(in databasePath: String, _ latitude: Double, _ longitude: Double, zoom: Int = 18) throws -> [String: String] {
        try #require(try jsonv2(in: databasePath, latitude, longitude, zoom: zoom)["address"] as? [String: String])
    }
}
