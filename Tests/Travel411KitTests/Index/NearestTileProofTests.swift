import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Store
@testable import Travel411StoreWriters

/// The nearest place's per-tile answers (`NearestTileProof`, kept by `TileNearestHints`) must be what the full
/// search answers for every query of the tile: on its edges and corners, at the poles, on both sides of the
/// antimeridian and at sea.
final class NearestTileProofTests: XCTestCase {
    /// Queries in a 1° tile: its corners and edge midpoints (where a query rounds into one tile or the next),
    /// the world's own edges, and random points.
    private func queries(row: Int, column: Int, random: Int, generator: inout SplitMix64) -> [Coordinate] {
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        let south = Double(row) - 90, west = Double(column) - 180
        var points: [Coordinate] = []
        for (dy, dx) in [(0.0, 0.0), (0, 0.5), (0.5, 0), (0.5, 0.5), (0.999_999_999, 0.999_999_999), (0, 0.999_999_999)] {
            points.append(Coordinate(latitude: south + dy, longitude: west + dx))
        }
        if row == 179 { points.append(Coordinate(latitude: 90, longitude: west + unit())) }
        if column == 359 { points.append(Coordinate(latitude: south + unit(), longitude: 180)) }
        for _ in 0..<random { points.append(Coordinate(latitude: south + unit(), longitude: west + unit())) }
        return points
    }

    /// Synthetic places (a sparse world, two dense clusters, one of them across the antimeridian, one at the
    /// pole): every tile's answer, table or search, is the full search's, and many tiles are proven.
    func testProvenTilesAnswerAsTheFullSearch() throws {
        var generator = SplitMix64(seed: 411)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var places = (0..<400).map { i in
            PointIndexBuilder.Place(coordinate: Coordinate(latitude: unit() * 180 - 90, longitude: unit() * 360 - 180), id: UInt32(i))
        }
        for (i, centre) in [Coordinate(latitude: -17, longitude: 179.9), Coordinate(latitude: 89.8, longitude: 10)].enumerated() {
            for j in 0..<300 {
                let coordinate = GreatCircle.destination(from: centre, distance: unit() * 150_000, bearing: unit() * 360)
                places.append(PointIndexBuilder.Place(coordinate: coordinate, id: UInt32(400 + i * 300 + j)))
            }
        }
        var builder = PointIndexBuilder()
        builder.pageSize = 16
        let index = try PointIndex(built: builder.build(places, withGroups: false))
        var tiles = (0..<600).map { _ in (Int(generator.next() % 180), Int(generator.next() % 360)) }
        tiles += [(0, 0), (0, 359), (179, 0), (179, 359), (179, 190), (72, 359), (72, 0), (73, 359), (89, 180)]
        var proven = 0
        for (row, column) in tiles {
            let points = queries(row: row, column: column, random: 12, generator: &generator)
            for (n, point) in points.enumerated() {
                let query = PointIndex.Query(point)
                XCTAssertEqual(index.nearestAnywhere(to: query, at: point)?.id, index.nearest(to: query)?.id, "\(point), query \(n)")
            }
            if index.tileHints.provenNearest(ofTile: row * 360 + column) != nil { proven += 1 }
        }
        XCTAssertGreaterThan(proven, 300)
    }

    /// Coasts: clusters of places with open sea beside them, too many in reach for a proof, so the tiles off them
    /// list their candidates (`NearestTileCandidates`); every query of those tiles, searched again and again,
    /// answers as the full search, equal distances (places sharing a position) to the lower id included.
    func testListedTilesAnswerAsTheFullSearch() throws {
        var generator = SplitMix64(seed: 37)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var places: [PointIndexBuilder.Place] = []
        for centre in [Coordinate(latitude: 43.2, longitude: 5.4), Coordinate(latitude: -33.9, longitude: 151.2)] {
            for _ in 0..<100 {
                let coordinate = GreatCircle.destination(from: centre, distance: unit() * 60_000, bearing: unit() * 180)
                places.append(PointIndexBuilder.Place(coordinate: coordinate, id: UInt32(places.count)))
                if places.count % 10 == 0 { places.append(PointIndexBuilder.Place(coordinate: coordinate, id: UInt32(places.count))) }
            }
        }
        places.reverse()
        var builder = PointIndexBuilder()
        builder.pageSize = 16
        let index = try PointIndex(built: builder.build(places, withGroups: false))
        var tiles: [(Int, Int)] = []
        for (latitude, longitude) in [(43, 5), (-34, 151)] {
            for dy in -2...2 { for dx in -2...2 { tiles.append((latitude + 90 + dy, longitude + 180 + dx)) } }
        }
        var listed = 0
        for (row, column) in tiles {
            let points = queries(row: row, column: column, random: 40, generator: &generator)
            for _ in 0..<3 {
                for (n, point) in points.enumerated() {
                    let query = PointIndex.Query(point)
                    XCTAssertEqual(index.nearestAnywhere(to: query, at: point)?.id, index.nearest(to: query)?.id, "\(point), query \(n)")
                }
            }
            if index.tileHints.listedCandidates(ofTile: row * 360 + column) != nil { listed += 1 }
        }
        XCTAssertGreaterThan(listed, 10)
    }

    /// Two places at one position are never proven apart (equal distances go to the lower id by the search).
    func testEqualPlacesAreNotProven() {
        let p = PointIndex.unitVector(latitude: 10, longitude: 10)
        XCTAssertFalse(NearestTileProof.Cap(row: 100, column: 190).isNearer(p, than: p))
    }

    /// The cap holds every point of its tile, widened edges and poles included.
    func testCapHoldsItsTile() {
        var generator = SplitMix64(seed: 7)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        for i in 0..<20_000 {
            let row = i < 360 ? (i % 2 == 0 ? 0 : 179) : Int(generator.next() % 180)
            let column = i < 360 ? i : Int(generator.next() % 360)
            let cap = NearestTileProof.Cap(row: row, column: column)
            let (radius, c) = (cap.radius, cap.centre)
            let corner = i % 4
            let latitude = Double(row) - 90 + (i < 1000 ? Double(corner / 2) : unit())
            let longitude = Double(column) - 180 + (i < 1000 ? Double(corner % 2) : unit())
            let x = PointIndex.unitVector(latitude: latitude, longitude: longitude)
            let cosine = x.0 * c.x + x.1 * c.y + x.2 * c.z
            XCTAssertGreaterThanOrEqual(cosine, cos(radius), "tile \(row), \(column): \(latitude), \(longitude)")
        }
    }

    /// The default database's localities: the batch's search for the nearest place beyond the cells' reach
    /// answers as the full search at 20,000 points over the whole world (most of them at sea).
    func testDefaultDatabaseAgreesWithTheFullSearch() throws {
        guard let level = TestPlaces.geocoder.lookup.pointLevel(.locality), case .tree(let tree) = level.index else {
            return XCTFail("no locality tree")
        }
        var generator = SplitMix64(seed: 37)
        func unit() -> Double { Double(generator.next() % 1_000_000) / 1_000_000 }
        var points = (0..<20_000).map { _ in Coordinate(latitude: unit() * 180 - 90, longitude: unit() * 360 - 180) }
        points += [
            Coordinate(latitude: 90, longitude: 0), Coordinate(latitude: -90, longitude: 180), Coordinate(latitude: 0, longitude: -180),
            Coordinate(latitude: -16.5, longitude: 180), Coordinate(latitude: 30, longitude: -140),
        ]
        var proven = 0
        var listed = 0
        for pass in 0..<3 {
            for point in points {
                let query = PointIndex.Query(point)
                XCTAssertEqual(tree.nearestAnywhere(to: query, at: point)?.id, tree.nearest(to: query)?.id, "\(point)")
                let tile = TileNearestHints.tile(of: point).number
                if pass == 2, tree.tileHints.provenNearest(ofTile: tile) != nil { proven += 1 }
                if pass == 2, tree.tileHints.listedCandidates(ofTile: tile) != nil { listed += 1 }
            }
        }
        XCTAssertGreaterThan(proven, 5000)
        XCTAssertGreaterThan(listed, 100)
    }
}
