import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Shapefile

/// Which files an import of a folder reads.
final class ShapefileDiscoveryTests: XCTestCase {
    /// A folder given as a symbolic link (data kept on another disk) is searched like the folder itself, and
    /// the shapefiles keep the path the user gave.
    func testAFolderGivenAsASymbolicLinkIsSearched() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("discovery-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let real = root.appendingPathComponent("real/roads")
        try FileManager.default.createDirectory(at: real, withIntermediateDirectories: true)
        for name in ["roads.shp", "roads.shx", "._roads.shp"] {
            XCTAssertTrue(FileManager.default.createFile(atPath: real.appendingPathComponent(name).path, contents: Data()))
        }
        let link = root.appendingPathComponent("maps")
        try FileManager.default.createSymbolicLink(at: link, withDestinationURL: root.appendingPathComponent("real"))

        let found = try ShapefileDiscovery.shapefiles(in: [link])
        XCTAssertEqual(found.map(\.path), [link.appendingPathComponent("roads/roads.shp").path])
    }
}
