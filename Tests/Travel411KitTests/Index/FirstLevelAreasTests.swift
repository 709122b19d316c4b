import XCTest

@testable import Travel411Store

/// First-level areas numbered from the localities' own country and GeoNames admin1.
final class FirstLevelAreasTests: XCTestCase {
    func testNumbersFoldedNamesPerCountry() {
        let areas = FirstLevelAreas(localities: [
            ("US", "New York"), ("US", "New Jersey"), ("US", "new york"), ("EC", "Tungurahua Province"), ("EC", "Tungurahua"),
            ("US", nil), (nil, "New York"), ("CA", "New York"),
        ])
        XCTAssertEqual(areas.localities, [1, 2, 1, 3, 3, 0, 0, 4])
        XCTAssertEqual(areas.number(country: "US", name: "New Jersey"), 2)
        XCTAssertEqual(areas.number(country: "EC", name: "Provincia de Tungurahua"), 3)
        XCTAssertEqual(areas.number(country: "US", name: "Bayern"), 0, "no locality of it")
        XCTAssertEqual(areas.number(country: nil, name: "New York"), 0)
    }

    func testUnknownIsCompatibleWithEveryArea() {
        XCTAssertTrue(FirstLevelAreas.compatible(3, 3))
        XCTAssertTrue(FirstLevelAreas.compatible(0, 3))
        XCTAssertTrue(FirstLevelAreas.compatible(3, 0))
        XCTAssertFalse(FirstLevelAreas.compatible(2, 3))
    }
}
