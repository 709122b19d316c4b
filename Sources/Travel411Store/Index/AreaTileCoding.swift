import Foundation
import Travel411Core

/// The stored form of an extract's area tile (`AreaTile` reads the expanded form, which `AreaIndexBuilder` lays out):
/// the same tile, its nodes and records as variable-length integers and its vertices as 1e-7° steps from the vertex
/// before. An OpenStreetMap boundary's vertices are OpenStreetMap's positions, which are whole 1e-7° steps, so they
/// come back as the very same doubles (as `StreetTileCoding` argues); a vertex off that grid (a shapefile's) is stored
/// as its two doubles. Every tile decodes to exactly the bytes it was built as, so no answer moves. Deflating the
/// doubles alone left the municipalities' tiles about half their size; as steps they deflate about twice as well
/// again (one Liechtenstein: 55 KB to 27 KB).
///
/// Layout: varints nodeCount, recordWords, vertexCount, the nodes, the records, and per vertex either the zigzag
/// step in x shifted left by one (its low bit 0) and the zigzag step in y, or the varint 1 and two little-endian
/// doubles. `PageCompression` deflates it behind a header of its own that gives the expanded size.
package enum AreaTileCoding {
    /// The coded form of an expanded tile; nil when `tile` is not laid out as `AreaTile` reads it.
    package static func encode(_ tile: [UInt8]) -> [UInt8]? {
        tile.withUnsafeBytes { expanded in
            guard expanded.count >= 12 else { return nil }
            func u32(_ offset: Int) -> UInt32 { UInt32(littleEndian: expanded.loadUnaligned(fromByteOffset: offset, as: UInt32.self)) }
            let nodeCount = Int(u32(0)), recordWords = Int(u32(4)), vertexCount = Int(u32(8))
            let verticesAt = vertexOffset(nodeCount: nodeCount, recordWords: recordWords)
            guard nodeCount > 0, verticesAt + vertexCount * 16 == expanded.count else { return nil }
            var out = VarintWriter(capacity: expanded.count / 3)
            for count in [nodeCount, recordWords, vertexCount] { out.append(UInt64(count)) }
            for word in 0..<(nodeCount + recordWords) { out.append(UInt64(u32(12 + word * 4))) }
            var lastX: Int64 = 0, lastY: Int64 = 0
            for vertex in 0..<vertexCount {
                let at = verticesAt + vertex * 16
                let x = Double(bitPattern: UInt64(littleEndian: expanded.loadUnaligned(fromByteOffset: at, as: UInt64.self)))
                let y = Double(bitPattern: UInt64(littleEndian: expanded.loadUnaligned(fromByteOffset: at + 8, as: UInt64.self)))
                if let stepX = StreetTileCoding.gridSteps(x), let stepY = StreetTileCoding.gridSteps(y) {
                    let dx = stepX - lastX
                    out.append(UInt64(bitPattern: dx << 1 ^ dx >> 63) << 1)
                    out.appendSigned(stepY - lastY)
                    (lastX, lastY) = (stepX, stepY)
                } else {
                    out.append(1)
                    withUnsafeBytes(of: x.bitPattern.littleEndian) { out.bytes.append(contentsOf: $0) }
                    withUnsafeBytes(of: y.bitPattern.littleEndian) { out.bytes.append(contentsOf: $0) }
                }
            }
            return out.bytes
        }
    }

    /// The tile as `AreaTile` reads it, in memory of its own; a damaged one throws `IndexFormatError`.
    package static func decode(_ coded: BlobStorage) throws -> BlobStorage {
        try withExtendedLifetime(coded) {
            let input = UnsafeRawBufferPointer(start: coded.base, count: coded.count)
            let size = try decodedSize(input)
            return try BlobStorage(count: size) { try decode(input, into: UnsafeMutableRawBufferPointer(start: $0, count: size)) }
        }
    }

    /// The size in bytes of the tile `coded` holds, from its three counts.
    package static func decodedSize(_ coded: UnsafeRawBufferPointer) throws -> Int {
        var input = VarintReader(coded, what: "area tile")
        let nodeCount = try input.count(), recordWords = try input.count(), vertexCount = try input.count()
        // Every node, record word and vertex takes a byte at least.
        guard nodeCount > 0, nodeCount + recordWords + vertexCount <= input.remaining else {
            throw IndexFormatError.malformed("area tile counts")
        }
        return vertexOffset(nodeCount: nodeCount, recordWords: recordWords) + vertexCount * 16
    }

    /// Writes the tile `coded` holds into `tile`, of its `decodedSize`: a batch's start-up decodes each tile
    /// straight into its level's arena.
    package static func decode(_ coded: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) throws {
        guard try decodedSize(coded) == destination.count, let tile = destination.baseAddress else {
            throw IndexFormatError.malformed("area tile size")
        }
        var input = VarintReader(coded, what: "area tile")
        let nodeCount = try input.count(), recordWords = try input.count(), vertexCount = try input.count()
        let verticesAt = vertexOffset(nodeCount: nodeCount, recordWords: recordWords)
        tile.initializeMemory(as: UInt8.self, repeating: 0, count: verticesAt)
        func put(_ value: UInt32, _ offset: Int) { tile.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self) }
        for (n, count) in [nodeCount, recordWords, vertexCount].enumerated() { put(UInt32(count), n * 4) }
        for word in 0..<(nodeCount + recordWords) {
            guard let value = UInt32(exactly: try input.value()) else { throw IndexFormatError.malformed("area tile number") }
            put(value, 12 + word * 4)
        }
        var lastX: Int64 = 0, lastY: Int64 = 0
        for vertex in 0..<vertexCount {
            let at = verticesAt + vertex * 16
            let head = try input.value()
            let (x, y): (Double, Double)
            if head & 1 == 1 {
                guard head == 1 else { throw IndexFormatError.malformed("area tile vertex") }
                (x, y) = (try input.double(), try input.double())
            } else {
                let zigzag = head >> 1
                lastX = lastX &+ (Int64(bitPattern: zigzag >> 1) ^ -Int64(bitPattern: zigzag & 1))
                lastY = lastY &+ (try input.signed())
                (x, y) = (Double(lastX) / StreetTileCoding.steps, Double(lastY) / StreetTileCoding.steps)
            }
            tile.storeBytes(of: x.bitPattern.littleEndian, toByteOffset: at, as: UInt64.self)
            tile.storeBytes(of: y.bitPattern.littleEndian, toByteOffset: at + 8, as: UInt64.self)
        }
        guard input.remaining == 0 else { throw IndexFormatError.malformed("area tile size") }
    }

    /// Where the vertices start: after the header, nodes and records, aligned to 8 bytes (`AreaTile`).
    private static func vertexOffset(nodeCount: Int, recordWords: Int) -> Int { (12 + (nodeCount + recordWords) * 4 + 7) & ~7 }
}
