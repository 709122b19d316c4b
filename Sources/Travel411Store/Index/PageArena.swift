import Foundation
import Travel411Core

/// Memory for the pages a batch reads whole at start-up, carved from a few large blocks rather than one malloc
/// each: thousands of small allocations grew malloc's heaps a few pages at a time (`sysmalloc`, `mprotect`) and
/// faulted each page in alone, a third of the start-up's page faults. A block past its first 2 MB is backed by huge
/// pages (`HugePages`). One thread fills an arena; its pages are only read afterwards, and live while any does.
// @unchecked Sendable: the blocks are raw memory, written while one thread loads the pages and only read after.
package final class PageArena: @unchecked Sendable {
    /// glibc's largest mmap threshold: a block this big is a mapping of its own, of which only the pages written
    /// take memory.
    private static let blockSize = 32 << 20
    private var blocks: [UnsafeMutableRawPointer] = []
    private var next: UnsafeMutableRawPointer?
    private var left = 0

    package init() {}

    deinit { for block in blocks { free(block) } }

    /// `count` bytes at a 16-byte boundary, as `BlobStorage`'s own allocations are.
    func allocate(_ count: Int) -> UnsafeMutableRawPointer {
        let size = (max(count, 1) + 15) & ~15
        if size > left { addBlock(holding: size) }
        guard let memory = next else { fatalError("out of memory for \(size) bytes of lookup pages") }
        next = memory + size
        left -= size
        return memory
    }

    private func addBlock(holding size: Int) {
        let capacity = max(size, Self.blockSize)
        // malloc's blocks are aligned for any scalar, 16 bytes on the platforms Swift runs on.
        guard let block = malloc(capacity) else { fatalError("out of memory for \(capacity) bytes of lookup pages") }
        if capacity > HugePages.size { HugePages.advise(block + HugePages.size, count: capacity - HugePages.size) }
        blocks.append(block)
        next = block
        left = capacity
    }
}
