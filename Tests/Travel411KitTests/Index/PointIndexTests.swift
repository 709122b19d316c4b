import XCTest

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store
@testable import Travel411StoreWriters

final class PointIndexTests: XCTestCase {
    private func randomPlaces(_ count: Int, seed: UInt64) -> [PointIndexBuilder.Place] {
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { i in
            let lat = Double(generator.next() % 1_800_000) / 10_000 - 90
            let lon = Double(generator.next() % 3_600_000) / 10_000 - 180
            var place = PointIndexBuilder.Place(coordinate: Coordinate(latitude: lat, longitude: lon), id: UInt32(i))
            place.population = UInt32(generator.next() % 1_000_000)
            place.catchmentMetres = 1000 + Double(place.population) / 10
            place.country = i % 2 == 0 ? "AA" : "BB"
            return place
        }
    }

    /// Small pages, so that lookups cross many of them.
    private func index(_ places: [PointIndexBuilder.Place], catchment: Bool, onDemand: Bool = false) throws -> PointIndex {
        var builder = PointIndexBuilder()
        builder.pageSize = 16
        return try PointIndex(built: builder.build(places, withGroups: catchment), onDemand: onDemand)
    }

    func testNearestAgreesWithBruteForce() throws {
        let places = randomPlaces(3000, seed: 1)
        let index = try index(places, catchment: false)
        let paged = try self.index(places, catchment: false, onDemand: true)
        var generator = SplitMix64(seed: 2)
        for _ in 0..<500 {
            let q = Coordinate(
                latitude: Double(generator.next() % 180_000) / 1000 - 90, longitude: Double(generator.next() % 360_000) / 1000 - 180)
            let expected = places.min {
                GreatCircle.distance(from: q, to: $0.coordinate) < GreatCircle.distance(from: q, to: $1.coordinate)
            }
            XCTAssertEqual(index.nearest(to: PointIndex.Query(q))?.id, expected?.id)
            XCTAssertEqual(paged.nearest(to: PointIndex.Query(q))?.id, expected?.id)
        }
    }

    /// Filtering by country and group reads the per-node locality data: checked against a scan.
    func testFilteredNearestAgreesWithBruteForce() throws {
        var places = randomPlaces(2001, seed: 9)
        for i in places.indices { places[i].group = UInt32(i % 5) }
        let index = try self.index(places, catchment: true, onDemand: true)
        var generator = SplitMix64(seed: 10)
        for _ in 0..<300 {
            let q = Coordinate(
                latitude: Double(generator.next() % 180_000) / 1000 - 90, longitude: Double(generator.next() % 360_000) / 1000 - 180)
            let filter = PointIndex.NearestFilter(group: 3, country: PointIndex.packCountry("AA"))
            let expected = places.filter { $0.group == 3 && $0.country == "AA" }
                .min { GreatCircle.distance(from: q, to: $0.coordinate) < GreatCircle.distance(from: q, to: $1.coordinate) }
            XCTAssertEqual(index.nearest(to: PointIndex.Query(q), filter: filter)?.id, expected?.id)
        }
    }

    func testNearestAcrossTheAntimeridian() throws {
        let places = [
            PointIndexBuilder.Place(coordinate: Coordinate(latitude: -18.14, longitude: 178.44), id: 0),
            PointIndexBuilder.Place(coordinate: Coordinate(latitude: -16.8, longitude: -179.95), id: 1),
            PointIndexBuilder.Place(coordinate: Coordinate(latitude: -16.8, longitude: 170.0), id: 2),
        ]
        let index = try index(places, catchment: false)
        XCTAssertEqual(index.nearest(to: PointIndex.Query(Coordinate(latitude: -16.8, longitude: 179.9)))?.id, 1)
        XCTAssertNil(index.nearest(to: PointIndex.Query(Coordinate(latitude: 0, longitude: 0)), maxChord: PointIndex.chord(metres: 1000)))
    }
}

final class LocalityCellsTests: XCTestCase {
    /// The per-cell candidate lists answer like a scan of every place (neighbourhoods decided pair by
    /// pair, the point's place the one it lies deepest in), away from the discs' edges (positions are
    /// stored as 32-bit floats, about a metre).
    func testAgreesWithBruteForce() throws {
        var generator = SplitMix64(seed: 5)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        // Dense places around two centres, one of them across the antimeridian.
        let places: [LocalityCellsBuilder.Place] = (0..<2000).map { i in
            let centre = i % 2 == 0 ? Coordinate(latitude: 48.85, longitude: 2.35) : Coordinate(latitude: -17.5, longitude: 179.9)
            let at = GreatCircle.destination(from: centre, distance: unit() * 150_000, bearing: unit() * 360)
            let population = UInt32(unit() * unit() * 2_000_000)
            return LocalityCellsBuilder.Place(
                coordinate: at, id: UInt32(i), catchmentMetres: PlaceExtent.catchmentMetres(population: Double(population)),
                population: population, country: PointIndex.packCountry(i % 3 == 0 ? "AA" : "BB"), firstLevel: UInt32(i % 4))
        }
        let neighbourhoods = NeighbourhoodRule.neighbourhoods(of: places) { _ in Array(places.indices) }
        XCTAssertGreaterThan(neighbourhoods.filter { $0 }.count, 100, "dense places: many are neighbourhoods")
        XCTAssertGreaterThan(neighbourhoods.filter { !$0 }.count, 100)
        var blobs = [BlobStorage?](repeating: nil, count: LocalityCells.tileCount)
        for tile in LocalityCellsBuilder().build(places) { blobs[tile.number] = BlobStorage(bytes: tile.blob) }
        let cells = LocalityCells(pages: PagedBlobs(preloaded: blobs))
        var compared = 0
        for i in 0..<2000 {
            let centre = i % 2 == 0 ? Coordinate(latitude: 48.85, longitude: 2.35) : Coordinate(latitude: -17.5, longitude: 179.9)
            let q = GreatCircle.destination(from: centre, distance: unit() * 160_000, bearing: unit() * 360)
            let distances = places.map { GreatCircle.distance(from: q, to: $0.coordinate) }
            // Skip points within 5 m of a disc's edge, where float positions may decide either way.
            if zip(places, distances).contains(where: { abs($1 - $0.catchmentMetres) < 5 }) { continue }
            let containing = places.indices.filter {
                !neighbourhoods[$0] && places[$0].country == PointIndex.packCountry("BB") && distances[$0] <= places[$0].catchmentMetres
            }
            let depths = containing.map { distances[$0] / places[$0].catchmentMetres }.sorted()
            // Skip near-ties of depth too, which float positions and the stored radii (rounded up by about
            // 1.5 m, a thousandth of a 1.5 km catchment) may also decide either way.
            if depths.count > 1, depths[1] - depths[0] < 2e-3 { continue }
            let expected = containing.min { distances[$0] / places[$0].catchmentMetres < distances[$1] / places[$1].catchmentMetres }
            XCTAssertEqual(
                cells.locality(containing: q, query: PointIndex.Query(q), country: PointIndex.packCountry("BB")),
                expected.map { places[$0].id }, "at \(q)")
            // In first-level area 2, the places of areas 2 and 0 (unknown) come first.
            let ownArea = containing.filter { FirstLevelAreas.compatible(places[$0].firstLevel, 2) }
            let preferred = (ownArea.isEmpty ? containing : ownArea).min {
                distances[$0] / places[$0].catchmentMetres < distances[$1] / places[$1].catchmentMetres
            }
            let ownDepths = ownArea.map { distances[$0] / places[$0].catchmentMetres }.sorted()
            if ownDepths.count < 2 || ownDepths[1] - ownDepths[0] >= 2e-3 {
                XCTAssertEqual(
                    cells.locality(containing: q, query: PointIndex.Query(q), country: PointIndex.packCountry("BB"), firstLevel: 2),
                    preferred.map { places[$0].id }, "in area 2 at \(q)")
            }
            compared += 1
        }
        XCTAssertGreaterThan(compared, 1300)
    }

    /// The nearest place from the cells is exactly the k-d tree's filtered answer (any place, a
    /// country, a group, one place excluded), the same record and group down to ties, also across the
    /// antimeridian, near the pole and with no place in reach.
    func testNearestAgreesWithTheTree() throws {
        var generator = SplitMix64(seed: 11)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        let centres = [
            Coordinate(latitude: 48.85, longitude: 2.35), Coordinate(latitude: -17.5, longitude: 179.95),
            Coordinate(latitude: 78.2, longitude: 15.6), Coordinate(latitude: 89.95, longitude: 0),
        ]
        var places: [PointIndexBuilder.Place] = (0..<3000).map { i in
            let centre = centres[i % centres.count]
            var place = PointIndexBuilder.Place(
                coordinate: GreatCircle.destination(from: centre, distance: unit() * 60_000, bearing: unit() * 360), id: UInt32(i))
            place.country = i % 3 == 0 ? "AA" : "BB"
            place.group = UInt32(i % 4)
            return place
        }
        // Two places at one position: the lower id must win, as in the tree.
        places.append(
            {
                var p = places[7]
                p.id = 3000
                return p
            }())
        let tree = try PointIndex(built: PointIndexBuilder().build(places, withGroups: true))
        var blobs = [BlobStorage?](repeating: nil, count: LocalityCells.tileCount)
        let cellPlaces = places.map {
            LocalityCellsBuilder.Place(
                coordinate: $0.coordinate, id: $0.id, catchmentMetres: 1000, population: 1,
                country: PointIndex.packCountry($0.country), group: $0.group)
        }
        for tile in LocalityCellsBuilder().build(cellPlaces) { blobs[tile.number] = BlobStorage(bytes: tile.blob) }
        let cells = LocalityCells(
            pages: PagedBlobs(preloaded: blobs), groups: BlobStorage(bytes: LocalityCellsBuilder().groups(cellPlaces)))
        var found = 0
        for i in 0..<4000 {
            let centre = centres[i % centres.count]
            let q = i == 0 ? places[7].coordinate : GreatCircle.destination(from: centre, distance: unit() * 80_000, bearing: unit() * 360)
            let filters = [
                (PointIndex.NearestFilter(country: PointIndex.packCountry("AA")), 10_000.0),
                (PointIndex.NearestFilter(country: PointIndex.packCountry("BB")), 3000),
                (PointIndex.NearestFilter(), 25_000),
                (PointIndex.NearestFilter(group: 2, country: PointIndex.packCountry("BB")), 5000),
                (PointIndex.NearestFilter(group: 3, excluded: 7), 8000),
            ]
            for (filter, reach) in filters {
                let expected = tree.nearest(to: PointIndex.Query(q), maxChord: PointIndex.chord(metres: reach), filter: filter)
                let actual = cells.nearest(to: q, query: PointIndex.Query(q), filter: filter, withinMetres: reach)
                XCTAssertEqual(actual, expected?.id, "\(filter) within \(reach) m of \(q)")
                XCTAssertEqual(actual.map(cells.group(of:)), expected?.group)
                if expected != nil { found += 1 }
            }
        }
        XCTAssertGreaterThan(found, 6000)
    }

    /// Where the tree has proven a 1° tile's nearest place (`NearestTileProof`), the cells' nearest place answers it
    /// without a country, and it is the tree's nearest anywhere; elsewhere the cells answer within their reach, as the
    /// tree does: a sparse world, a town's cluster, and every tile searched from twice first, as the batch does.
    func testNearestPlaceAnswersProvenTilesAsTheTree() throws {
        var generator = SplitMix64(seed: 35)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var places = (0..<300).map { i in
            PointIndexBuilder.Place(coordinate: Coordinate(latitude: unit() * 160 - 80, longitude: unit() * 360 - 180), id: UInt32(i))
        }
        for i in 0..<200 {
            let coordinate = GreatCircle.destination(
                from: Coordinate(latitude: 43.3, longitude: 5.4), distance: unit() * 30_000, bearing: unit() * 360)
            places.append(PointIndexBuilder.Place(coordinate: coordinate, id: UInt32(300 + i)))
        }
        let tree = try PointIndex(built: PointIndexBuilder().build(places, withGroups: true))
        var blobs = [BlobStorage?](repeating: nil, count: LocalityCells.tileCount)
        let cellPlaces = places.map {
            LocalityCellsBuilder.Place(coordinate: $0.coordinate, id: $0.id, catchmentMetres: 1000, population: 1, country: 0, group: 0)
        }
        for tile in LocalityCellsBuilder().build(cellPlaces) { blobs[tile.number] = BlobStorage(bytes: tile.blob) }
        let cells = LocalityCells(
            pages: PagedBlobs(preloaded: blobs), groups: BlobStorage(bytes: LocalityCellsBuilder().groups(cellPlaces)), tree: tree)
        let chord = PointIndex.chord(metres: 10_000)
        var fromTiles = 0, fromCells = 0
        for i in 0..<3000 {
            let q =
                i % 3 == 0
                ? GreatCircle.destination(from: places[300 + i % 200].coordinate, distance: unit() * 15_000, bearing: unit() * 360)
                : GreatCircle.destination(from: places[i % 300].coordinate, distance: unit() * 100_000, bearing: unit() * 360)
            let query = PointIndex.Query(q)
            for _ in 0..<2 { _ = tree.nearestAnywhere(to: query, at: q) }
            let anywhere = tree.nearest(to: query)?.id
            let within = tree.nearest(to: query, maxChord: chord)?.id
            let answer = cells.nearestPlace(to: q, query: query, withinMetres: 10_000, chord: chord)
            if let answer, answer.country == nil {
                XCTAssertEqual(answer.id, anywhere, "proven at \(q)")
                fromTiles += 1
            } else {
                XCTAssertEqual(answer?.id, within, "within reach of \(q)")
                if answer != nil { fromCells += 1 }
            }
        }
        XCTAssertGreaterThan(fromTiles, 500)
        XCTAssertGreaterThan(fromCells, 500)
    }

    /// The search's cheaper box holds the exact one everywhere (so it only adds cells whose places are farther than
    /// the best), and its reach is never below the exact arc: at every latitude, pole and antimeridian included.
    func testSearchBoxHoldsTheExactBox() {
        var generator = SplitMix64(seed: 37)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        for i in 0..<20_000 {
            let latitude = i < 4 ? [89.9, -89.9, 0, 88.95][i] : unit() * 180 - 90
            let centre = Coordinate(latitude: latitude, longitude: unit() * 360 - 180)
            let metres = unit() * 10_110 + 10
            let exact = BoundingBox(around: centre, metres: metres)
            let held = LocalityCells.boxHolding(around: centre, metres: metres)
            XCTAssertTrue(held.contains(exact), "\(centre) \(metres) m: \(held) does not hold \(exact)")
            XCTAssertEqual(held.minY, exact.minY)
            XCTAssertEqual(held.maxY, exact.maxY)
            if abs(latitude) < 60 { XCTAssertLessThanOrEqual(held.maxX - held.minX, (exact.maxX - exact.minX) * 1.01, "\(centre)") }
            let chord = PointIndex.chord(metres: metres)
            let reach = LocalityCells.metresAtLeast(chord: chord)
            XCTAssertGreaterThanOrEqual(reach, LocalityCells.metres(chord: chord))
            XCTAssertLessThan(reach, LocalityCells.metres(chord: chord) * (1 + 1e-6))
        }
    }
}
