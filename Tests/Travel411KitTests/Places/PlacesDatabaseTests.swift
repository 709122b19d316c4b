import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// Opening a places database that another version of travel411 built: one imported from the embedded Data/
/// is rebuilt from it, one imported from the user's own shapefiles is left alone with the import that
/// rebuilds it, and a current one is opened as it is. Only the first imports Data/ again.
final class PlacesDatabaseTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try makeTemporaryDirectory(self)
    }

    // MARK: Helpers

    /// Sets (or with nil, deletes) the `lookup_schema_version` row, as an older travel411 would have left it.
    private func setLookupTablesVersion(_ version: String?, in path: String) throws {
        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        if let version {
            try database.run("UPDATE travel411_metadata SET value = ? WHERE key = 'lookup_schema_version'", [.text(version)])
        } else {
            try database.run("DELETE FROM travel411_metadata WHERE key = 'lookup_schema_version'")
        }
    }

    private func lookupTablesVersion(in path: String) throws -> String? {
        try SQLiteDatabase(path: path, mode: .readOnly)
            .query("SELECT value FROM travel411_metadata WHERE key = 'lookup_schema_version'").first?.first?.stringValue
    }

    private func sha256(_ path: String) throws -> String {
        try SourceChecksum.sha256Hex(ofFiles: [URL(fileURLWithPath: path)])
    }

    private func modificationDate(_ path: String) throws -> Date? {
        try FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    /// Five named two-point lines in a layout the importer does not know, so the import needs --level and --name-field.
    private func writeRoads(in folder: URL, name: String = "roads") throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return try TestShapefileWriter.write(
            directory: folder, name: name, kind: .polyline, fields: [.string("STREETNAM")],
            records: (1...5).map { index in
                let x = 10 + Double(index) * 0.01
                return .shape([TestShapefileWriter.points([(x, 50), (x, 50.005)])], values: [.text("Test Street \(index)")])
            })
    }

    /// A database imported from a shapefile of the test's own, outside Data/.
    private func importOwnRoads(into database: String) throws -> URL {
        let roads = try writeRoads(in: directory.appendingPathComponent("my shapefiles"))
        _ = try Importer(options: ImportOptions(paths: [roads], databasePath: database, level: .thoroughfare, nameField: "STREETNAM")).run()
        return roads
    }

    // MARK: Rebuilding

    func testADatabaseBuiltFromTheEmbeddedDataByAnotherVersionIsRebuiltAndAnswers() throws {
        let database = directory.appendingPathComponent("places.gpkg").path
        try FileManager.default.copyItem(atPath: TestPlaces.databasePath, toPath: database)
        try setLookupTablesVersion("2", in: database)

        var announcements: [String] = []
        var progressReports = 0
        let geocoder = try PlacesDatabase.openGeocoder(
            explicitPath: database, announce: { announcements.append($0) }, progress: { _ in progressReports += 1 })

        XCTAssertEqual(geocoder.placemark(for: Coordinate(latitude: 51.47, longitude: -0.45)).isoCountryCode, "GB")
        XCTAssertEqual(announcements.count, 1, "\(announcements)")
        let announcement = try XCTUnwrap(announcements.first)
        XCTAssertTrue(
            announcement.contains(
                "The places database at \(database) was built by another version of travel411 (lookup tables 2): rebuilding it from \(try EmbeddedData.locate().path)"
            ),
            announcement)
        XCTAssertGreaterThan(progressReports, 0, "the rebuild reports progress like the first-use build")
        XCTAssertEqual(try lookupTablesVersion(in: database), PlacesSchema.version)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0 != "places.gpkg" }
        XCTAssertEqual(leftovers, [], "built beside it and renamed into place")
    }

    func testACurrentDatabaseIsOpenedAsItIs() throws {
        let path = TestPlaces.databasePath
        let (modifiedBefore, hashBefore) = (try modificationDate(path), try sha256(path))
        var announcements: [String] = []
        let geocoder = try PlacesDatabase.openGeocoder(explicitPath: path, announce: { announcements.append($0) })
        XCTAssertEqual(geocoder.placemark(for: Coordinate(latitude: 51.47, longitude: -0.45)).isoCountryCode, "GB")
        XCTAssertEqual(announcements, [])
        XCTAssertEqual(try modificationDate(path), modifiedBefore)
        XCTAssertEqual(try sha256(path), hashBefore)
    }

    // MARK: Leaving the user's data alone

    func testADatabaseOfOtherShapefilesIsNotRebuiltAndTheErrorGivesTheImport() throws {
        let database = directory.appendingPathComponent("mine.gpkg").path
        let roads = try importOwnRoads(into: database)
        try setLookupTablesVersion("2", in: database)
        let hashBefore = try sha256(database)

        var announcements: [String] = []
        XCTAssertThrowsError(try PlacesDatabase.openGeocoder(explicitPath: database, announce: { announcements.append($0) })) { error in
            XCTAssertTrue(error is OutdatedPlacesDatabaseError, "\(error)")
            let message = error.localizedDescription
            for part in [
                "\(database): this places database was built by another version of travel411 (lookup tables 2)",
                "travel411 import '\(roads.path)' --level thoroughfare --name-field STREETNAM --db \(database)`",
            ] {
                XCTAssertTrue(message.contains(part), "“\(message)” lacks “\(part)”")
            }
        }
        XCTAssertEqual(announcements, [])
        XCTAssertEqual(try sha256(database), hashBefore, "byte for byte as it was")
    }

    /// Databases from before the version row existed; the geocoder itself gives the same advice.
    func testADatabaseWithoutAVersionIsOutdatedToo() throws {
        let database = directory.appendingPathComponent("mine.gpkg").path
        let roads = try importOwnRoads(into: database)
        try setLookupTablesVersion(nil, in: database)
        XCTAssertThrowsError(try ReverseGeocoder(databasePath: database)) { error in
            let message = error.localizedDescription
            XCTAssertTrue(
                message.contains("(lookup tables missing); rebuild it from its shapefiles with `travel411 import '\(roads.path)'"), message)
        }
    }

    // MARK: Files that are not places databases keep their messages

    func testAnOutdatedDatabaseThatDoesNotListItsSourcesKeepsTheGeneralAdvice() throws {
        let database = directory.appendingPathComponent("bare.gpkg").path
        try SQLiteDatabase(path: database).execute(
            """
            CREATE TABLE travel411_metadata (key TEXT PRIMARY KEY, value TEXT);
            INSERT INTO travel411_metadata VALUES ('lookup_schema_version', '1');
            """)
        XCTAssertThrowsError(try PlacesDatabase.openGeocoder(explicitPath: database)) { error in
            XCTAssertEqual(
                error.localizedDescription,
                "\(database): this places database was built by another version of travel411 (lookup tables 1); rebuild it with `travel411 import`"
            )
        }
    }

    func testFilesThatAreNotTravel411DatabasesAreSaidToBeNone() throws {
        let other = directory.appendingPathComponent("other.sqlite").path
        try SQLiteDatabase(path: other).execute(
            "CREATE TABLE travel411_sources (path TEXT); INSERT INTO travel411_sources VALUES ('/x.shp')")
        let text = directory.appendingPathComponent("notes.gpkg").path
        try Data(String(repeating: "not a database\n", count: 100).utf8).write(to: URL(fileURLWithPath: text))
        let cases = [
            (other, "\(other): not a travel411 places database (no travel411_metadata table); build one with `travel411 import`"),
            (text, "\(text): cannot read it as a places database (file is not a database); build one with `travel411 import`"),
        ]
        for (path, expected) in cases {
            let hashBefore = try sha256(path)
            XCTAssertThrowsError(try PlacesDatabase.openGeocoder(explicitPath: path)) { error in
                XCTAssertFalse(error is OutdatedPlacesDatabaseError, "\(error)")
                XCTAssertTrue(error.localizedDescription.hasPrefix(expected), error.localizedDescription)
            }
            XCTAssertEqual(try sha256(path), hashBefore, path)
        }
    }
}
