import Foundation
import Testing
import Travel411Kit
import Travel411Store
import Travel411TestSupport

/// Opening what is not a current places database says what it is and that `travel411 import` builds one.
@Suite struct PlacesGeocoderOpeningTests {
    @Test func missingDatabaseSaysToImport() throws {
        let path = try ProcessScratch.path("library/missing.gpkg")
        #expect(throws: PlacesGeocoderError.databaseNotFound(path: path)) { try PlacesGeocoder(databasePath: path) }
        #expect(PlacesGeocoderError.databaseNotFound(path: path).description.contains("travel411 import --db \(path)"))
    }

    @Test func outdatedDatabaseNamesBothVersions() throws {
        let path = try ProcessScratch.path("library/outdated.gpkg")
        try? FileManager.default.removeItem(atPath: path)
        let database = try SQLiteDatabase(path: path)
        try database.execute("CREATE TABLE travel411_metadata (key TEXT PRIMARY KEY, value TEXT)")
        try database.execute("INSERT INTO travel411_metadata VALUES ('lookup_schema_version', '1')")
        let expected = PlacesGeocoderError.outdatedDatabase(path: path, lookupTablesVersion: "1", expectedVersion: PlacesSchema.version)
        #expect(throws: expected) { try PlacesGeocoder(databasePath: path) }
        #expect(expected.description.contains("built by another version of travel411"))
        #expect(expected.description.contains("travel411 import"))
    }

    @Test func otherFilesAreNotPlacesDatabases() throws {
        let text = try ProcessScratch.path("library/notes.txt")
        try Data(repeating: UInt8(ascii: "x"), count: 4096).write(to: URL(fileURLWithPath: text))
        let error = #expect(throws: PlacesGeocoderError.self) { try PlacesGeocoder(databasePath: text) }
        guard case .notAPlacesDatabase(let path, _)? = error else {
            Issue.record("expected notAPlacesDatabase, got \(String(describing: error))")
            return
        }
        #expect(path == text)

        let empty = try ProcessScratch.path("library/empty.sqlite")
        try? FileManager.default.removeItem(atPath: empty)
        try SQLiteDatabase(path: empty).execute("CREATE TABLE other (x)")
        let noTables = #expect(throws: PlacesGeocoderError.self) { try PlacesGeocoder(databasePath: empty) }
        #expect(noTables?.description.contains("no travel411_metadata table") == true)
    }
}
