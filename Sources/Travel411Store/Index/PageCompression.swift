import Travel411Core

/// How the lookup pages (`travel411_pages`) and area tiles (`travel411_area_tiles`) are stored: each blob
/// deflated on its own (a zlib stream, `ZlibStream`), and inflated once when first read into memory of its own,
/// which the lookups then read in place as before. Deflate halves the pages (street tiles 2.5×, street names 2.7×, area tiles 2×) and a
/// single lookup inflates only the few pages near its point, so its cost stays flat; a blob that deflate would
/// not shrink is stored as it is.
///
/// Layout: u8 method (0 stored, 1 deflated, 2 an area tile coded), u32 the page's size (little-endian), then the
/// page's bytes, its zlib stream, or (2) the blob of the tile's coded form (`AreaTileCoding`) in this same layout.
package enum PageCompression {
    package static let headerSize = 5
    private static let stored: UInt8 = 0
    private static let deflated: UInt8 = 1
    private static let codedAreaTile: UInt8 = 2
    /// The blob to store for `page`: deflated, or as it is when `deflate` is false or deflate would not shrink it.
    package static func compressed(_ page: [UInt8], deflate: Bool = true) -> [UInt8] {
        guard !page.isEmpty else { return header(stored, 0) }
        guard deflate else { return header(stored, page.count) + page }
        // A zlib stream of at least the page's size is stored as the page itself.
        guard let output = page.withUnsafeBytes({ ZlibStream.deflate($0, shorterThan: page.count) }) else {
            return header(stored, page.count) + page
        }
        return header(deflated, page.count) + output
    }

    /// The blob to store for an extract's area tile: its coded form (`AreaTileCoding`), deflated, behind a header
    /// that gives the tile's size, so that a reader sizes its memory from the header as for any page.
    package static func compressed(areaTile tile: [UInt8]) -> [UInt8] {
        guard let coded = AreaTileCoding.encode(tile) else { return compressed(tile) }
        return header(codedAreaTile, tile.count) + compressed(coded)
    }

    private static func header(_ method: UInt8, _ size: Int) -> [UInt8] {
        var writer = ByteWriter(capacity: headerSize)
        writer.append(method)
        writer.append(UInt32(size))
        return writer.bytes
    }

    /// The size of the page a stored blob holds, from its first `headerSize` bytes.
    package static func pageSize(_ blob: UnsafeRawBufferPointer) throws -> Int {
        guard blob.count >= headerSize, blob[0] <= codedAreaTile else {
            throw IndexFormatError.malformed("page header")
        }
        return Int(blob[1]) | Int(blob[2]) << 8 | Int(blob[3]) << 16 | Int(blob[4]) << 24
    }

    /// The page a stored blob holds, in aligned memory of its own, or in `arena`.
    package static func page(_ blob: UnsafeRawBufferPointer, in arena: PageArena? = nil) throws -> BlobStorage {
        var made: BlobStorage?
        try page(blob) { size, fill in
            if let arena {
                made = try BlobStorage(count: size, in: arena) { try fill(UnsafeMutableRawBufferPointer(start: $0, count: size)) }
            } else {
                made = try BlobStorage(count: size) { try fill(UnsafeMutableRawBufferPointer(start: $0, count: size)) }
            }
        }
        guard let made else { throw IndexFormatError.malformed("page") }
        return made
    }

    /// The page a stored blob holds, written where `place` says: `place` is given the page's size and a function
    /// that writes the page into memory of that size, and calls it once. A batch's start-up inflates the area
    /// tiles straight into their arena this way, rather than into memory of their own that is then copied.
    package static func page(
        _ blob: UnsafeRawBufferPointer,
        into place: (_ size: Int, _ fill: (UnsafeMutableRawBufferPointer) throws -> Void) throws -> Void
    ) throws {
        let size = try pageSize(blob)
        let body = UnsafeRawBufferPointer(rebasing: blob[headerSize...])
        if blob[0] == codedAreaTile {
            guard body.first != codedAreaTile else { throw IndexFormatError.malformed("area tile header") }
            let coded = try page(body)
            try withExtendedLifetime(coded) {
                let input = UnsafeRawBufferPointer(start: coded.base, count: coded.count)
                guard try AreaTileCoding.decodedSize(input) == size else { throw IndexFormatError.malformed("area tile size") }
                try place(size) { try AreaTileCoding.decode(input, into: $0) }
            }
            return
        }
        // Deflate shrinks at most about 1,032 times: a larger size is a damaged header, not a page to allocate.
        guard size <= max(body.count, 1) * 1032 else { throw IndexFormatError.malformed("page size") }
        let method = blob[0]
        try place(size) { destination in
            guard let to = destination.baseAddress else { return }
            if method == stored {
                guard body.count == size else { throw IndexFormatError.malformed("page size") }
                if let from = body.baseAddress, size > 0 { to.copyMemory(from: from, byteCount: size) }
                return
            }
            guard ZlibStream.inflate(body, into: destination) else { throw IndexFormatError.malformed("deflated page") }
        }
    }
}

extension SQLValue {
    /// A lookup page or area tile as it is stored (`PageCompression`), deflated unless `deflate` is false.
    package static func page(_ bytes: [UInt8], deflate: Bool = true) -> SQLValue {
        .blob(PageCompression.compressed(bytes, deflate: deflate))
    }
}
