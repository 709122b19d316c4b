import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store

/// The import command an outdated database's message gives: the same files in the same order, folders
/// where the files are all a folder holds, and the import's --level/--name-field.
final class ReimportCommandTests: XCTestCase {
    private var directory: URL!

    override func setUpWithError() throws {
        directory = try TestShapefileWriter.makeTemporaryDirectory()
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// Empty `.shp` files are enough: finding shapefiles does not open them.
    @discardableResult
    private func touch(_ relativePaths: String...) throws -> [String] {
        try relativePaths.map { relativePath in
            let url = directory.appendingPathComponent(relativePath)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            XCTAssertTrue(FileManager.default.createFile(atPath: url.path, contents: Data()))
            return url.path
        }
    }

    private func path(_ relativePath: String) -> String { directory.appendingPathComponent(relativePath).path }

    func testFilesThatAreAllAFolderHoldsBecomeThatFolder() throws {
        let files = try touch("maps/countries/a.shp", "maps/countries/b.shp", "maps/roads/c.shp")
        XCTAssertEqual(ReimportCommand.arguments(for: files), [path("maps")], "the lowest folder that holds them all")
        XCTAssertEqual(ReimportCommand.arguments(for: Array(files.prefix(2))), [path("maps/countries")])
    }

    func testFilesStayFilesWhenTheirFolderHoldsMoreOrTheOrderDiffers() throws {
        let files = try touch("mixed/a.shp", "mixed/b.shp")
        try touch("mixed/not-imported.shp")
        XCTAssertEqual(ReimportCommand.arguments(for: files), files)
        let sorted = try touch("sorted/a.shp", "sorted/b.shp")
        XCTAssertEqual(ReimportCommand.arguments(for: sorted.reversed()), sorted.reversed(), "a folder would change the order")
        let alone = try touch("alone/only.shp")
        XCTAssertEqual(ReimportCommand.arguments(for: alone), alone, "a file given alone stays a file")
        XCTAssertEqual(
            ReimportCommand.arguments(for: ["/no/such/folder/x.shp", "/no/such/folder/y.shp"]),
            ["/no/such/folder/x.shp", "/no/such/folder/y.shp"])
    }

    func testFoldersAndFilesMixInTheirOrder() throws {
        let first = try touch("one/a.shp", "one/b.shp")
        let loose = try touch("loose/c.shp")
        try touch("loose/other.shp")
        let last = try touch("two/d.shp", "two/e.shp")
        XCTAssertEqual(ReimportCommand.arguments(for: first + loose + last), [path("one"), loose[0], path("two")])
    }

    func testTheCommandQuotesItsWordsAndRepeatsTheMapping() {
        let sources = ImportedSources(paths: ["/no/such/it's here.shp"], mapping: LayoutMapping(level: "thoroughfare", nameField: "NAME"))
        XCTAssertEqual(
            ReimportCommand(sources: sources, databasePath: "/db/my places.gpkg").text,
            #"travel411 import '/no/such/it'\''s here.shp' --level thoroughfare --name-field NAME --db '/db/my places.gpkg'"#)
        XCTAssertEqual(
            ReimportCommand(sources: ImportedSources(paths: ["/a.shp"], mapping: nil), databasePath: "/db/p.gpkg").text,
            "travel411 import /a.shp --db /db/p.gpkg")
    }

    func testTheMappingIsReadBackFromTheLayerDescription() {
        let mapping = LayoutMapping(level: "admin", nameField: "NAME_1")
        XCTAssertEqual(LayoutMapping(layerDescription: "\(mapping.layout) from gadm from here.shp"), mapping)
        XCTAssertEqual(LayerProfile.userMapped(level: .admin, nameField: "NAME_1").layout, mapping.layout)
        XCTAssertNil(LayoutMapping(layerDescription: "Natural Earth admin 1 from ne_10m_admin1.shp"))
    }
}
