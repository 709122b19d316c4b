import XCTest

@testable import Travel411Core
@testable import Travel411Store
@testable import Travel411StoreWriters

/// Which places are neighbourhoods of a more populous place, on real pairs of GeoNames places
/// (populations and the distances between their points, Data/localities).
final class NeighbourhoodRuleTests: XCTestCase {
    private func isNeighbourhood(_ population: Double, of largerPopulation: Double, metresApart distance: Double) -> Bool {
        NeighbourhoodRule.isNeighbourhood(
            catchment: PlaceExtent.catchmentMetres(population: population),
            core: PlaceExtent.coreMetres(population: population),
            largerCatchment: PlaceExtent.catchmentMetres(population: largerPopulation), distance: distance)
    }

    func testRealPairs() {
        XCTAssertTrue(isNeighbourhood(19_634, of: 8_961_989, metresApart: 932), "Soho, London")
        XCTAssertTrue(isNeighbourhood(173_314, of: 8_961_989, metresApart: 14_035), "Croydon, London")
        XCTAssertFalse(isNeighbourhood(125_707, of: 8_961_989, metresApart: 24_802), "Watford, London")
        XCTAssertFalse(isNeighbourhood(33_348, of: 164_793, metresApart: 2_926), "Windsor, Slough")
        XCTAssertTrue(isNeighbourhood(3_025, of: 33_348, metresApart: 838), "Eton, Windsor")
        XCTAssertTrue(isNeighbourhood(3_523, of: 123_183, metresApart: 3_226), "East Mackay, Mackay")
    }

    /// A place the larger catchment does not reach is never its neighbourhood, nor is one as populous.
    func testOutOfReachOrAsPopulous() {
        XCTAssertFalse(isNeighbourhood(3_000, of: 147_000, metresApart: 6_500))
        XCTAssertFalse(
            NeighbourhoodRule.isNeighbourhood(catchment: 3000, core: 1800, largerCatchment: 3000, distance: 10), "equal catchments")
    }

    /// The flags of a set of places: only a more populous place of the same country counts.
    func testFlagsNeedAMorePopulousPlaceOfTheSameCountry() {
        func place(_ id: UInt32, _ latitude: Double, _ longitude: Double, _ population: UInt32, _ country: String)
            -> LocalityCellsBuilder.Place
        {
            LocalityCellsBuilder.Place(
                coordinate: Coordinate(latitude: latitude, longitude: longitude), id: id,
                catchmentMetres: PlaceExtent.catchmentMetres(population: Double(population)), population: population,
                country: PointIndex.packCountry(country))
        }
        // London, Soho, and Soho's position again as if it were a place of another country.
        let places = [
            place(0, 51.50853, -0.12574, 8_961_989, "GB"), place(1, 51.5144, -0.13535, 19_634, "GB"),
            place(2, 51.5144, -0.13535, 19_634, "FR"),
        ]
        XCTAssertEqual(NeighbourhoodRule.neighbourhoods(of: places) { _ in [0, 1, 2] }, [false, true, false])
    }

    /// Only a more populous place of the same first-level area counts: Jersey City (New Jersey) beside
    /// New York City (New York), and again as if it were in New York, or its area unknown.
    func testFlagsNeedTheSameFirstLevelArea() {
        func place(_ id: UInt32, _ latitude: Double, _ longitude: Double, _ population: UInt32, area: UInt32)
            -> LocalityCellsBuilder.Place
        {
            LocalityCellsBuilder.Place(
                coordinate: Coordinate(latitude: latitude, longitude: longitude), id: id,
                catchmentMetres: PlaceExtent.catchmentMetres(population: Double(population)), population: population,
                country: PointIndex.packCountry("US"), firstLevel: area)
        }
        let places = [
            place(0, 40.71427, -74.00597, 8_804_190, area: 1), place(1, 40.72816, -74.07764, 264_290, area: 2),
            place(2, 40.72816, -74.07764, 264_290, area: 1), place(3, 40.72816, -74.07764, 264_290, area: 0),
        ]
        XCTAssertEqual(NeighbourhoodRule.neighbourhoods(of: places) { _ in [0, 1, 2, 3] }, [false, false, true, true])
    }
}
