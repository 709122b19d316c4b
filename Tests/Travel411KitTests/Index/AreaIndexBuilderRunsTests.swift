import XCTest

@testable import Travel411Core
@testable import Travel411OSM
@testable import Travel411Store
@testable import Travel411StoreWriters

/// `AreaIndexBuilder` keeps its segments in sort runs on disk once they outgrow their buffer: the tiles must be
/// the same bytes whether the segments stayed in memory or went through many runs, and the runs must be gone.
final class AreaIndexBuilderRunsTests: XCTestCase {
    func testTilesAreTheSameWhenTheSegmentsGoThroughRuns() throws {
        for read in [OSMFixtures.liechtensteinRead, OSMFixtures.helsinkiRead] {
            // The boundaries, and the outlines of buildings and areas with an address or a POI: Helsinki's boundaries
            // all miss members.
            let areas = try read.get().features.map { $0.kind == .adminBoundary ? $0.shape.rings : $0.outline }.filter { !$0.isEmpty }
            try TemporaryFolder.with { folder in
                var inMemory = AreaIndexBuilder(runPrefix: folder.path + "/memory-")
                // 1,024 segments a run (the sorter's least): Liechtenstein's boundaries make tens of runs.
                var throughRuns = AreaIndexBuilder(runPrefix: folder.path + "/runs-", bufferBytes: 1)
                for (feature, rings) in areas.enumerated() {
                    inMemory.add(feature: feature, rings: rings)
                    throughRuns.add(feature: feature, rings: rings)
                }
                let expected = try inMemory.build(), actual = try throughRuns.build()
                XCTAssertEqual(actual.grid, expected.grid)
                XCTAssertEqual(actual.tiles.map(\.index), expected.tiles.map(\.index))
                XCTAssertEqual(actual.tiles.map(\.blob), expected.tiles.map(\.blob))
                XCTAssertGreaterThan(expected.tiles.count, 0)
                XCTAssertEqual(try folder.contents(), [], "the runs are unlinked as soon as they are made")
            }
        }
    }

    func testStreamedTilesComeInOrderAndMatchTheIndex() throws {
        let rings = try OSMFixtures.liechtensteinRead.get().features.filter { $0.kind == .adminBoundary }.map(\.shape.rings)
        var builder = AreaIndexBuilder(bufferBytes: 1)
        var again = AreaIndexBuilder()
        for (feature, featureRings) in rings.enumerated() {
            builder.add(feature: feature, rings: featureRings)
            again.add(feature: feature, rings: featureRings)
        }
        var streamed: [(tile: Int, reference: UInt32, blob: [UInt8]?)] = []
        try builder.build { streamed.append(($0, $1, $2)) }
        XCTAssertEqual(streamed.map(\.tile), streamed.map(\.tile).sorted())
        let output = try again.build()
        XCTAssertEqual(streamed.map(\.reference), streamed.map { output.grid[$0.tile] })
        XCTAssertEqual(streamed.compactMap(\.blob), output.tiles.map(\.blob))
        let index = try AreaIndex(built: output)
        // Vaduz's town hall lies in its municipality, which the index answers.
        XCTAssertNotNil(index.featureIndex(longitude: 9.5215, latitude: 47.141))
    }
}
