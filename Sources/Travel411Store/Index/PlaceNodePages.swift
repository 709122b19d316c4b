import Foundation
import Travel411Core

/// An extract's place node behind an area drawn around it in the city or suburb level (`OSMPlaceNodeAreas`).
package struct PlaceNode: Sendable, Equatable {
    /// The node's area in its level.
    package var feature: Int32
    package var x: Double
    package var y: Double
    /// Nominatim's search rank of the node's kind (`NominatimPlaceKinds.nodeRank`).
    package var rank: Int
    /// The municipality (city level feature) holding the node, -1 for none.
    package var municipality: Int32
    /// A village or town inside another municipality: a part of it one rank above the hamlets and suburbs
    /// in Nominatim's address (both can be named: "Steg, Rotenboden, Triesenberg").
    package var isVillage: Bool
    /// For a node's area cut to the boundary holding the node (`OSMSubpartNodes`), that boundary's feature; -1
    /// otherwise.
    package var boundaryBelow: Int32

    package init(feature: Int32, x: Double, y: Double, rank: Int, municipality: Int32, isVillage: Bool = false, boundaryBelow: Int32 = -1) {
        self.feature = feature
        self.x = x
        self.y = y
        self.rank = rank
        self.municipality = municipality
        self.isVillage = isVillage
        self.boundaryBelow = boundaryBelow
    }
}

/// The place nodes of one area level, stored by tile so that a lookup reads only the tiles around its point:
/// reading them whole cost a single `where` on a large extract most of its time and memory.
///
/// A search reads the point's 0.1° cell and the rings of cells around it that its nodes' reach needs
/// (`reverse_place_diameter`: 0.08° at most for a town, one ring; 0.16° for a city, two). Cells are numbered
/// `floor(degrees / 0.1)`.
///
/// Two kinds of page per level, both of 32-byte records: x, y as f64 (the centre as stored, so distances and ties
/// come out as computed from it), feature, municipality and boundaryBelow as i32, rank as u8, flags as u8 (1: a
/// village), 2 bytes of padding.
/// - A tile page (`PageKind.placeNodeTiles`, numbered by 1° tile, `tileNumber`): u32 count, then 101 u32 offsets
///   (the records of sub-cell k, row-major from the south-west, are offsets[k]..<offsets[k+1]), then the records,
///   in the order given within each sub-cell.
/// - A feature page (`PageKind.placeNodeFeatures`, numbered by feature / 256): u32 count, 4 bytes of padding, then
///   the records of the features in its range, by feature.
// @unchecked Sendable: reads its blobs in place; never written after init.
package final class PlaceNodePages: @unchecked Sendable {
    package static let tileCount = 361 * 181
    package static let featuresPerPage = 256
    static let subdivisions = 10
    static let recordBytes = 32
    static let tileHeaderBytes = 4 + 101 * 4
    static let featureHeaderBytes = 8

    private let tiles: PagedBlobs
    private let features: PagedBlobs
    package let isEmpty: Bool

    package init(tiles: PagedBlobs, features: PagedBlobs, isEmpty: Bool) {
        self.tiles = tiles
        self.features = features
        self.isEmpty = isEmpty
    }

    /// The number of feature pages of a level of `featureCount` features.
    package static func featurePageCount(featureCount: Int) -> Int { (max(0, featureCount) + featuresPerPage - 1) / featuresPerPage }

    /// Every node in the cell of (x, y) and the `rings` of cells around it (the eight neighbours for one), cell by cell,
    /// in the order given within each cell.
    package func forEach(near x: Double, _ y: Double, rings: Int = 1, _ body: (PlaceNode) -> Void) {
        let column = Self.cellIndex(x), row = Self.cellIndex(y)
        forEach(columns: (column - rings)...(column + rings), rows: (row - rings)...(row + rings), body)
    }

    /// Every node in the cells a box covers and the ring around them, cell by cell (`forEach(near:_:_:)` for a point's
    /// box). False, with nothing visited, when that is more than `maxCells` cells.
    package func forEach(around box: BoundingBox, maxCells: Int, _ body: (PlaceNode) -> Void) -> Bool {
        let west = Self.cellIndex(box.minX) - 1, east = Self.cellIndex(box.maxX) + 1
        let south = Self.cellIndex(box.minY) - 1, north = Self.cellIndex(box.maxY) + 1
        guard east >= west, north >= south, (east - west + 1) * (north - south + 1) <= maxCells else { return false }
        forEach(columns: west...east, rows: south...north, body)
        return true
    }

    /// Every node in the cells of these columns and rows, row by row from the south, in the order given within a cell.
    private func forEach(columns: ClosedRange<Int>, rows: ClosedRange<Int>, _ body: (PlaceNode) -> Void) {
        for r in rows {
            for c in columns {
                guard let (number, subCell) = Self.tileNumber(column: c, row: r), let page = tiles[number],
                    let range = Self.records(of: subCell, in: page)
                else { continue }
                for index in range { body(Self.node(in: page, at: Self.tileHeaderBytes + index * Self.recordBytes)) }
            }
        }
    }

    /// The node a feature of the level was made from; nil for a polygon of the extract.
    package func node(ofFeature feature: Int32) -> PlaceNode? {
        guard feature >= 0, let page = features[Int(feature) / Self.featuresPerPage], page.count >= Self.featureHeaderBytes else {
            return nil
        }
        let count = min(Int(page.u32(at: 0)), (page.count - Self.featureHeaderBytes) / Self.recordBytes)
        func featureAt(_ index: Int) -> Int32 {
            page.base.loadUnaligned(fromByteOffset: Self.featureHeaderBytes + index * Self.recordBytes + 16, as: Int32.self)
        }
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if featureAt(middle) < feature { low = middle + 1 } else { high = middle }
        }
        guard low < count, featureAt(low) == feature else { return nil }
        return Self.node(in: page, at: Self.featureHeaderBytes + low * Self.recordBytes)
    }

    /// The tile pages and the feature pages of `nodes` (a feature given twice keeps its first node).
    package static func pages(of nodes: [PlaceNode]) -> (tiles: [(number: Int, blob: [UInt8])], features: [(number: Int, blob: [UInt8])]) {
        var byTile: [Int: [(subCell: Int, node: PlaceNode)]] = [:]
        for node in nodes {
            guard let (number, subCell) = tileNumber(column: cellIndex(node.x), row: cellIndex(node.y)) else { continue }
            byTile[number, default: []].append((subCell, node))
        }
        let tilePages = byTile.keys.sorted().map { number -> (number: Int, blob: [UInt8]) in
            let entries = (byTile[number] ?? []).enumerated().sorted { ($0.element.subCell, $0.offset) < ($1.element.subCell, $1.offset) }
                .map(\.element)
            var writer = ByteWriter(capacity: tileHeaderBytes + entries.count * recordBytes)
            writer.append(UInt32(entries.count))
            var position = 0
            for subCell in 0...(subdivisions * subdivisions) {
                while position < entries.count, entries[position].subCell < subCell { position += 1 }
                writer.append(UInt32(position))
            }
            for entry in entries { append(entry.node, to: &writer) }
            return (number, writer.bytes)
        }
        var seen = Set<Int32>()
        let unique = nodes.filter { $0.feature >= 0 && seen.insert($0.feature).inserted }.sorted { $0.feature < $1.feature }
        let byPage = Dictionary(grouping: unique) { Int($0.feature) / featuresPerPage }
        let featurePages = byPage.keys.sorted().map { number -> (number: Int, blob: [UInt8]) in
            let members = byPage[number] ?? []
            var writer = ByteWriter(capacity: featureHeaderBytes + members.count * recordBytes)
            writer.append(UInt32(members.count))
            writer.append(UInt32(0))
            for node in members { append(node, to: &writer) }
            return (number, writer.bytes)
        }
        return (tilePages, featurePages)
    }

    private static func append(_ node: PlaceNode, to writer: inout ByteWriter) {
        writer.append(node.x)
        writer.append(node.y)
        writer.append(UInt32(bitPattern: node.feature))
        writer.append(UInt32(bitPattern: node.municipality))
        writer.append(UInt32(bitPattern: node.boundaryBelow))
        writer.append(UInt8(clamping: node.rank))
        writer.append(UInt8(node.isVillage ? 1 : 0))
        writer.append(UInt16(0))
    }

    private static func node(in page: BlobStorage, at offset: Int) -> PlaceNode {
        let base = page.base + offset
        return PlaceNode(
            feature: Int32(littleEndian: base.loadUnaligned(fromByteOffset: 16, as: Int32.self)),
            x: Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(as: UInt64.self))),
            y: Double(bitPattern: UInt64(littleEndian: base.loadUnaligned(fromByteOffset: 8, as: UInt64.self))),
            rank: Int(base.load(fromByteOffset: 28, as: UInt8.self)),
            municipality: Int32(littleEndian: base.loadUnaligned(fromByteOffset: 20, as: Int32.self)),
            isVillage: base.load(fromByteOffset: 29, as: UInt8.self) & 1 != 0,
            boundaryBelow: Int32(littleEndian: base.loadUnaligned(fromByteOffset: 24, as: Int32.self)))
    }

    /// The records of a sub-cell in a tile page; nil for a page too short for what it says it holds.
    private static func records(of subCell: Int, in page: BlobStorage) -> Range<Int>? {
        guard page.count >= tileHeaderBytes else { return nil }
        let count = Int(page.u32(at: 0))
        let start = Int(page.u32(at: 4 + subCell * 4)), end = Int(page.u32(at: 8 + subCell * 4))
        guard start <= end, end <= count, tileHeaderBytes + count * recordBytes <= page.count else { return nil }
        return start..<end
    }

    /// The 0.1° cell of a longitude or latitude.
    @inline(__always) static func cellIndex(_ degrees: Double) -> Int { Int((degrees / 0.1).rounded(.down)) }

    /// The tile page of a cell and the cell's number within it; nil outside the world.
    @inline(__always) package static func tileNumber(column: Int, row: Int) -> (number: Int, subCell: Int)? {
        let tileColumn = column >= 0 ? column / subdivisions : (column - subdivisions + 1) / subdivisions
        let tileRow = row >= 0 ? row / subdivisions : (row - subdivisions + 1) / subdivisions
        guard (-180...180).contains(tileColumn), (-90...90).contains(tileRow) else { return nil }
        let subCell = (row - tileRow * subdivisions) * subdivisions + (column - tileColumn * subdivisions)
        return ((tileRow + 90) * 361 + tileColumn + 180, subCell)
    }
}
