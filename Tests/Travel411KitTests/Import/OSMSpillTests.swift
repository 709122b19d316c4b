import Foundation
import Testing
import Travel411OSMReader

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store

/// What an extract's import keeps on disk until the extract is read (`OSMSpillFile`, `OSMPostcodeCarriers`,
/// `OSMParentStreets`): it
/// comes back exactly as it went in, in bounded memory, and nothing of it is left beside the database, whether
/// the import succeeds or fails.
@Suite struct OSMSpillTests {
    private static let liechtenstein = OSMExtractImportTests.liechtenstein

    private static func object(_ index: Int) -> PendingObject {
        // Every tenth object stands on a building of two rings; the fiftieth on an outline of 5,000 points,
        // larger than the file's blocks.
        let size = index % 50 == 0 ? 5_000 : index % 10 == 0 ? 5 : 0
        let ring = (0..<size).map { Point2D(x: 9.5 + Double($0) * 1e-7, y: 47.1 - Double(index) * 1e-9) }
        return PendingObject(
            fields: [index % 3 == 0 ? nil : "Haus \(index)", String(index), "Städtle", "", nil, "building=yes", nil, "9.5 47.1", nil],
            point: Point2D(x: 9.5 + Double(index) * 1e-7, y: -47.1), outline: size == 0 ? [] : [ring, Array(ring.prefix(3))])
    }

    @Test func recordsComeBackAsWrittenAcrossBlocks() throws {
        try TemporaryFolder.with { folder in
            let file = try OSMSpillFile(path: folder.url.appendingPathComponent("objects").path, blockBytes: 4096)
            for index in 0..<1_000 { try file.append { $0.write(Self.object(index)) } }
            #expect(file.count == 1_000)
            #expect(try folder.contents().isEmpty)
            var read: [PendingObject] = []
            try file.drain { read.append(try $0.pendingObject()) }
            #expect(read.count == 1_000)
            for (index, object) in read.enumerated() {
                let expected = Self.object(index)
                #expect(object.fields == expected.fields && object.point == expected.point && object.outline == expected.outline)
            }
            #expect(folder.openFiles().isEmpty)
            #expect(try folder.contents().isEmpty)
        }
    }

    /// Tiles built while another thread holds the connection (`DeferredAreaTiles`): every level, tile, reference and
    /// blob (none, empty, larger than a block) back in the order added, and no file left.
    @Test func deferredAreaTilesComeBackInTheOrderBuilt() throws {
        try TemporaryFolder.with { folder in
            let tiles = try DeferredAreaTiles(path: folder.url.appendingPathComponent("tiles").path)
            let built: [(PlacesSchema.AreaLevel, Int, UInt32, [UInt8]?)] = (0..<300).map { i in
                let size = i == 150 ? 3 << 20 : i
                let blob: [UInt8]? = i % 7 == 0 ? nil : i % 11 == 0 ? [] : (0..<size).map { UInt8(truncatingIfNeeded: $0 * 31 + i) }
                return ([.admin, .city, .suburb][i % 3], i * 97 % 64_800, UInt32(i * 1_000_003 % 65_536), blob)
            }
            for (level, tile, reference, blob) in built { try tiles.add(level, tile: tile, reference: reference, blob: blob) }
            #expect(try folder.contents().isEmpty)
            var read: [(PlacesSchema.AreaLevel, Int, UInt32, [UInt8]?)] = []
            try tiles.drain { read.append(($0, $1, $2, $3)) }
            #expect(read.count == built.count)
            for (a, b) in zip(read, built) { #expect(a.0 == b.0 && a.1 == b.1 && a.2 == b.2 && a.3 == b.3) }
            #expect(folder.openFiles().isEmpty)
        }
    }

    @Test func aRecordReadPastItsEndIsAnErrorNamingTheFile() throws {
        try TemporaryFolder.with { folder in
            let path = folder.url.appendingPathComponent("addresses").path
            let file = try OSMSpillFile(path: path)
            try file.append { $0.write("12") }
            let error = #expect(throws: ImportError.self) { try file.drain { _ = try $0.pendingAddress() } }
            #expect(error?.message.hasPrefix(path + ": ") == true)
            #expect(folder.openFiles().isEmpty)
        }
    }

    /// Each postcode carrier of the Helsinki extract three times, in sort runs of 1,024: the postcode
    /// points are the means of the distinct points, as computed in memory.
    @Test func postcodePointsAreTheMeansOfTheDistinctCarriersAcrossRuns() throws {
        var carried: [(postcode: String, coordinate: Coordinate)] = []
        try OSMExtractReader(path: OSMExtractImportTests.helsinki.path).read { feature in
            guard let postcode = feature.address?.postcode ?? feature.postcode else { return }
            let point = feature.representativePoint
            carried.append((postcode, Coordinate(latitude: point.y, longitude: point.x)))
        }
        #expect(carried.count * 3 > 2 * 1_024)
        try TemporaryFolder.with { folder in
            var carriers = OSMPostcodeCarriers(runPrefix: folder.url.appendingPathComponent("postcode-").path, bufferBytes: 1)
            for _ in 0..<3 { for (postcode, coordinate) in carried { try carriers.add(postcode, at: coordinate) } }
            let postcodes = OSMPostcodes(counts: carriers.counts)
            #expect(carriers.counts == Dictionary(carried.map { ($0.postcode, 3) }, uniquingKeysWith: +))

            var distinct: [String: Set<Coordinate>] = [:]
            for (written, coordinate) in carried {
                if let postcode = postcodes.normalised(written) { distinct[postcode, default: []].insert(coordinate) }
            }
            let expected = distinct.sorted { $0.key < $1.key }.map { ($0.key, OSMPostcodeCarriers.meanOfDistinct(Array($0.value))) }
            let centroids = try carriers.centroids(postcodes)
            #expect(centroids.map(\.code) == expected.map(\.0))
            #expect(centroids.map(\.coordinate) == expected.map(\.1))
            #expect(centroids.count == 10)
            #expect(folder.openFiles().isEmpty)
            #expect(try folder.contents().isEmpty)
        }
    }

    /// The mean does not depend on the order the carriers come in, to the last bit.
    @Test func theMeanOfDistinctPointsIsTheSameInAnyOrder() {
        let points = (0..<200).map { Coordinate(latitude: 47.1 + Double($0 % 37) * 1.1e-5, longitude: 9.5 + Double($0 % 41) * 1.3e-5) }
        var generator = SplitMix64(seed: 411)
        let mean = OSMPostcodeCarriers.meanOfDistinct(points)
        for _ in 0..<10 { #expect(OSMPostcodeCarriers.meanOfDistinct(points.shuffled(using: &generator)) == mean) }
    }

    /// Every address of an extract against its named streets, in sort runs of 1,024 entries (two at least): the parent streets
    /// the sweep finds are those of a search of every street by its name and its name's variants (`NominatimNameVariants`).
    @Test(arguments: [OSMExtractImportTests.liechtenstein, OSMExtractImportTests.helsinki])
    func parentStreetsAreThoseOfASearchOfEveryStreet(extract: URL) throws {
        var streets: [(id: UInt32, keys: Set<[UInt8]>, midpoint: Point2D, name: String)] = []
        var objects: [(street: String, point: Point2D)] = []
        try OSMExtractReader(path: extract.path).read { feature in
            if feature.kind == .street, let name = feature.name, let midpoint = OSMStreetPostcodes.midpoint(of: feature.shape.lines) {
                let spellings = NominatimNameVariants.embedded?.variants(of: name) ?? [name]
                streets.append((UInt32(streets.count), Set(spellings.map(OSMParentStreets.matchKey)), midpoint, name))
            }
            if feature.kind == .address, let street = feature.address?.street ?? feature.address?.place {
                objects.append((street, feature.representativePoint))
            }
        }
        var expected: [UInt32: UInt32] = [:]
        for (index, object) in objects.enumerated() {
            let key = OSMParentStreets.matchKey(object.street)
            var best: (id: UInt32, squared: Double)?
            for street in streets where street.keys.contains(key) && !key.isEmpty {
                let dx = street.midpoint.x - object.point.x, dy = street.midpoint.y - object.point.y
                let squared = dx * dx + dy * dy
                guard squared <= OSMParentStreets.reachDegrees * OSMParentStreets.reachDegrees else { continue }
                if best.map({ squared < $0.squared || (squared == $0.squared && street.id < $0.id) }) ?? true {
                    best = (street.id, squared)
                }
            }
            if let best { expected[UInt32(index)] = best.id }
        }
        #expect(streets.count + objects.count > 1_024)
        #expect(expected.count > objects.count / 2)
        try TemporaryFolder.with { folder in
            var parents = OSMParentStreets(runPrefix: folder.url.appendingPathComponent("parent-").path, bufferBytes: 1)
            // As an import does: the address nodes before the street ways.
            for (index, object) in objects.enumerated() { try parents.ask(object: UInt32(index), named: object.street, at: object.point) }
            for street in streets { try parents.add(street: street.id, name: street.name, midpoint: street.midpoint) }
            var found: [(object: UInt32, street: UInt32)] = []
            // The first of an object's candidates is the street whose centre is nearest (`ObjectNearestStreets` then
            // measures the lines of several).
            try parents.answers { object, candidates in
                #expect(!candidates.isEmpty && candidates.count <= OSMParentStreets.maximumCandidates)
                found.append((object, candidates[0]))
            }
            #expect(found.map(\.object) == expected.keys.sorted())
            #expect(Dictionary(uniqueKeysWithValues: found.map { ($0.object, $0.street) }) == expected)
            #expect(folder.openFiles().isEmpty)
            #expect(try folder.contents().isEmpty)
        }
    }

    @Test func anImportLeavesOnlyTheDatabase() throws {
        try TemporaryFolder.with { folder in
            let database = folder.url.appendingPathComponent("li.gpkg").path
            _ = try Importer(options: ImportOptions(paths: [Self.liechtenstein], databasePath: database, extractReader: .libosmium)).run()
            #expect(try folder.contents() == ["li.gpkg"])
            #expect(folder.openFiles().isEmpty)
        }
    }

    /// An extract cut off half-way fails while the mapping's temporary files are open: nothing is left of them.
    @Test func aFailedImportLeavesNothing() throws {
        try TemporaryFolder.with { folder in
            let bytes = try [UInt8](Data(contentsOf: Self.liechtenstein))
            let cut = try folder.write("cut.osm.pbf", Array(bytes.prefix(bytes.count / 2)))
            let database = folder.url.appendingPathComponent("li.gpkg").path
            #expect(throws: (any Error).self) {
                try Importer(options: ImportOptions(paths: [URL(fileURLWithPath: cut)], databasePath: database, extractReader: .libosmium))
                    .run()
            }
            #expect(try folder.contents() == ["cut.osm.pbf"])
            #expect(folder.openFiles().isEmpty)
        }
    }
}
