import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Import
@testable import Travel411Store

/// An outdated database imported from another copy of the embedded Data/ (a second clone, a moved
/// install) counts as built from Data/ when its sources' checksums match Data/'s files, and only then.
final class ImportedSourcesTests: XCTestCase {
    func testAnotherCopyOfTheEmbeddedDataIsRecognisedByItsChecksums() throws {
        let sources = try XCTUnwrap(ImportedSources.read(from: SQLiteDatabase(path: TestPlaces.databasePath, mode: .readOnly)))
        let data = try EmbeddedData.locate()
        let dataPath = ImportedSources.resolved(data.path)
        XCTAssertTrue(sources.areAll(inside: data))
        XCTAssertEqual(sources.checksums.count, sources.paths.count, "every source has its checksum")

        // The same files as they were listed by an import from a clone somewhere else.
        let elsewhere = sources.paths.map { "/elsewhere/old clone/Data" + ImportedSources.resolved($0).dropFirst(dataPath.count) }
        var moved = ImportedSources(
            paths: elsewhere, mapping: nil,
            checksums: Dictionary(
                uniqueKeysWithValues: zip(elsewhere, sources.paths.map { sources.checksums[$0] ?? "" })))
        XCTAssertFalse(moved.areAll(inside: data))
        XCTAssertTrue(moved.areAll(copiesOf: data))

        // One file that differs, a file Data/ does not have, or a mapped layout: the user's own data.
        var changed = moved
        changed.checksums[elsewhere[0]] = String(repeating: "0", count: 64)
        XCTAssertFalse(changed.areAll(copiesOf: data))
        moved.paths.append("/elsewhere/old clone/Data/mine/roads.shp")
        moved.checksums["/elsewhere/old clone/Data/mine/roads.shp"] = String(repeating: "1", count: 64)
        XCTAssertFalse(moved.areAll(copiesOf: data))
        let mapped = ImportedSources(
            paths: elsewhere, mapping: LayoutMapping(level: "thoroughfare", nameField: "NAME"),
            checksums: changed.checksums)
        XCTAssertFalse(mapped.areAll(copiesOf: data))
    }
}
