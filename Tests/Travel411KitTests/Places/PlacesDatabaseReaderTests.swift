import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411Store
import Travel411TestSupport
import XCTest

/// The read API over the places database imported from Data/: what the basemap and the City choice ask
/// of it, answered without their knowing a table.
final class PlacesDatabaseReaderTests: XCTestCase {
    private var places: PlacesDatabase!

    override func setUpWithError() throws {
        places = try PlacesDatabase(path: TestPlaces.databasePath)
    }

    func testLayersComeByLevelInImportOrder() throws {
        XCTAssertEqual(try places.layers(level: .country).map(\.name), ["ne_10m_admin_0_countries"])
        XCTAssertEqual(try places.layers(level: .district).map(\.name), ["london_boroughs"])
        XCTAssertEqual(try places.waterLayers(.ocean).map(\.name), ["ne_10m_geography_marine_polys"])
        XCTAssertEqual(try places.waterLayers(.inlandWater).map(\.name), ["ne_10m_lakes"])
    }

    /// Natural Earth's 110m, 50m and 10m outlines, told apart by their geometry, not their names.
    func testTheCountryOutlinesGetFinerWithTheDetail() throws {
        XCTAssertEqual(try places.countryOutlineLayer(.coarsest)?.name, "ne_110m_admin_0_countries")
        XCTAssertEqual(try places.countryOutlineLayer(.coarse)?.name, "ne_50m_admin_0_countries")
        XCTAssertEqual(try places.countryOutlineLayer(.full)?.name, "ne_10m_admin_0_countries")
    }

    /// Fiji lies across ±180°: a view there is two boxes, and a feature in both comes once.
    func testFeaturesInTwoBoxesComeOnceWithThePartsAskedFor() throws {
        let country = try XCTUnwrap(try places.layers(level: .country).first)
        let boxes = [
            BoundingBox(minX: 177, minY: -19, maxX: 180, maxY: -16), BoundingBox(minX: -180, minY: -19, maxX: -179, maxY: -16),
        ]
        let features = try places.features(in: country, within: boxes, reading: [.name, .indexedBox, .labelPoint])
        XCTAssertEqual(features.compactMap(\.name).filter { $0 == "Fiji" }.count, 1, "\(features.map(\.name))")
        XCTAssertTrue(features.allSatisfy { $0.shape == nil }, "shapes were not asked for")
        let fiji = try XCTUnwrap(features.first { $0.name == "Fiji" })
        XCTAssertNotNil(fiji.indexedBox)
        XCTAssertNotNil(fiji.labelPoint)

        let shapes = try places.features(in: country, within: boxes, reading: .shape)
        XCTAssertEqual(shapes.count, features.count)
        XCTAssertTrue(shapes.allSatisfy { $0.shape != nil && $0.name == nil })
    }

    func testStreetsAreNamedFromTheirOwnNameAttribute() throws {
        let streets = try places.layers(level: .thoroughfare)
        let fitzrovia = try XCTUnwrap(streets.first { $0.name == "london_fitzrovia_highways" })
        let features = try places.features(
            in: fitzrovia, within: [BoundingBox(minX: -0.140, minY: 51.516, maxX: -0.132, maxY: 51.522)], reading: [.shape, .name])
        XCTAssertFalse(features.isEmpty)
        XCTAssertTrue(features.contains { $0.name == "Charlotte Street" }, "\(Set(features.compactMap(\.name)).sorted())")
    }

    func testLocalities() throws {
        XCTAssertTrue(try places.listsLocalities)
        let central = BoundingBox(minX: -0.3, minY: 51.4, maxX: 0.1, maxY: 51.6)
        XCTAssertEqual(try places.mostPopulousLocalities(in: central, limit: 2).map(\.name), ["London", "Islington"])

        let londons = try places.localities(named: "LONDON", inCountry: "gb")
        XCTAssertEqual(londons.map(\.countryCode), ["GB"])
        XCTAssertEqual(londons.first?.population, 8_961_989)

        let heathrow = Coordinate(latitude: 51.47, longitude: -0.45)
        let near = try places.localities(near: heathrow, radiusMetres: 30_000, named: "london")
        XCTAssertEqual(near.map(\.locality.countryCode), ["GB"])
        XCTAssertEqual(try XCTUnwrap(near.first).distanceMetres, 23_000, accuracy: 2_000)
        let around = try places.localities(near: heathrow, radiusMetres: 5_000)
        XCTAssertFalse(around.isEmpty)
        XCTAssertEqual(around.map(\.distanceMetres), around.map(\.distanceMetres).sorted(), "nearest first")
    }

    /// A file that is no places database opens (the City choice explains what it lacks), and a GeoPackage
    /// question about it says it is none.
    func testAnSQLiteFileWithoutTheTablesListsNoLocalitiesAndHasNoLayers() throws {
        let path = try makeTemporaryDirectory(self).appendingPathComponent("other.sqlite").path
        try SQLiteDatabase(path: path).execute("CREATE TABLE other (x)")
        let other = try PlacesDatabase(path: path)
        XCTAssertFalse(try other.listsLocalities)
        XCTAssertEqual(try other.localities(named: "London", inCountry: "GB"), [])
        XCTAssertThrowsError(try other.layers(level: .country)) { error in
            XCTAssertTrue("\(error)".contains("not a GeoPackage"), "\(error)")
        }
    }
}
