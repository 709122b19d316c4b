import Foundation
import Synchronization
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Shapefile
@testable import Travel411Store

/// The streets' tiles answer exactly as a search over every segment does, on real roads, however the
/// import's sort cut its runs; the answers are what `where` prints as thoroughfare.
struct StreetTilesTests {
    /// Rutland's roads (Geofabrik, OpenStreetMap): 6,665 lines across 0.45° × 0.24°, so many tiles.
    static let roadsPath =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data/thoroughfares/rutland_gis_osm_roads_free_1.shp").path

    struct Built {
        let tiles: StreetTiles
        let directory: BlobStorage
        let lines: [(id: UInt32, points: [Point2D])]
    }

    static func build(bufferBytes: Int, grid: TileGrid = .streets) throws -> Built {
        let reader = try ShapefileReader(path: roadsPath)
        let runs = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-streets-\(UUID().uuidString)-")
        let builder = StreetTilesBuilder(runPrefix: runs.path, grid: grid, bufferBytes: bufferBytes)
        var lines: [(id: UInt32, points: [Point2D])] = []
        for record in 0..<reader.recordCount {
            guard case .shape(let shape) = try reader.record(at: record) else { continue }
            try builder.add(line: UInt32(record), lines: shape.lines)
            for line in shape.lines { lines.append((UInt32(record), line)) }
        }
        var pages: [BlobStorage] = []
        let directory = try builder.finish { number, blob in
            #expect(number == pages.count)
            pages.append(BlobStorage(bytes: blob))
        }
        #expect(!FileManager.default.fileExists(atPath: runs.path + "0"))
        let loaded = pages, storage = BlobStorage(bytes: directory)
        return Built(tiles: try StreetTiles(directory: storage, grid: grid) { loaded[$0] }, directory: storage, lines: lines)
    }

    /// The nearest line by brute force, in the same flat projection; ties to the lower id.
    static func bruteForce(_ built: Built, _ point: Coordinate, radius: Double) -> (id: UInt32, metres: Double)? {
        let metresPerDegreeY = GreatCircle.earthRadiusMetres * .pi / 180
        let metresPerDegreeX = metresPerDegreeY * max(cos(point.latitude * .pi / 180), 1e-6)
        var search = NearestSearch(
            x: point.longitude, y: point.latitude, metresPerDegreeX: metresPerDegreeX, metresPerDegreeY: metresPerDegreeY,
            bestSquared: radius * radius)
        for line in built.lines where line.points.count >= 2 {
            for i in 0..<(line.points.count - 1) {
                let a = line.points[i], b = line.points[i + 1]
                search.consider(ax: a.x, ay: a.y, bx: b.x, by: b.y, id: line.id)
            }
        }
        return search.best.map { ($0.id, $0.distance) }
    }

    @Test(arguments: [1, 32 << 20])
    func answersAsASearchOverEverySegment(bufferBytes: Int) throws {
        let built = try Self.build(bufferBytes: bufferBytes)
        var state: UInt64 = 2026
        var found = 0
        for _ in 0..<3_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let latitude = 52.52 + Double(state >> 40) / Double(1 << 24) * 0.25
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let longitude = -0.85 + Double(state >> 40) / Double(1 << 24) * 0.46
            let point = Coordinate(latitude: latitude, longitude: longitude)
            let expected = Self.bruteForce(built, point, radius: 100)
            let answer = built.tiles.nearest(to: point, radiusMetres: 100)
            #expect(answer?.id == expected?.id, "at \(latitude), \(longitude)")
            if answer != nil { found += 1 }
        }
        // Rutland is rural: about a third of random points lie within 100 m of a road.
        #expect(found > 500)
    }

    /// Nominatim's metric (degrees, both axes alike) with a filter: the same answer as a search over every
    /// segment, and the nearest point on the line found.
    @Test(arguments: [TileGrid.streets, .objects])
    func answersInDegreesAsASearchOverEverySegment(grid: TileGrid) throws {
        let built = try Self.build(bufferBytes: 32 << 20, grid: grid)
        let even: (UInt32) -> Bool = { $0 % 2 == 0 }
        var random = SplitMix64(seed: 18)
        for _ in 0..<2_000 {
            let latitude = Double.random(in: 52.52..<52.77, using: &random)
            let longitude = Double.random(in: -0.85 ..< -0.39, using: &random)
            var search = NearestSearch(x: longitude, y: latitude, metresPerDegreeX: 1, metresPerDegreeY: 1, bestSquared: 0.007 * 0.007)
            for line in built.lines where line.points.count >= 2 {
                for i in 0..<(line.points.count - 1) {
                    let a = line.points[i], b = line.points[i + 1]
                    search.consider(ax: a.x, ay: a.y, bx: b.x, by: b.y, id: line.id, accept: even)
                }
            }
            let point = Coordinate(latitude: latitude, longitude: longitude)
            let answer = built.tiles.nearestInDegrees(to: point, radiusDegrees: 0.007, accept: even)
            #expect(answer?.id == search.best?.id, "at \(latitude), \(longitude)")
            if let answer, let best = search.best {
                #expect(abs(answer.closest.longitude - (longitude + best.closestX)) < 1e-12)
                #expect(abs(answer.degrees - best.distance) < 1e-12)
            }
        }
    }

    /// A search confined to one line (`onlyLine`: an object's parent street) finds that line's nearest point,
    /// as a search over its segments alone does, and nothing for a line out of reach.
    @Test func aSearchConfinedToOneLineFindsItsNearestPoint() throws {
        let built = try Self.build(bufferBytes: 32 << 20)
        var random = SplitMix64(seed: 7)
        var found = 0
        for _ in 0..<500 {
            let latitude = Double.random(in: 52.52..<52.77, using: &random)
            let longitude = Double.random(in: -0.85 ..< -0.39, using: &random)
            let line = UInt32.random(in: 0..<6_665, using: &random)
            var search = NearestSearch(x: longitude, y: latitude, metresPerDegreeX: 1, metresPerDegreeY: 1, bestSquared: 0.1 * 0.1)
            for part in built.lines where part.id == line && part.points.count >= 2 {
                for i in 0..<(part.points.count - 1) {
                    let a = part.points[i], b = part.points[i + 1]
                    search.consider(ax: a.x, ay: a.y, bx: b.x, by: b.y, id: part.id)
                }
            }
            let answer = built.tiles.nearestInDegrees(
                to: Coordinate(latitude: latitude, longitude: longitude), radiusDegrees: 0.1, onlyLine: line)
            #expect(answer?.id == search.best?.id, "line \(line) at \(latitude), \(longitude)")
            if let answer, let best = search.best {
                #expect(abs(answer.degrees - best.distance) < 1e-12)
                found += 1
            }
            // Reading only the cells of the line's extent finds the same point.
            let points = built.lines.filter { $0.id == line }.flatMap(\.points)
            if let first = points.first {
                let extent = points.reduce(BoundingBox(minX: first.x, minY: first.y, maxX: first.x, maxY: first.y)) { box, p in
                    BoundingBox(minX: min(box.minX, p.x), minY: min(box.minY, p.y), maxX: max(box.maxX, p.x), maxY: max(box.maxY, p.y))
                }
                let clipped = built.tiles.nearestInDegrees(
                    to: Coordinate(latitude: latitude, longitude: longitude), radiusDegrees: 0.1, onlyLine: line, clip: extent)
                #expect(clipped?.id == answer?.id && clipped?.degrees == answer?.degrees)
            }
        }
        #expect(found > 100)
    }

    @Test func aPointFarFromEveryStreetReadsNoPage() throws {
        let reads = Counter()
        let built = try Self.build(bufferBytes: 32 << 20)
        let tiles = try StreetTiles(directory: built.directory) { _ in
            reads.increment()
            return nil
        }
        #expect(tiles.nearest(to: Coordinate(latitude: -33.86, longitude: 151.2), radiusMetres: 100) == nil)
        #expect(reads.value == 0)
    }

    @Test func aDamagedPageIsNoAnswerNotACrash() throws {
        let built = try Self.build(bufferBytes: 32 << 20)
        let tiles = try StreetTiles(directory: built.directory) { _ in BlobStorage(bytes: [1, 0, 0, 0, 9, 9]) }
        #expect(tiles.nearest(to: Coordinate(latitude: 52.5935, longitude: -0.6460), radiusMetres: 100) == nil)
    }

    @Test func aDirectoryWhoseSizeDoesNotMatchIsRefused() throws {
        #expect(throws: IndexFormatError.self) {
            _ = try StreetTiles(directory: BlobStorage(bytes: [UInt8](repeating: 0, count: 39))) { _ in nil }
        }
        var header = [UInt8](repeating: 0, count: 40)
        header[0] = 5  // five tiles claimed, none present
        #expect(throws: IndexFormatError.self) { _ = try StreetTiles(directory: BlobStorage(bytes: header)) { _ in nil } }
    }
}

/// The outlines holding a point, by a ray in the tiles, as an even-odd test over each whole outline finds them:
/// the buildings and areas of the Helsinki extract (those narrower than the ray's reach).
struct OutlinesHoldingTests {
    @Test(arguments: [TileGrid.streets, .objects])
    func theRayFindsTheOutlinesAWholeTestFinds(grid: TileGrid) throws {
        let (features, _) = try OSMFixtures.helsinkiRead.get()
        let outlines = features.map(\.outline).filter { !$0.isEmpty }
        #expect(outlines.count > 100)
        let runs = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-outlines-\(UUID().uuidString)-")
        let builder = StreetTilesBuilder(runPrefix: runs.path, grid: grid)
        for (id, outline) in outlines.enumerated() { try builder.add(line: UInt32(id), lines: outline) }
        var pages: [BlobStorage] = []
        let directory = try builder.finish { _, blob in pages.append(BlobStorage(bytes: blob)) }
        let loaded = pages
        let tiles = try StreetTiles(directory: BlobStorage(bytes: directory), grid: grid) { loaded[$0] }
        let reach = 0.007
        var random = SplitMix64(seed: 60)
        var inside = 0
        for _ in 0..<3_000 {
            let latitude = Double.random(in: 60.1642..<60.1791, using: &random)
            let longitude = Double.random(in: 24.9352..<24.9534, using: &random)
            let expected = outlines.indices.filter { id in
                let maxX = outlines[id].flatMap { $0 }.map(\.x).max() ?? 0
                return maxX <= longitude + reach && Shape.ringsContain(outlines[id], x: longitude, y: latitude)
            }
            let found = tiles.outlinesHolding(Coordinate(latitude: latitude, longitude: longitude), reachDegrees: reach).filter { id in
                (outlines[Int(id)].flatMap { $0 }.map(\.x).max() ?? 0) <= longitude + reach
            }
            #expect(found.map(Int.init) == expected, "at \(latitude), \(longitude)")
            inside += expected.isEmpty ? 0 : 1
        }
        // Central Helsinki: a quarter of random points lie in a building or an area (751 of 3,000).
        #expect(inside > 500)
    }
}

/// A count shared with a page loader, which may run on any thread.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// A database whose street pages were damaged after the import answers without them and says so,
/// naming the file, rather than crashing or answering from garbage.
struct DamagedStreetTilesTests {
    @Test func aDamagedTileIsReportedWithTheFileAndWhatToDo() throws {
        let run = try DamagedPages.run(
            importing: URL(fileURLWithPath: StreetTilesTests.roadsPath), zeroing: .streetTiles, level: 0,
            at: Coordinate(latitude: 52.5935, longitude: -0.6460), field: \.thoroughfare)
        #expect(run.intact == "Glaston Road")
        #expect(run.damaged == nil)
        // Found damaged as its stored page is inflated (`PageCompression`), before the tile reads it.
        #expect(run.report?.hasPrefix("\(run.path): the lookup index is damaged (page size of street tile") == true)
        #expect(run.report?.hasSuffix("rebuild the database with `travel411 import`") == true)
    }
}
