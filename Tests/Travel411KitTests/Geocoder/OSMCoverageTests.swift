import Foundation
import Testing
import Travel411OSMReader
import Travel411TestSupport

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// An extract's rules (Nominatim's, `OSMAnswerRules`) hold where the extract is: the Kouvola extract imported
/// beside London's embedded addresses, postcodes and streets (with the countries, time zones and places an
/// extract import would add) leaves every London answer as those layers alone give it, and answers by Nominatim's
/// rules in Kouvola.
@Suite struct OSMCoverageTests {
    static let london = [
        "addresses/london_osm_addresses.shp", "postcodes/codepoint_open_london.shp", "thoroughfares/london_osm2streets_highways.shp",
        "countries/ne_10m_admin_0_countries.shp", "timezones/iana_time_zones.shp", "localities/geonames_cities1000.shp",
    ].map { ShapefileFixtures.repositoryRoot.appendingPathComponent("Data/\($0)") }

    static let imports = Result { () throws -> (london: String, withKouvola: String) in
        let london = try ProcessScratch.path("osm-coverage/london.gpkg")
        let withKouvola = try ProcessScratch.path("osm-coverage/london-kouvola.gpkg")
        _ = try Importer(options: ImportOptions(paths: Self.london, databasePath: london, extractReader: .libosmium)).run()
        _ = try Importer(
            options: ImportOptions(
                paths: Self.london + [OSMExtractImportTests.kouvola], databasePath: withKouvola, extractReader: .libosmium)
        ).run()
        return (london, withKouvola)
    }

    @Test func londonAnswersAsWithoutTheExtract() throws {
        let (london, withKouvola) = try Self.imports.get()
        let alone = try ReverseGeocoder(databasePath: london), both = try ReverseGeocoder(databasePath: withKouvola)
        var random = SplitMix64(seed: 413)
        var postcodes = 0
        for _ in 0..<2_000 {
            let point = Coordinate(
                latitude: Double.random(in: 51.49..<51.53, using: &random), longitude: Double.random(in: -0.15..<(-0.08), using: &random))
            let expected = alone.placemark(for: point), found = both.placemark(for: point)
            #expect(found == expected, "at \(point.latitude), \(point.longitude)")
            #expect(!both.record(for: point).followsNominatim)
            if expected.postalCode != nil { postcodes += 1 }
        }
        // Code-Point's postcodes within 200 m, not Nominatim's 5 km: most points, not all.
        #expect(postcodes > 1_000 && postcodes < 2_000)
    }

    /// The extent is that of the extract's own layers (as gpkg_contents records them) and 0.007° beyond, as far as
    /// Nominatim looks for a street; not 0.008° beyond, nor London. The rules hold within it, and beyond it only where
    /// a place node of the extract reaches (`PlaceNodeReach`, Nominatim's `lookup_country`).
    @Test func theExtractAnswersByNominatimsRulesWhereItIs() throws {
        let path = try Self.imports.get().withKouvola
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let rows = try database.query(
            """
            SELECT min(min_x), min(min_y), max(max_x), max(max_y) FROM gpkg_contents
            WHERE table_name IN (SELECT layer FROM travel411_sources WHERE path LIKE '%pyrosm-test.osm.pbf')
            """)
        let row = try #require(rows.first)
        let minX = try #require(row[0].doubleValue), minY = try #require(row[1].doubleValue)
        let maxX = try #require(row[2].doubleValue), maxY = try #require(row[3].doubleValue)
        let both = try ReverseGeocoder(databasePath: path)
        let rules = try #require(both.osmRules)
        #expect(rules.coverage == [BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY).widened(by: 0.007)])
        let middleX = (minX + maxX) / 2, middleY = (minY + maxY) / 2
        func covered(_ latitude: Double, _ longitude: Double) -> Bool {
            rules.covers(Coordinate(latitude: latitude, longitude: longitude))
        }
        func follows(_ latitude: Double, _ longitude: Double) -> Bool {
            both.record(for: Coordinate(latitude: latitude, longitude: longitude)).followsNominatim
        }
        #expect(covered(middleY, middleX) && follows(middleY, middleX))
        #expect(covered(maxY + 0.006, middleX) && covered(middleY, minX - 0.006))
        #expect(follows(maxY + 0.006, middleX) && follows(middleY, minX - 0.006))
        #expect(!covered(maxY + 0.008, middleX) && !covered(middleY, minX - 0.008))
        let beyond = [(maxY + 0.008, middleX), (middleY, minX - 0.008), (maxY + 0.1, middleX), (middleY, minX - 0.1)]
        // 0.008° beyond the extent a place node of the extract still reaches (its `reverse_place_diameter`); 0.1° beyond,
        // to the north and to the west, none does.
        #expect(beyond.map { follows($0.0, $0.1) } == [true, true, false, false])
        #expect(!covered(51.5, -0.12) && !follows(51.5, -0.12))
    }
}
