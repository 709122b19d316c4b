import XCTest
import Travel411Kit

/// Keeps this test target non-empty (SwiftPM refuses to load a package with an empty target) until CLI tests land.
final class PackageLoadsTests: XCTestCase {
    func testVersionIsSet() {
        XCTAssertFalse(Travel411.version.isEmpty)
    }
}
