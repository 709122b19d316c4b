import Foundation
import Travel411Core

/// A temporary file written at its end and read back anywhere, unlinked as soon as it is created: however the
/// import ends (an error, Ctrl-C, kill -9), the kernel frees its space and no file is left behind. What waits on
/// disk until a later step (`OSMShapeFile`'s outlines, `SpilledAreaTiles`' quadtrees) goes through it.
final class UnlinkedAppendFile: @unchecked Sendable {
    let path: String
    private let descriptor: Int32
    /// Bytes written so far: where the next append goes.
    private(set) var size: Int64 = 0

    /// `path`: where the file is created (beside the database being built, so that it uses that disk).
    init(path: String) throws {
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw ImportError("\(path): cannot create a temporary file (\(String(cString: strerror(errno))))")
        }
        unlink(path)
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// Writes `bytes` at the end; returns where they start.
    @discardableResult
    func append(_ bytes: UnsafeRawBufferPointer) throws -> Int64 {
        let start = size
        var done = 0
        if let base = bytes.baseAddress {
            while done < bytes.count {
                let count = pwrite(descriptor, base + done, bytes.count - done, off_t(start) + off_t(done))
                guard count > 0 else {
                    throw ImportError("\(path): cannot write a temporary file (\(String(cString: strerror(errno)))); is the disk full?")
                }
                done += count
            }
        }
        size += Int64(done)
        return start
    }

    /// Reads `count` bytes at `offset` into `buffer`; safe on several threads at once (pread moves no offset).
    func read(into buffer: UnsafeMutableRawPointer?, count: Int, at offset: Int64) throws {
        guard pread(descriptor, buffer, count, off_t(offset)) == count else {
            throw ImportError("\(path): cannot read back a temporary file (\(String(cString: strerror(errno))))")
        }
    }
}
