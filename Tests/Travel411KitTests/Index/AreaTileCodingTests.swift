import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411OSM
@testable import Travel411Store
@testable import Travel411StoreWriters

/// The stored form of an extract's area tiles (`AreaTileCoding`, behind `PageCompression`): every tile comes back
/// byte for byte, whether its vertices are OpenStreetMap's (1e-7° steps) or not, and a damaged one is refused.
struct AreaTileCodingTests {
    /// The tiles of Liechtenstein's boundaries and of Helsinki's outlines (buildings and areas with an address or a
    /// POI), as the import builds them.
    static func tiles(movedOffTheGrid: Bool = false) throws -> [[UInt8]] {
        var blobs: [[UInt8]] = []
        for read in [OSMFixtures.liechtensteinRead, OSMFixtures.helsinkiRead] {
            let areas = try read.get().features.map { $0.kind == .adminBoundary ? $0.shape.rings : $0.outline }.filter { !$0.isEmpty }
            var builder = AreaIndexBuilder()
            for (feature, rings) in areas.enumerated() {
                // A third of a step moves every vertex off OpenStreetMap's grid (as a shapefile's are).
                let moved = movedOffTheGrid ? rings.map { $0.map { Point2D(x: $0.x + 3.3e-8, y: $0.y) } } : rings
                builder.add(feature: feature, rings: moved)
            }
            blobs += try builder.build().tiles.map(\.blob)
        }
        return blobs
    }

    static func read(_ blob: [UInt8]) throws -> [UInt8] {
        let tile = try blob.withUnsafeBytes { try PageCompression.page($0) }
        return Array(UnsafeRawBufferPointer(start: tile.base, count: tile.count))
    }

    @Test(arguments: [false, true]) func everyTileComesBackAsItWas(movedOffTheGrid: Bool) throws {
        let tiles = try Self.tiles(movedOffTheGrid: movedOffTheGrid)
        // Each extract lies in one 1° tile: a big tile each, of many leaves.
        #expect(tiles.count == 2)
        var (expanded, deflated, coded) = (0, 0, 0)
        for tile in tiles {
            let stored = PageCompression.compressed(areaTile: tile)
            #expect(try Self.read(stored) == tile)
            #expect(try stored.withUnsafeBytes { try PageCompression.pageSize($0) } == tile.count)
            expanded += tile.count
            deflated += PageCompression.compressed(tile).count
            coded += stored.count
        }
        // On the grid, the coded tiles deflate to well under the doubles deflated; off it, they cost a few bytes more.
        if movedOffTheGrid { #expect(coded < deflated + deflated / 10) } else { #expect(coded * 3 < deflated * 2) }
        #expect(deflated < expanded)
    }

    /// A batch's start-up decodes each tile straight into its level's arena, and reads pages into a `PageArena`:
    /// the same bytes as a tile read alone, each at a 16-byte boundary.
    @Test func tilesComeBackTheSameInTheArenas() throws {
        let tiles = try Self.tiles()
        let arena = TileArena(capacity: 1)
        let pages = PageArena()
        var kept: [BlobStorage] = []
        for (number, tile) in tiles.enumerated() {
            let stored = PageCompression.compressed(areaTile: tile)
            try stored.withUnsafeBytes { blob in
                try PageCompression.page(blob) { try arena.append(tile: number, count: $0, fill: $1) }
                kept.append(try PageCompression.page(blob, in: pages))
            }
        }
        for (number, tile) in tiles.enumerated() {
            let offset = try #require(arena.offsets.first { $0.tile == number }?.offset)
            #expect(Array(UnsafeRawBufferPointer(start: arena.base + offset, count: tile.count)) == tile)
            #expect(Array(UnsafeRawBufferPointer(start: kept[number].base, count: kept[number].count)) == tile)
            #expect(Int(bitPattern: kept[number].base) % 16 == 0)
        }
    }

    @Test func damagedTilesAreRefused() throws {
        let tile = try #require(try Self.tiles().max { $0.count < $1.count })
        let stored = PageCompression.compressed(areaTile: tile)
        var smallerSize = stored
        smallerSize[1] &-= 1
        var nested = stored
        nested[PageCompression.headerSize] = 2
        var flipped = stored
        flipped[stored.count - 3] ^= 0xff
        let notATile = PageCompression.compressed(areaTile: [2, 0, 0, 0])
        #expect(notATile[0] != 2, "what is not laid out as a tile is stored as a plain page")
        for blob in [smallerSize, nested, flipped, Array(stored.prefix(stored.count - 4)), [2, 9, 0, 0, 0]] {
            #expect(throws: IndexFormatError.self) { try Self.read(blob) }
        }
    }
}
