import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Shapefile
@testable import Travel411Store

/// The stored form of the street tiles (`StreetTileCoding`): every page decodes to the very bytes the builder laid
/// out, whether its points are OpenStreetMap's 1e-7° positions or doubles of any precision, so no answer moves;
/// and a damaged page is refused or decodes to something `StreetTile` checks, never read past its end.
struct StreetTileCodingTests {
    /// Each tile's expanded page as the builder lays it out, for `lines` given as (id, rings).
    static func expandedPages(_ lines: [(UInt32, [[Point2D]])], grid: TileGrid) throws -> [[UInt8]] {
        let runs = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-coding-\(UUID().uuidString)-")
        let builder = StreetTilesBuilder(runPrefix: runs.path, grid: grid)
        var records: [StreetTilesBuilder.Record] = []
        var sequence: UInt64 = 0
        for (id, rings) in lines {
            for ring in rings where ring.count >= 2 {
                for i in 0..<(ring.count - 1) {
                    let a = ring[i], b = ring[i + 1]
                    let tile = UInt64(grid.tileKey(cellColumn: grid.cellColumn(a.x), cellRow: grid.cellRow(a.y)))
                    records.append(StreetTilesBuilder.Record(key: tile << 32 | sequence, line: id, ax: a.x, ay: a.y, bx: b.x, by: b.y))
                    sequence += 1
                }
            }
        }
        // One page per tile of the segments' first points: enough to lay out every kind of run.
        let byTile = Dictionary(grouping: records, by: \.tile)
        return byTile.keys.sorted().map { StreetTilesBuilder.page(byTile[$0] ?? [], grid: builder.grid) }
    }

    static func decoded(_ stored: [UInt8]) throws -> [UInt8] {
        let page = try stored.withUnsafeBytes { try StreetTileCoding.decode($0) }
        return Array(UnsafeRawBufferPointer(start: page.base, count: page.count))
    }

    static func helsinkiOutlines() throws -> [(UInt32, [[Point2D]])] {
        let (features, _) = try OSMFixtures.helsinkiRead.get()
        return features.map(\.outline).filter { !$0.isEmpty }.enumerated().map { (UInt32($0), $1) }
    }

    static func rutlandRoads() throws -> [(UInt32, [[Point2D]])] {
        let reader = try ShapefileReader(path: StreetTilesTests.roadsPath)
        return try (0..<reader.recordCount).compactMap { record in
            guard case .shape(let shape) = try reader.record(at: record) else { return nil }
            return (UInt32(record), shape.lines)
        }
    }

    /// Helsinki's outlines (OSM positions, on the 1e-7° grid, and single points: a POI stands on one) and Rutland's
    /// roads (a shapefile's doubles, mostly off that grid): each page comes back byte for byte.
    @Test func everyPageDecodesToTheBytesItWasBuiltAs() throws {
        for (lines, grid) in [(try Self.helsinkiOutlines(), TileGrid.objects), (try Self.rutlandRoads(), .streets)] {
            let pages = try Self.expandedPages(lines, grid: grid)
            #expect(!pages.isEmpty)
            for page in pages {
                #expect(try Self.decoded(StreetTileCoding.encode(page)) == page)
            }
        }
    }

    /// Points on the 1e-7° grid take a few bytes each instead of 16; points computed off it keep their doubles.
    @Test func pointsOnTheGridAreSmallAndOthersKeepTheirDoubles() throws {
        let onGrid = try Self.expandedPages(try Self.helsinkiOutlines(), grid: .objects)
        let onGridSize = onGrid.map { StreetTileCoding.encode($0).count }.reduce(0, +)
        #expect(onGridSize * 3 < onGrid.map(\.count).reduce(0, +))
        let computed: [(UInt32, [[Point2D]])] = [
            (0, [[Point2D(x: 24.93 + 1e-9, y: 60.17 + 3e-12), Point2D(x: -0.0, y: 60.170_000_1)]]),
            (7, [[Point2D(x: 24.9300001, y: 60.17), Point2D(x: 24.9300001, y: 60.17)]]),
            (9, [[Point2D(x: 24.94 + 0x1p-40, y: 60.18), Point2D(x: 24.94, y: 60.18)]]),
        ]
        for page in try Self.expandedPages(computed, grid: .streets) {
            #expect(try Self.decoded(StreetTileCoding.encode(page)) == page)
        }
    }

    /// Every cut and many flipped bytes of real pages: refused, or a page `StreetTile` reads or refuses, never a crash.
    @Test func damagedPagesAreRefusedOrChecked() throws {
        let pages = try Self.expandedPages(try Self.helsinkiOutlines(), grid: .objects).prefix(3)
        for page in pages {
            let stored = StreetTileCoding.encode(page)
            for length in 0..<stored.count {
                #expect(throws: IndexFormatError.self) { try Self.decoded(Array(stored.prefix(length))) }
            }
            FlippedBytes.forEach(of: stored) { damaged in
                guard let expanded = try? damaged.withUnsafeBytes({ try StreetTileCoding.decode($0) }) else { return }
                _ = try? StreetTile(storage: expanded, cellsPerTile: TileGrid.objects.cellsPerTile)
            }
        }
        let wildCounts: [[UInt8]] = [
            [0xff, 0xff, 0xff, 0xff, 0x0f, 1, 1, 1],
            [1, 1, 1, 1, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01],
            [0, 1, 0, 0, 0xff], [0, 2, 0, 0, 1, 1],
        ]
        for blob in wildCounts {
            #expect(throws: IndexFormatError.self) { try Self.decoded(blob) }
        }
    }
}
