import Foundation
import Testing
import Travel411Core
import Travel411Guide
import Travel411Store

/// The travel commands open the places database through `PlacesSource`; one built by another version of
/// travel411 gets them the geocoder's own error, which names the import that rebuilds it.
@Suite struct PlacesSourceTests {
    @Test func anOutdatedDatabaseGivesTheTravelCommandsTheGeocodersError() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-places-source-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("old.gpkg").path
        try SQLiteDatabase(path: path).execute(
            """
            CREATE TABLE travel411_metadata (key TEXT PRIMARY KEY, value TEXT);
            INSERT INTO travel411_metadata VALUES ('lookup_schema_version', '1');
            """)
        let places = PlacesSource(path: path)
        #expect(throws: OutdatedPlacesDatabaseError.self) { try places.database() }
        #expect(throws: OutdatedPlacesDatabaseError.self) { try places.geocoder() }
    }
}
