import Foundation
import Travel411Core
import Travel411Import
import Travel411Store
import XCTest

/// `travel411 import` through the binary: damaged input fails with the file named on stderr and the
/// previous database left exactly as it was. Every run names its own `--db`: without it the import would
/// replace `$TRAVEL411_DB`, which `TravelCLI` points at the shared test database.
final class ImportCommandTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private static let fixtures = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/shapefiles")

    /// Colorado and Utah wilderness areas (public domain), a layout only `--level` can map.
    private static let wilderness = fixtures.appendingPathComponent("fiona/coutwildrnp.shp")

    private var databasePath: String { cli.folder.appendingPathComponent("places.gpkg").path }

    private func sha256(_ path: String) throws -> String {
        try SourceChecksum.sha256Hex(ofFiles: [URL(fileURLWithPath: path)])
    }

    /// A small database, as an earlier import would have left it.
    private func importWilderness() throws {
        let output = try cli.succeed(["import", Self.wilderness.path, "--level", "admin", "--name-field", "NAME", "--db", databasePath])
        XCTAssertTrue(output.hasPrefix("Imported 1 layer, 67 features (0 records skipped) into \(databasePath) in "), output)
        XCTAssertTrue(output.contains("  coutwildrnp  admin              67 features"), output)
    }

    /// Copies the wilderness shapefile into the test folder and damages the copy.
    private func damagedWilderness(_ damage: (URL) throws -> Void) throws -> URL {
        let folder = cli.folder.appendingPathComponent("damaged")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for fileExtension in ["shp", "shx", "dbf", "prj", "cpg"] {
            try FileManager.default.copyItem(
                at: Self.wilderness.deletingPathExtension().appendingPathExtension(fileExtension),
                to: folder.appendingPathComponent("coutwildrnp.\(fileExtension)"))
        }
        let shp = folder.appendingPathComponent("coutwildrnp.shp")
        try damage(shp)
        return shp
    }

    private func assertImportFails(_ arguments: [String], naming parts: [String], file: StaticString = #filePath, line: UInt = #line) throws
    {
        try importWilderness()
        let before = try sha256(databasePath)
        let result = try cli.run(["import"] + arguments + ["--db", databasePath])
        XCTAssertNotEqual(result.status, 0, "import succeeded: \(result.stdout)", file: file, line: line)
        XCTAssertEqual(result.stdout, "", file: file, line: line)
        for part in parts {
            XCTAssertTrue(result.stderr.contains(part), "“\(result.stderr)” lacks “\(part)”", file: file, line: line)
        }
        XCTAssertEqual(try sha256(databasePath), before, "the previous database changed", file: file, line: line)
    }

    func testATruncatedShapefileFailsAndKeepsThePreviousDatabase() throws {
        let shp = try damagedWilderness { shp in
            let data = try Data(contentsOf: shp)
            try data.prefix(data.count - 100).write(to: shp)
        }
        try assertImportFails(
            [shp.path, "--level", "admin", "--name-field", "NAME"], naming: ["travel411: error: ", shp.path, "record 67"])
    }

    func testAMissingDbfFailsAndKeepsThePreviousDatabase() throws {
        let shp = try damagedWilderness { shp in
            try FileManager.default.removeItem(at: shp.deletingPathExtension().appendingPathExtension("dbf"))
        }
        try assertImportFails(
            [shp.path, "--level", "admin", "--name-field", "NAME"],
            naming: [shp.deletingPathExtension().appendingPathExtension("dbf").path, "is missing"])
    }

    func testAFileThatIsNotAShapefileFailsAndKeepsThePreviousDatabase() throws {
        let bad = Self.fixtures.appendingPathComponent("shapefile-js/bad.shp")
        try assertImportFails([bad.path], naming: [bad.path, "is not a shapefile"])
    }

    /// `--db` naming a folder (a file in it was meant) is refused before any work, by import and by a lookup, not
    /// after a whole import or with SQLite's "disk I/O error".
    func testADatabasePathThatIsAFolderIsRefused() throws {
        let folder = cli.folder.appendingPathComponent("maps")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let imported = try cli.run(["import", Self.wilderness.path, "--level", "admin", "--db", folder.path])
        XCTAssertEqual(imported.status, 64, imported.stderr)
        XCTAssertEqual(
            imported.stderr,
            "travel411: error: \(folder.path) is a folder; the places database is a file (e.g. --db \(folder.path)/places.gpkg)\n")
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: folder.path), [], "nothing left in the folder")
        let looked = try cli.run(["where", "51.5", "-0.1", "--db", folder.path])
        XCTAssertEqual(looked.status, 64, looked.stderr)
        XCTAssertEqual(looked.stderr, "travel411: error: \(folder.path) is a folder, not a database file\n")
    }

    /// A file of another kind (a downloaded README, an .o5m) says what import reads.
    func testAFileOfAnotherKindSaysWhatImportReads() throws {
        let other = Self.fixtures.deletingLastPathComponent().appendingPathComponent("SOURCES.md")
        try assertImportFails(
            [other.path], naming: [other.path, "not a shapefile (.shp), an OpenStreetMap extract (.osm.pbf, .osm, .osm.bz2"])
    }

    func testAProjectedShapefileFailsAndKeepsThePreviousDatabase() throws {
        let projected = Self.fixtures.appendingPathComponent("projected/london_boroughs_bng.shp")
        try assertImportFails([projected.path], naming: ["london_boroughs_bng.prj", "British_National_Grid", "ogr2ogr"])
    }

    func testAnUnknownLayoutSaysHowToMapIt() throws {
        try assertImportFails([Self.wilderness.path], naming: [Self.wilderness.path, "--level admin --name-field NAME"])
    }
    /// `import --append EXTRACT` without --db adds to the default database, which `where` would build from Data/
    /// on first use: when there is none yet it is built first, not refused. With --db naming no file it is refused.
    func testAppendingToTheDefaultDatabaseBuildsItFromDataFirst() throws {
        // A Data/ of the countries alone keeps the build short.
        let data = cli.folder.appendingPathComponent("data")
        let countries = data.appendingPathComponent("countries")
        try FileManager.default.createDirectory(at: countries, withIntermediateDirectories: true)
        let embedded = try EmbeddedData.locate().appendingPathComponent("countries")
        for fileExtension in ["shp", "shx", "dbf", "prj", "cpg"] {
            let name = "ne_10m_admin_0_countries.\(fileExtension)"
            try FileManager.default.copyItem(at: embedded.appendingPathComponent(name), to: countries.appendingPathComponent(name))
        }
        let extract = Self.fixtures.deletingLastPathComponent().appendingPathComponent("osm/liechtenstein-2013-08-03.osm.pbf")
        let environment = ["TRAVEL411_DB": databasePath, "TRAVEL411_DATA": data.path]

        let refused = try cli.run(["import", "--append", extract.path, "--db", databasePath], environment: environment)
        XCTAssertEqual(refused.status, 66, refused.stderr)
        XCTAssertTrue(refused.stderr.contains("there is no database at \(databasePath) to add to"), refused.stderr)

        let added = try cli.run(["import", "--append", extract.path], environment: environment)
        XCTAssertEqual(added.status, 0, added.stderr)
        XCTAssertTrue(added.stderr.contains("No places database at \(databasePath) yet: building it from \(data.path)"), added.stderr)
        XCTAssertTrue(added.stdout.contains("liechtenstein_2013_08_03_streets"), added.stdout)
        XCTAssertTrue(added.stdout.contains("ne_10m_admin_0_countries"), added.stdout)
        let answer = try cli.succeed(["where", "47.141", "9.5215"], environment: environment)
        XCTAssertTrue(answer.contains("thoroughfare           Städtle"), answer)
        XCTAssertTrue(answer.contains("locality               Vaduz"), answer)
    }

    /// An import without --append replaces the database: what the old one held and the new import does not
    /// read is named, with the way to add instead. Rebuilding from the same file says nothing.
    func testReplacingADatabaseNamesWhatItHeldThatTheImportDidNotRead() throws {
        try importWilderness()
        let extract = Self.fixtures.deletingLastPathComponent().appendingPathComponent("osm/pyrosm-test.osm.pbf")
        let replaced = try cli.run(["import", extract.path, "--db", databasePath])
        XCTAssertEqual(replaced.status, 0, replaced.stderr)
        XCTAssertTrue(
            replaced.stderr.contains(
                "travel411: warning: replaced \(databasePath), which also held the data of coutwildrnp.shp (not among this import's inputs); `travel411 import --append FILE --db \(databasePath)` adds to a database instead"
            ), replaced.stderr)
        let again = try cli.run(["import", extract.path, "--db", databasePath])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertFalse(again.stderr.contains("replaced"), again.stderr)
    }
}
