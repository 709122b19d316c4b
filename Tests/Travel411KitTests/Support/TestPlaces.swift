import Foundation
@testable import Travel411Kit

/// The real places database, imported from Data/ once per test process and shared by every test that
/// needs real answers (no hand-made tables: what the tests see is what users get).
enum TestPlaces {
    static let databasePath: String = {
        // A developer may point at a database built already, to skip the import while iterating.
        if let path = ProcessInfo.processInfo.environment["TRAVEL411_TEST_PLACES_DB"], !path.isEmpty { return path }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-kit-tests-\(getpid())")
        let path = folder.appendingPathComponent("places.gpkg").path
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            _ = try Importer(options: ImportOptions(paths: [try EmbeddedData.locate()], databasePath: path)).run()
        } catch {
            fatalError("cannot import Data/ for the tests: \(error)")
        }
        return path
    }()

    static let geocoder: ReverseGeocoder = {
        do { return try ReverseGeocoder(databasePath: databasePath, loading: .everything) } catch {
            fatalError("cannot open the test places database: \(error)")
        }
    }()
}
