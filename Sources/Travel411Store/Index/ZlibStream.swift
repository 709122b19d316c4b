import CLibdeflate
import Synchronization

/// zlib streams (RFC 1950) made and read whole with libdeflate, the form the lookup pages are stored in
/// (`PageCompression`). libdeflate works on whole buffers, as the pages are, and makes and reads the same format
/// as zlib's `compress2`/`uncompress`, so a database written with either reads with the other; on the pages of an
/// import of 600 copies of an extract its level 4 deflated 3.3 times as fast as zlib's level 1 into 1.6 % fewer
/// bytes, and it inflated twice as fast (docs/import.md, "Session 54").
///
/// A compressor holds a few hundred kilobytes of tables: each is kept in a small pool and taken by one call at a
/// time, rather than allocated per page (the pages are deflated on several threads at once).
package enum ZlibStream {
    /// libdeflate's compression level of the pages.
    package static let level: Int32 = 4

    /// libdeflate's (de)compressor handles, each used by one thread at a time between `take` and `give`; at most
    /// `capacity` idle ones are kept (the import's deflating threads), the rest freed.
    private final class Pool: Sendable {
        private struct Handle: @unchecked Sendable { let pointer: OpaquePointer }
        private let idle = Mutex<[Handle]>([])
        private let capacity = 8
        private let make: @Sendable () -> OpaquePointer?
        private let free: @Sendable (OpaquePointer) -> Void

        init(make: @escaping @Sendable () -> OpaquePointer?, free: @escaping @Sendable (OpaquePointer) -> Void) {
            (self.make, self.free) = (make, free)
        }

        func take() -> OpaquePointer? { idle.withLock { $0.popLast()?.pointer } ?? make() }

        func give(_ pointer: OpaquePointer) {
            let kept = idle.withLock { handles in
                guard handles.count < capacity else { return false }
                handles.append(Handle(pointer: pointer))
                return true
            }
            if !kept { free(pointer) }
        }
    }

    private static let compressors = Pool(make: { libdeflate_alloc_compressor(level) }, free: libdeflate_free_compressor)
    private static let decompressors = Pool(make: { libdeflate_alloc_decompressor() }, free: libdeflate_free_decompressor)

    /// `bytes` as a zlib stream, or nil when it would not be shorter than `shorterThan` bytes (or no memory).
    package static func deflate(_ bytes: UnsafeRawBufferPointer, shorterThan limit: Int) -> [UInt8]? {
        guard let compressor = compressors.take() else { return nil }
        defer { compressors.give(compressor) }
        let capacity = min(limit - 1, libdeflate_zlib_compress_bound(compressor, bytes.count))
        guard capacity > 0, let source = bytes.baseAddress else { return nil }
        let stream = [UInt8](unsafeUninitializedCapacity: capacity) { out, initialized in
            // 0: the stream did not fit in `capacity`, so it would not have been shorter.
            initialized = libdeflate_zlib_compress(compressor, source, bytes.count, out.baseAddress, capacity)
        }
        return stream.isEmpty ? nil : stream
    }

    /// Inflates the zlib stream `stream` into `destination`, which it must fill exactly; false when the stream is
    /// damaged, ends early or holds more (or no memory).
    package static func inflate(_ stream: UnsafeRawBufferPointer, into destination: UnsafeMutableRawBufferPointer) -> Bool {
        guard let decompressor = decompressors.take() else { return false }
        defer { decompressors.give(decompressor) }
        var written = 0
        let result = libdeflate_zlib_decompress(
            decompressor, stream.baseAddress, stream.count, destination.baseAddress, destination.count, &written)
        return result == LIBDEFLATE_SUCCESS && written == destination.count
    }
}
