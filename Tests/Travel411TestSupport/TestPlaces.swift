import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411Store

/// The real places database, imported from Data/ once per test process and shared by every test that
/// needs real answers (no hand-made tables: what the tests see is what users get). Both test targets use
/// it, and the CLI tests hand it to the binary, so no two processes ever race to build one.
///
/// Set `TRAVEL411_TEST_PLACES_DB` to reuse a database across runs. A database built here is in
/// `ProcessScratch`, removed when the process exits, since each one takes a quarter of a gigabyte of /tmp.
public enum TestPlaces {
    public static let databasePath: String = {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["TRAVEL411_TEST_PLACES_DB"], !path.isEmpty, FileManager.default.fileExists(atPath: path) {
            return path
        }
        do {
            let path = try ProcessScratch.path("places.gpkg")
            _ = try Importer(options: ImportOptions(paths: [try EmbeddedData.locate()], databasePath: path)).run()
            return path
        } catch {
            fatalError("cannot import Data/ for the tests: \(error)")
        }
    }()

    /// A geocoder over it with everything in memory, shared by the tests.
    public static let geocoder: ReverseGeocoder = {
        do { return try ReverseGeocoder(databasePath: databasePath, loading: .everything) } catch {
            fatalError("cannot open the test places database: \(error)")
        }
    }()
}
