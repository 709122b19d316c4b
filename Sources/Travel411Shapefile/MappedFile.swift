import Travel411Core

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole file mapped read-only into memory.
///
/// The integrity checks walk every record header of the .shp and the attribute reader slices DBF records in
/// place; mapping avoids a read call and a copy per record for files with hundreds of thousands of them.
final class MappedFile {
    let path: String
    package let bytes: UnsafeRawBufferPointer

    init(path: String) throws {
        self.path = path
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else {
            throw ShapefileError.at(path, "cannot be opened (\(String(cString: strerror(errno))))")
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else {
            throw ShapefileError.at(path, "cannot be read (\(String(cString: strerror(errno))))")
        }
        let size = Int(status.st_size)
        guard size > 0 else {
            bytes = UnsafeRawBufferPointer(start: nil, count: 0)
            return
        }
        guard let address = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), address != MAP_FAILED else {
            throw ShapefileError.at(path, "cannot be read (\(String(cString: strerror(errno))))")
        }
        bytes = UnsafeRawBufferPointer(start: address, count: size)
    }

    deinit {
        if let base = bytes.baseAddress { munmap(UnsafeMutableRawPointer(mutating: base), bytes.count) }
    }

    package var count: Int { bytes.count }

    /// Drops the pages wholly before `offset` from this process's memory; they are read from the file again
    /// if touched. Mapped pages once read count as the process's own until unmapped, so a table read from
    /// start to end would otherwise hold the whole file.
    func release(before offset: Int) {
        guard let base = bytes.baseAddress else { return }
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let length = min(offset, bytes.count) / pageSize * pageSize
        guard length > 0 else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: base), length, Int32(MADV_DONTNEED))
    }

    /// The file's bytes as `UInt8`s, for slicing values out of it.
    var octets: UnsafeBufferPointer<UInt8> { bytes.bindMemory(to: UInt8.self) }

    func bigEndianInt32(at offset: Int) -> Int32 {
        Int32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    func littleEndianInt32(at offset: Int) -> Int32 {
        Int32(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: Int32.self))
    }

    func littleEndianDouble(at offset: Int) -> Double {
        Double(bitPattern: UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)))
    }
}
