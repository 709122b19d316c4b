import Foundation
import Testing
import Travel411Core
import Travel411OSMReader

@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// `import --layers lookups` leaves the extract's street, address, POI and postcode point tables out of the
/// GeoPackage and answers exactly as a database with every layer: the lookups' own tables hold those features,
/// and what the layers told the import (their extent, the tiles they touch) comes from the features themselves.
struct FeatureLayersTests {
    /// Both imports of the Liechtenstein extract, into a folder of their own.
    static let imported = Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-layers-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        var paths: [FeatureLayers: String] = [:]
        for layers in FeatureLayers.allCases {
            var options = ImportOptions(
                paths: [URL(fileURLWithPath: OSMFixtures.liechtenstein)],
                databasePath: folder.appendingPathComponent("\(layers.rawValue).gpkg").path, extractReader: .libosmium)
            options.featureLayers = layers
            _ = try Importer(options: options).run()
            paths[layers] = options.databasePath
        }
        return paths
    }

    static func tables(_ path: String) throws -> Set<String> {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        return Set(try database.query("SELECT table_name FROM gpkg_contents").compactMap { $0.first?.stringValue })
    }

    @Test func onlyTheLayersLookupsReadAreWritten() throws {
        let paths = try Self.imported.get()
        let all = try Self.tables(try #require(paths[.all])), lookups = try Self.tables(try #require(paths[.lookups]))
        #expect(
            all.subtracting(lookups) == [
                "liechtenstein_2013_08_03_streets", "liechtenstein_2013_08_03_addresses", "liechtenstein_2013_08_03_pois",
                "liechtenstein_2013_08_03_postcode_points",
            ])
        #expect(lookups.contains("liechtenstein_2013_08_03_places") && lookups.contains("liechtenstein_2013_08_03_boundaries"))
        // Still recorded as sources, so that `--append` and a rebuild find the extract.
        let database = try SQLiteDatabase(path: try #require(paths[.lookups]), mode: .readOnly)
        #expect(try database.query("SELECT 1 FROM travel411_sources WHERE layer = 'liechtenstein_2013_08_03_streets'").count == 1)
        #expect(
            try database.query("SELECT value FROM travel411_metadata WHERE key = 'feature_layers'").first?.first?.stringValue
                == "lookups")
    }

    @Test func theCoverageIsTheSame() throws {
        let paths = try Self.imported.get()
        func coverage(_ path: String) throws -> [[SQLValue]] {
            try SQLiteDatabase(path: path, mode: .readOnly).query(
                "SELECT key, value FROM travel411_metadata WHERE key LIKE 'osm_coverage%' ORDER BY key")
        }
        let all = try coverage(try #require(paths[.all]))
        #expect(all.count == 2)
        #expect(try coverage(try #require(paths[.lookups])) == all)
    }

    /// The same placemark, element included, at a grid of points over the extract and beyond its edge.
    @Test func theAnswersAreTheSame() throws {
        let paths = try Self.imported.get()
        let all = try ReverseGeocoder(databasePath: try #require(paths[.all]))
        let lookups = try ReverseGeocoder(databasePath: try #require(paths[.lookups]))
        var compared = 0
        for latitude in stride(from: 47.03, through: 47.29, by: 0.013) {
            for longitude in stride(from: 9.46, through: 9.65, by: 0.0095) {
                let point = Coordinate(latitude: latitude, longitude: longitude)
                #expect(lookups.placemark(for: point) == all.placemark(for: point))
                let needs = PlacemarkNeeds.all.union(.osmElement)
                let element = all.record(for: point, needs: needs).osmElement.map { "\($0.type) \($0.id)" }
                #expect(lookups.record(for: point, needs: needs).osmElement.map { "\($0.type) \($0.id)" } == element)
                compared += 1
            }
        }
        #expect(compared >= 400)
    }
}
