import Foundation
import Travel411Core

/// Little-endian byte writer for the index blobs stored in the database.
/// A public type with inlinable appends (its members stay `package`): the writers (`Travel411StoreWriters`) are
/// optimised even in a debug build, for the first answer's import of `Data/`, and inline these instead of calling
/// this module's unoptimised, generic closures per value.
public struct ByteWriter {
    @usableFromInline package var storage: [UInt8] = []
    package var bytes: [UInt8] { storage }

    package init(capacity: Int = 0) { storage.reserveCapacity(capacity) }

    @inlinable package mutating func append(_ value: UInt32) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }
    @inlinable package mutating func append(_ value: UInt8) { storage.append(value) }
    @inlinable package mutating func append(_ value: UInt16) {
        withUnsafeBytes(of: value.littleEndian) { storage.append(contentsOf: $0) }
    }
    @inlinable package mutating func append(_ value: Float) { append(value.bitPattern) }
    @inlinable package mutating func append(_ value: Double) {
        withUnsafeBytes(of: value.bitPattern.littleEndian) { storage.append(contentsOf: $0) }
    }
    @inlinable package mutating func append<S: Sequence>(contentsOf values: S) where S.Element == UInt32 {
        for value in values { append(value) }
    }
    /// The same bytes as the generic `append(contentsOf:)`, an array at once: the generic one, called from other
    /// modules (the street, area and locality tiles), went through the runtime's generic iterator a value at a time.
    @inlinable package mutating func append(contentsOf values: [UInt32]) {
        #if _endian(little)
            values.withUnsafeBytes { storage.append(contentsOf: $0) }
        #else
            for value in values { append(value) }
        #endif
    }
    mutating func appendUTF8(_ text: String) {
        var text = text
        text.withUTF8 { storage.append(contentsOf: $0) }
    }
    /// Pads to a multiple of `alignment` so that typed arrays after it load aligned.
    @inlinable package mutating func align(to alignment: Int) {
        while storage.count % alignment != 0 { storage.append(0) }
    }
    @inlinable package var count: Int { storage.count }
}

/// An owned, aligned copy of a blob that lookups read in place, without parsing.
// @unchecked Sendable: owns one aligned raw allocation, written in init and only read afterwards.
package final class BlobStorage: @unchecked Sendable {
    package let base: UnsafeRawPointer
    package let count: Int
    /// The arena holding the bytes, nil when they are this blob's own allocation.
    private let arena: PageArena?

    package init(copying source: UnsafeRawBufferPointer) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(source.count, 1), alignment: 16)
        if let from = source.baseAddress, source.count > 0 { buffer.copyMemory(from: from, byteCount: source.count) }
        base = UnsafeRawPointer(buffer)
        count = source.count
        arena = nil
    }

    /// Allocates `count` bytes and lets `fill` write them, so large blobs are read in place once.
    package init(count: Int, fill: (UnsafeMutableRawPointer) throws -> Void) rethrows {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        do { try fill(buffer) } catch {
            buffer.deallocate()
            throw error
        }
        base = UnsafeRawPointer(buffer)
        self.count = count
        arena = nil
    }

    /// `init(count:fill:)` with the bytes in `arena`, which lives while this blob does (a page that `fill`
    /// rejects leaves its bytes unused there).
    package init(count: Int, in arena: PageArena, fill: (UnsafeMutableRawPointer) throws -> Void) rethrows {
        let buffer = arena.allocate(count)
        try fill(buffer)
        base = UnsafeRawPointer(buffer)
        self.count = count
        self.arena = arena
    }

    /// Copies inside `withUnsafeBytes`: the array's memory is valid only during that call.
    package convenience init(bytes: [UInt8]) {
        self.init(count: bytes.count) { buffer in
            bytes.withUnsafeBytes { source in
                if let from = source.baseAddress, source.count > 0 { buffer.copyMemory(from: from, byteCount: source.count) }
            }
        }
    }

    deinit { if arena == nil { UnsafeMutableRawPointer(mutating: base).deallocate() } }

    /// Stands for "no such blob" in caches, which must remember a miss as well as a hit.
    static let absent = BlobStorage(count: 0) { _ in }

    @inline(__always) package func u32(at offset: Int) -> UInt32 {
        UInt32(littleEndian: base.load(fromByteOffset: offset, as: UInt32.self))
    }

    /// A typed view; `offset` must be aligned for `T`, which the writers guarantee.
    @inline(__always) func pointer<T>(at offset: Int, as type: T.Type) -> UnsafePointer<T> {
        (base + offset).assumingMemoryBound(to: T.self)
    }
}

package enum IndexFormatError: Error, CustomStringConvertible {
    case malformed(String)
    /// A damaged structure met in a database file.
    case damaged(path: String, what: String)
    package var description: String {
        switch self {
        case .malformed(let what): return "the lookup index is damaged (\(what)); rebuild the database with `travel411 import`"
        case .damaged(let path, let what):
            return "\(path): the lookup index is damaged (\(what)); rebuild the database with `travel411 import`"
        }
    }

    /// What is damaged, for a report that names the file around it; any other error as it describes itself.
    package static func damage(in error: any Error) -> String {
        if case IndexFormatError.malformed(let what) = error { return what }
        return "\(error)"
    }
}

extension IndexFormatError: Travel411Error {
    package var exitStatus: ExitStatus { .dataError }
}
