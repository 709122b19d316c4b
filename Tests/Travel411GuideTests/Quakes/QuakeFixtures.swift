import Foundation

@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

/// The USGS sample feeds in Tests/Fixtures/earthquakes (see Tests/Fixtures/SOURCES.md), and small
/// feeds written by the tests themselves into a temporary folder.
enum QuakeFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/earthquakes")

    /// USGS "Magnitude 4.5+ Earthquakes, Past Month", GeoJSON, 314 events (generated 2013-07-20).
    static var geoJSONPath: String { folder.appendingPathComponent("4.5_month.geojson").path }
    /// USGS "Magnitude 2.5+, Past Month", CSV, 1,465 events (to 2024-08-07).
    static var csvPath: String { folder.appendingPathComponent("2.5_month.csv").path }

    static func data(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    static func geoJSONFeed() throws -> QuakeFeed { try QuakeFeed.read(data(geoJSONPath), source: "4.5_month.geojson") }
    static func csvFeed() throws -> QuakeFeed { try QuakeFeed.read(data(csvPath), source: "2.5_month.csv") }

    /// The sample CSV's header and its first `rows` rows, as text to edit.
    static func csvLines(rows: Int) throws -> [String] {
        let text = String(decoding: try data(csvPath), as: UTF8.self)
        return Array(text.split(separator: "\n", omittingEmptySubsequences: false).prefix(rows + 1).map(String.init))
    }

    /// The sample GeoJSON parsed with JSONSerialization, for tests that break single features.
    static func geoJSONObject() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: data(geoJSONPath)) as? [String: Any] ?? [:]
    }

    static func encode(_ object: Any) throws -> Data { try JSONSerialization.data(withJSONObject: object) }
}
