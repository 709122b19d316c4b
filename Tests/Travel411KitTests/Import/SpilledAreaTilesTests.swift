import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Shapefile
@testable import Travel411Store
@testable import Travel411StoreWriters

/// An area level read back by tile from its temporary file answers as the index built whole in memory, whatever
/// the budget of tiles held (Natural Earth's countries, as the import's country lookups have them).
@Suite struct SpilledAreaTilesTests {
    private func countries() throws -> AreaIndexBuilder {
        let url = try #require(Importer.embedded("countries/ne_10m_admin_0_countries.shp"))
        let reader = try ShapefileReader(path: url.path)
        var builder = AreaIndexBuilder()
        for record in 0..<reader.recordCount {
            if case .shape(let shape) = try reader.record(at: record) { builder.add(feature: record, rings: shape.rings) }
        }
        return builder
    }

    @Test func answersAsTheIndexBuiltWhole() throws {
        let whole = try AreaIndex(built: countries().build())
        try TemporaryFolder.with { folder in
            var stored: [Int: UInt32] = [:]
            let tiles = try SpilledAreaTiles.build(try countries(), path: folder.path + "/tiles") { tile, reference, _ in
                stored[tile] = reference
            }
            #expect(stored.count > 1_000, "every tile is handed to the store as it is built")
            // A budget of one byte lets every tile go before the next is read; the default keeps them.
            for lookup in [tiles.lookup(budgetBytes: 1), tiles.lookup()] {
                var points = 0, inCountries = 0, differing = 0
                for latitude in stride(from: 35.0, through: 71.0, by: 0.37) {
                    for longitude in stride(from: -25.0, through: 45.0, by: 0.41) {
                        let expected = whole.featureIndex(longitude: longitude, latitude: latitude)
                        points += 1
                        if expected != nil { inCountries += 1 }
                        if lookup.featureIndex(longitude: longitude, latitude: latitude) != expected { differing += 1 }
                    }
                }
                #expect(differing == 0)
                #expect(inCountries > points / 3, "Europe's land, not only sea")
            }
            try tiles.checkReads()
            #expect(try folder.contents().isEmpty, "the file is unlinked as soon as it is made")
        }
    }
}
