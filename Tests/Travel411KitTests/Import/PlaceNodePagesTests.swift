import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store

/// The place nodes' pages (`PlaceNodePages`) as the import stores them for real cuts: read back, a
/// feature gives its node, and the nodes around a point are exactly those of the point's cell and the eight around
/// it, cell by cell, in the order the import found them.
@Suite struct PlaceNodePagesTests {
    static func storedPages(_ level: PlacesSchema.AreaLevel, in database: SQLiteDatabase) throws -> PlaceNodePages {
        func pages(_ kind: PlacesSchema.PageKind, count: Int) throws -> PagedBlobs {
            var blobs = [BlobStorage?](repeating: nil, count: count)
            let first = kind.key(level: level.ordinal, page: 0)
            for row in try database.query(
                "SELECT key, blob FROM travel411_pages WHERE key BETWEEN ? AND ?", [.integer(first), .integer(first + Int64(count - 1))])
            {
                guard let key = row[0].int64Value, case .blob(let bytes) = row[1] else { continue }
                blobs[Int(key - first)] = try bytes.withUnsafeBytes { try PageCompression.page($0) }
            }
            return PagedBlobs(preloaded: blobs)
        }
        let features = Int(
            try database.query("SELECT count(*) FROM travel411_areas WHERE level = ?", [.text(level.rawValue)])[0][0].int64Value ?? 0)
        return PlaceNodePages(
            tiles: try pages(.placeNodeTiles, count: PlaceNodePages.tileCount),
            features: try pages(.placeNodeFeatures, count: PlaceNodePages.featurePageCount(featureCount: features)), isEmpty: false)
    }

    /// Porto and Vila Nova de Gaia's town and suburb nodes (the city and suburb levels), Liechtenstein's hamlets
    /// and villages (the suburb level).
    @Test(arguments: [("porto", PlacesSchema.AreaLevel.city), ("porto", .suburb), ("liechtenstein", .suburb)])
    func theStoredPagesGiveBackTheNodes(extract: String, level: PlacesSchema.AreaLevel) throws {
        let path =
            extract == "porto"
            ? try OSMSuburbOfTownNodeTests.cutImport.get().path : try OSMExtractImportTests.liechtensteinImport.get().path
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let nodes = try OSMPlaceNodePages.nodes(level, in: database)
        #expect(!nodes.isEmpty, "\(extract) \(level)")
        let pages = try Self.storedPages(level, in: database)
        for node in nodes { #expect(pages.node(ofFeature: node.feature) == node) }
        let nodeFeatures = Set(nodes.map(\.feature))
        let featureCount = Int32(
            try database.query("SELECT count(*) FROM travel411_areas WHERE level = ?", [.text(level.rawValue)])[0][0].int64Value ?? 0)
        for feature in 0..<featureCount where !nodeFeatures.contains(feature) { #expect(pages.node(ofFeature: feature) == nil) }
        #expect(pages.node(ofFeature: featureCount) == nil)

        func cell(_ degrees: Double) -> Int { Int((degrees / 0.1).rounded(.down)) }
        for point in nodes.flatMap({ [($0.x, $0.y), ($0.x + 0.05, $0.y - 0.1), ($0.x - 0.15, $0.y + 0.2)] }) {
            var found: [PlaceNode] = []
            pages.forEach(near: point.0, point.1) { found.append($0) }
            let column = cell(point.0), row = cell(point.1)
            let expected = (-1...1).flatMap { r in
                (-1...1).flatMap { c in nodes.filter { cell($0.x) == column + c && cell($0.y) == row + r } }
            }
            #expect(found == expected, "around \(point)")
        }
    }

    /// The layout: a tile page's header of count and 101 offsets, the last the count, then 32-byte records.
    @Test func aTilePageIsItsHeaderAndRecords() throws {
        let node = PlaceNode(feature: 7, x: 9.5209, y: 47.1415, rank: 19, municipality: 3, isVillage: true, boundaryBelow: 2)
        let pages = PlaceNodePages.pages(of: [node, PlaceNode(feature: 2, x: 9.5, y: 47.15, rank: 20, municipality: 3)])
        #expect(pages.tiles.count == 1)
        #expect(pages.features.map(\.number) == [0])
        let blob = BlobStorage(bytes: try #require(pages.tiles.first).blob)
        #expect(blob.count == 4 + 101 * 4 + 2 * 32)
        #expect(blob.u32(at: 0) == 2)
        #expect(blob.u32(at: 4 + 100 * 4) == 2)
        let read = PlaceNodePages(
            tiles: PagedBlobs(count: PlaceNodePages.tileCount) { $0 == pages.tiles[0].number ? blob : nil },
            features: PagedBlobs(preloaded: [BlobStorage(bytes: pages.features[0].blob)]), isEmpty: false)
        #expect(read.node(ofFeature: 7) == node)
        #expect(read.node(ofFeature: 2)?.boundaryBelow == -1)
        #expect(read.node(ofFeature: 3) == nil)
    }
}
