import Foundation
import Synchronization
import Testing
import Travel411OSM

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Shapefile
@testable import Travel411Store
@testable import Travel411StoreWriters

/// The address and postcode tiles answer exactly as a search over every point does (and as the k-d tree
/// they replaced): the same chord, ties to the lower id, the same filters, whatever the tile, cell or run
/// boundaries, across the antimeridian and at the poles.
struct PointTilesTests {
    static let dataFolder =
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Data")

    struct Built {
        let tiles: PointTiles
        let directory: BlobStorage
        let pages: [BlobStorage]
        let points: [Coordinate]
        let vectors: [(Double, Double, Double)]
    }

    /// Points of a shapefile layer, in record order.
    static func shapefilePoints(_ relativePath: String) throws -> [Coordinate] {
        let reader = try ShapefileReader(path: dataFolder.appendingPathComponent(relativePath).path)
        return try (0..<reader.recordCount).compactMap { record in
            guard case .shape(let shape) = try reader.record(at: record) else { return nil }
            return LookupCollector.firstPoint(shape)
        }
    }

    /// Helsinki's address points (OpenStreetMap), in the order the extract gives them.
    static let helsinkiAddresses = Result {
        try OSMFixtures.helsinkiRead.get().features.filter { $0.kind == .address }.map { feature in
            let point = feature.representativePoint
            return Coordinate(latitude: point.y, longitude: point.x)
        }
    }

    static func build(_ points: [Coordinate], bufferBytes: Int = 32 << 20) throws -> Built {
        let runs = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-points-\(UUID().uuidString)-")
        let builder = PointTilesBuilder(runPrefix: runs.path, bufferBytes: bufferBytes)
        for (id, point) in points.enumerated() { try builder.add(id: UInt32(id), at: point) }
        var pages: [BlobStorage] = []
        let directory = try builder.finish { number, blob in
            #expect(number == pages.count)
            pages.append(BlobStorage(bytes: blob))
        }
        #expect(!FileManager.default.fileExists(atPath: runs.path + "0"))
        let loaded = pages, storage = BlobStorage(bytes: directory)
        return Built(
            tiles: try PointTiles(directory: storage, name: "address") { loaded[$0] }, directory: storage, pages: pages,
            points: points, vectors: points.map { PointIndex.unitVector(latitude: $0.latitude, longitude: $0.longitude) })
    }

    /// The nearest accepted point by brute force: least squared chord within reach, ties to the lower id.
    static func bruteForce(_ built: Built, _ q: PointIndex.Query, maxChord: Double, accept: (UInt32) -> Bool = { _ in true })
        -> UInt32?
    {
        var best: (d: Double, id: UInt32)?
        let reach = maxChord * maxChord
        for (i, p) in built.vectors.enumerated() {
            let dx = q.x - p.0, dy = q.y - p.1, dz = q.z - p.2
            let d = dx * dx + dy * dy + dz * dz
            guard d <= reach, accept(UInt32(i)) else { continue }
            if best.map({ d < $0.d }) ?? true { best = (d, UInt32(i)) }
        }
        return best?.id
    }

    /// Seeded points around a box, and every tenth one exactly on a data point (distance 0).
    static func queries(around points: [Coordinate], count: Int, seed: UInt64) -> [Coordinate] {
        var box = BoundingBox.empty
        for p in points { box.extend(x: p.longitude, y: p.latitude) }
        var state = seed
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { i in
            if i % 10 == 0 { return points[Int(next() * Double(points.count)) % points.count] }
            return Coordinate(
                latitude: box.minY - 0.01 + next() * (box.maxY - box.minY + 0.02),
                longitude: box.minX - 0.01 + next() * (box.maxX - box.minX + 0.02))
        }
    }

    struct Layer: CustomTestStringConvertible, Sendable {
        let name: String
        /// How many searches: the brute force reads every point for each.
        let queries: Int
        let load: @Sendable () throws -> [Coordinate]
        var testDescription: String { name }
    }

    static let layers = [
        Layer(name: "London addresses (OpenStreetMap)", queries: 3_000) { try shapefilePoints("addresses/london_osm_addresses.shp") },
        Layer(name: "London postcodes (Code-Point Open)", queries: 300) { try shapefilePoints("postcodes/codepoint_open_london.shp") },
        Layer(name: "Helsinki addresses (OpenStreetMap extract)", queries: 1_500) { try helsinkiAddresses.get() },
        // As few as a rural country's postcodes (Liechtenstein has 12): read in one pass at the full reach.
        Layer(name: "every 100th Helsinki address", queries: 1_000) {
            let all = try helsinkiAddresses.get()
            return stride(from: 0, to: all.count, by: 100).map { all[$0] }
        },
    ]

    @Test(arguments: layers)
    func answersAsASearchOverEveryPointAndAsTheTree(layer: Layer) throws {
        let points = try layer.load()
        let built = try Self.build(points)
        let tree = try PointIndex(
            built: PointIndexBuilder().build(
                points.enumerated().map { PointIndexBuilder.Place(coordinate: $1, id: UInt32($0)) }, withGroups: false))
        var found = 0
        for (i, point) in Self.queries(around: points, count: layer.queries, seed: 411).enumerated() {
            let q = PointIndex.Query(point)
            // The geocoder's radii: addresses 50 m, postcodes 200 m, a street's reach 500 m, and the postcodes
            // of a database from OpenStreetMap 5 km.
            let metres = [50.0, 200, 500, 5_000][i % 4]
            let chord = PointIndex.chord(metres: metres)
            let expected = Self.bruteForce(built, q, maxChord: chord)
            #expect(built.tiles.nearest(to: q, maxChord: chord)?.id == expected, "at \(point), \(metres) m")
            #expect(tree.nearest(to: q, maxChord: chord)?.id == expected, "the tree at \(point)")
            if expected != nil { found += 1 }
        }
        #expect(found > layer.queries / 5)
    }

    @Test func aFilterSkipsWhatItRejectsAsTheTreeDoes() throws {
        let points = try Self.shapefilePoints("postcodes/codepoint_open_london.shp")
        let built = try Self.build(points)
        let accept: (UInt32) -> Bool = { $0 % 3 == 0 }
        for point in Self.queries(around: points, count: 300, seed: 7) {
            let q = PointIndex.Query(point), chord = PointIndex.chord(metres: 200)
            #expect(
                built.tiles.nearest(to: q, maxChord: chord, filter: ClosureFilter(accept: accept))?.id
                    == Self.bruteForce(built, q, maxChord: chord, accept: accept))
        }
    }

    @Test func theSortsRunsDoNotChangeThePages() throws {
        let points = try Self.shapefilePoints("addresses/london_osm_addresses.shp")
        let whole = try Self.build(points), runs = try Self.build(points, bufferBytes: 1)
        #expect(whole.pages.count == runs.pages.count)
        for (a, b) in zip(whole.pages, runs.pages) { #expect(a.bytes == b.bytes) }
        #expect(whole.directory.bytes == runs.directory.bytes)
    }

    /// Points on a fine grid across a corner where four tiles meet, some of them repeated (the same
    /// coordinate under several ids), searched from points on and around the edges.
    @Test(arguments: [
        Coordinate(latitude: 51.5, longitude: 0.0),  // four tiles, the prime meridian
        Coordinate(latitude: -33.9, longitude: 18.4),
        Coordinate(latitude: 0.0, longitude: 0.0),
    ])
    func tileAndCellEdgesAndTiesGoToTheLowerID(corner: Coordinate) throws {
        var points: [Coordinate] = []
        for row in -20...20 {
            for column in -20...20 {
                let point = Coordinate(
                    latitude: corner.latitude + Double(row) * 0.0005, longitude: corner.longitude + Double(column) * 0.0005)
                points.append(point)
                if (row + column) % 7 == 0 { points.append(point) }
            }
        }
        let built = try Self.build(points)
        for row in -25...25 {
            for column in -25...25 {
                let point = Coordinate(
                    latitude: corner.latitude + Double(row) * 0.00045, longitude: corner.longitude + Double(column) * 0.00045)
                let q = PointIndex.Query(point)
                for metres in [0.0, 20, 50, 80] {
                    let chord = PointIndex.chord(metres: metres)
                    #expect(built.tiles.nearest(to: q, maxChord: chord)?.id == Self.bruteForce(built, q, maxChord: chord))
                }
            }
        }
        // A point listed twice answers with its first id.
        let repeated = try #require(points.indices.first { $0 + 1 < points.count && points[$0] == points[$0 + 1] })
        #expect(built.tiles.nearest(to: PointIndex.Query(points[repeated]), maxChord: 1e-9)?.id == UInt32(repeated))
    }

    /// Points either side of the antimeridian and around both poles, where longitudes wrap and converge.
    @Test func theAntimeridianAndThePoles() throws {
        var points: [Coordinate] = []
        for latitude in stride(from: -16.80, through: -16.70, by: 0.01) {
            for longitude in [179.9995, 179.9999, 180.0, -180.0, -179.9999, -179.999] {
                points.append(Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        for latitude in [89.99, 89.999, 89.9999, 90.0, -89.999, -90.0] {
            for longitude in stride(from: -180.0, through: 180.0, by: 45) {
                points.append(Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        let built = try Self.build(points)
        var queries: [Coordinate] = []
        for latitude in stride(from: -16.81, through: -16.69, by: 0.004) {
            for longitude in [179.998, 179.99995, 180.0, -180.0, -179.99995, -179.998] {
                queries.append(Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        for latitude in [89.98, 89.995, 89.9995, 90.0, -89.9995, -90.0] {
            for longitude in stride(from: -180.0, through: 180.0, by: 30) {
                queries.append(Coordinate(latitude: latitude, longitude: longitude))
            }
        }
        var found = 0
        for point in queries {
            let q = PointIndex.Query(point)
            for metres in [50.0, 200, 2_500] {
                let chord = PointIndex.chord(metres: metres)
                let expected = Self.bruteForce(built, q, maxChord: chord)
                #expect(built.tiles.nearest(to: q, maxChord: chord)?.id == expected, "at \(point), \(metres) m")
                if expected != nil { found += 1 }
            }
        }
        #expect(found > 200)
        // With no radius at all, the nearest point anywhere.
        let london = PointIndex.Query(Coordinate(latitude: 51.5, longitude: -0.1))
        #expect(built.tiles.nearest(to: london)?.id == Self.bruteForce(built, london, maxChord: 2.0001))
    }

    @Test func aPointFarFromEveryPointReadsNoPage() throws {
        let built = try Self.build(try Self.shapefilePoints("addresses/london_osm_addresses.shp"))
        let reads = Counter()
        let tiles = try PointTiles(directory: built.directory, name: "address") { _ in
            reads.increment()
            return nil
        }
        let sydney = PointIndex.Query(Coordinate(latitude: -33.86, longitude: 151.2))
        #expect(tiles.nearest(to: sydney, maxChord: PointIndex.chord(metres: 50)) == nil)
        #expect(reads.value == 0)
    }

    @Test func aMissingOrDamagedPageIsReportedAndAnswersAsEmpty() throws {
        let built = try Self.build(try Self.shapefilePoints("addresses/london_osm_addresses.shp"))
        let q = PointIndex.Query(built.points[0]), chord = PointIndex.chord(metres: 50)
        for page in [nil, BlobStorage(bytes: [1, 0, 0, 0, 9, 9]), BlobStorage(bytes: [UInt8](repeating: 0xff, count: 64))] {
            let damage = DamageLog()
            let tiles = try PointTiles(directory: built.directory, name: "address", onDamage: damage.note) { _ in page }
            #expect(tiles.nearest(to: q, maxChord: chord) == nil)
            let reported = damage.reports
            #expect(reported.count == 1)
            #expect(reported.first?.contains("address tile") == true)
        }
    }

    @Test func aDirectoryWhoseSizeDoesNotMatchIsRefused() throws {
        #expect(throws: IndexFormatError.self) {
            _ = try PointTiles(directory: BlobStorage(bytes: [0, 0, 0]), name: "address") { _ in nil }
        }
        #expect(throws: IndexFormatError.self) {
            _ = try PointTiles(directory: BlobStorage(bytes: [5, 0, 0, 0, 0, 0, 0, 0]), name: "address") { _ in nil }
        }
    }
}

/// A count shared with a page loader, which may run on any thread.
private final class Counter: Sendable {
    private let count = Mutex(0)
    func increment() { count.withLock { $0 += 1 } }
    var value: Int { count.withLock { $0 } }
}

/// What a page loader reported as damaged, from any thread.
private final class DamageLog: Sendable {
    private let log = Mutex<[String]>([])
    @Sendable func note(_ what: String) { log.withLock { $0.append(what) } }
    var reports: [String] { log.withLock { $0 } }
}

extension BlobStorage {
    /// The blob's bytes, to compare two.
    fileprivate var bytes: [UInt8] { Array(UnsafeRawBufferPointer(start: base, count: count)) }
}

/// A database whose address pages were damaged after the import answers without them and says so,
/// naming the file, rather than crashing or answering from garbage.
struct DamagedPointTilesTests {
    @Test func aDamagedAddressTileIsReportedWithTheFileAndWhatToDo() throws {
        let point = try #require(try PointTilesTests.shapefilePoints("addresses/london_osm_addresses.shp").first)
        let run = try DamagedPages.run(
            importing: PointTilesTests.dataFolder.appendingPathComponent("addresses/london_osm_addresses.shp"), zeroing: .pointTiles,
            level: PlacesSchema.PointLevel.address.ordinal, at: point, field: \.subThoroughfare)
        #expect(run.intact != nil)
        #expect(run.damaged == nil)
        // Found damaged as its stored page is inflated (`PageCompression`), before the tile reads it.
        #expect(run.report?.hasPrefix("\(run.path): the lookup index is damaged (page size of address tile") == true)
        #expect(run.report?.hasSuffix("rebuild the database with `travel411 import`") == true)
    }
}

/// A point that cannot be written (the disk full, the folder gone) fails the import with the reason, even
/// from the collector's calls that cannot throw (OpenStreetMap's addresses and postcodes).
struct PointLevelWriterFailureTests {
    @Test func aFailedSpillIsKeptForTheImportToThrow() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-spill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try SQLiteDatabase(path: folder.appendingPathComponent("places.gpkg").path)
        try database.execute(PlacesSchema.createStatements)
        let collector = LookupCollector()
        collector.addresses = try PointLevelWriter(.address, fieldCount: 3, database: database, bufferBytes: 1)
        // The runs and the database's journal go beside it: with its folder gone, neither can be written.
        try FileManager.default.removeItem(at: folder)
        for number in 1...3_000 {
            collector.collectAddress(
                houseNumber: "\(number)", street: "Wells Street", postcode: nil, at: Coordinate(latitude: 51.5, longitude: -0.1))
        }
        // Whichever write met the missing folder first (a page of records, a sort run), naming the file.
        let failure = try #require(collector.pointFailure)
        #expect("\(failure)".contains(folder.path))
    }
}
