import XCTest

@testable import Travel411Core
@testable import Travel411Store
@testable import Travel411StoreWriters

/// The locality of a point that no catchment holds: the place whose Nominatim reach holds it deepest
/// (`PlaceExtent.fallbackReachMetres`, `LocalityCells.deepestReaching`; docs/fields.md, locality).
final class FallbackReachTests: XCTestCase {
    /// Nominatim's `reverse_place_diameter` for the kind of place OpenStreetMap tags at each population.
    func testReachByKindOfPlace() {
        let degree = 111_320.0
        XCTAssertEqual(PlaceExtent.fallbackReachMetres(population: 436_606), 0.16 * degree, accuracy: 1e-6, "a city")
        XCTAssertEqual(PlaceExtent.fallbackReachMetres(population: 100_000), 0.16 * degree, accuracy: 1e-6, "a city")
        XCTAssertEqual(PlaceExtent.fallbackReachMetres(population: 12_562), 0.08 * degree, accuracy: 1e-6, "a town")
        XCTAssertEqual(PlaceExtent.fallbackReachMetres(population: 9_999), 0.04 * degree, accuracy: 1e-6, "a village")
        XCTAssertEqual(PlaceExtent.fallbackReachMetres(population: 150), 0.02 * degree, accuracy: 1e-6, "a hamlet")
        XCTAssertEqual(PlaceExtent.fallbackReachMetres(population: 0), 0.04 * degree, accuracy: 1e-6, "unknown: a village")
        XCTAssertEqual(PlaceExtent.longestFallbackReachMetres, 0.16 * degree, accuracy: 1e-6)
        // The scan's bounds: the longest stored reach (tens of metres, rounded up) and a metre.
        let longest = LocalityCells.packedReach(of: .max, isNeighbourhood: false)
        XCTAssertEqual(LocalityCells.longestStoredReachMetres, Double(longest) * 10 + 1)
        let town = LocalityCells.packedReach(of: 99_999, isNeighbourhood: false)
        XCTAssertEqual(LocalityCells.cellScanReachMetres, Double(town) * 10 + 1)
        XCTAssertFalse(LocalityCells.reachesBeyondCells(town))
        XCTAssertTrue(LocalityCells.reachesBeyondCells(LocalityCells.packedReach(of: 100_000, isNeighbourhood: false)))
        XCTAssertFalse(LocalityCells.reachesBeyondCells(LocalityCells.packedReach(of: 100_000, isNeighbourhood: true)))
    }

    private func place(_ id: UInt32, _ latitude: Double, _ longitude: Double, _ population: UInt32, _ country: String = "NG")
        -> LocalityCellsBuilder.Place
    {
        LocalityCellsBuilder.Place(
            coordinate: Coordinate(latitude: latitude, longitude: longitude), id: id,
            catchmentMetres: PlaceExtent.catchmentMetres(population: Double(population)), population: population,
            country: PointIndex.packCountry(country))
    }

    private func cells(_ places: [LocalityCellsBuilder.Place]) -> LocalityCells {
        var blobs = [BlobStorage?](repeating: nil, count: LocalityCells.tileCount)
        for tile in LocalityCellsBuilder().build(places) { blobs[tile.number] = BlobStorage(bytes: tile.blob) }
        return LocalityCells(pages: PagedBlobs(preloaded: blobs))
    }

    private func deepest(_ cells: LocalityCells, _ latitude: Double, _ longitude: Double, _ country: String = "NG") -> UInt32? {
        let at = Coordinate(latitude: latitude, longitude: longitude)
        return cells.deepestReaching(at, query: PointIndex.Query(at), country: PointIndex.packCountry(country))
    }

    /// GeoNames' Uyo and Abak (Data/localities): Natural Earth's point for Uyo lies 10.4 km from Uyo's,
    /// beyond its 9 km catchment, and 7.3 km from Abak's: Uyo's reach holds it at 0.59, Abak's at 0.82.
    func testUyoOverTheNearerTown() {
        let cells = cells([place(0, 5.05127, 7.9335, 436_606), place(1, 4.98236, 7.78922, 12_562)])
        XCTAssertEqual(deepest(cells, 5.0080, 7.8500), 0, "Uyo")
        XCTAssertEqual(deepest(cells, 4.99, 7.78), 1, "1 km from Abak")
        XCTAssertNil(deepest(cells, 5.0080, 7.8500, "CM"), "a point of another country")
        XCTAssertNil(deepest(cells, 5.3, 8.2), "beyond every reach")
    }

    /// A neighbourhood is never the locality, here either: Soho beside London.
    func testNeighbourhoodsLeftOut() {
        let cells = cells([place(0, 51.50853, -0.12574, 8_961_989, "GB"), place(1, 51.5144, -0.13535, 19_634, "GB")])
        XCTAssertEqual(deepest(cells, 51.5144, -0.1353, "GB"), 0)
    }

    /// The cells and the tiles' lists of cities answer like a scan of every place, across the antimeridian
    /// too, away from near-ties.
    func testAgreesWithBruteForce() {
        var generator = SplitMix64(seed: 11)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        let centres = [Coordinate(latitude: 48.85, longitude: 2.35), Coordinate(latitude: -17.5, longitude: 179.9)]
        let places: [LocalityCellsBuilder.Place] = (0..<600).map { i in
            let at = GreatCircle.destination(from: centres[i % 2], distance: unit() * 120_000, bearing: unit() * 360)
            let population = UInt32(unit() * unit() * unit() * 400_000)
            return LocalityCellsBuilder.Place(
                coordinate: at, id: UInt32(i), catchmentMetres: PlaceExtent.catchmentMetres(population: Double(population)),
                population: population, country: PointIndex.packCountry(i % 3 == 0 ? "AA" : "BB"))
        }
        let neighbourhoods = NeighbourhoodRule.neighbourhoods(of: places) { _ in Array(places.indices) }
        let cells = cells(places)
        var compared = 0
        for i in 0..<1500 {
            let q = GreatCircle.destination(from: centres[i % 2], distance: unit() * 140_000, bearing: unit() * 360)
            let depths = places.indices.compactMap { j -> (Int, Double)? in
                guard !neighbourhoods[j], places[j].country == PointIndex.packCountry("BB") else { return nil }
                let reach = (PlaceExtent.fallbackReachMetres(population: Double(places[j].population)) / 10).rounded(.up) * 10
                let depth = GreatCircle.distance(from: q, to: places[j].coordinate) / reach
                return depth <= 1 ? (j, depth) : nil
            }.sorted { $0.1 < $1.1 }
            // Near-ties and reach edges may go either way in floating point.
            if depths.count > 1, depths[1].1 - depths[0].1 < 1e-6 { continue }
            if let first = depths.first, first.1 > 1 - 1e-6 { continue }
            let expected = depths.first.map { UInt32($0.0) }
            XCTAssertEqual(
                cells.deepestReaching(q, query: PointIndex.Query(q), country: PointIndex.packCountry("BB")), expected, "query \(i)")
            // Told how far the nearest place lies, as the geocoder does: beyond the cells' scan only the tiles' lists.
            let nearest = places.map { GreatCircle.distance(from: q, to: $0.coordinate) }.min() ?? 0
            XCTAssertEqual(
                cells.deepestReaching(q, query: PointIndex.Query(q), country: PointIndex.packCountry("BB"), nearestPlaceMetres: nearest),
                expected, "query \(i), the nearest place \(nearest) m away")
            compared += 1
        }
        XCTAssertGreaterThan(compared, 1000)
    }
}
