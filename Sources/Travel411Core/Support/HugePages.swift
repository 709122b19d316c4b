#if canImport(Glibc)
    import Glibc
#endif

/// Transparent huge pages for a big block written once (a batch's area tiles at start-up).
///
/// Each 4 KB page of fresh memory costs a fault when first written: a batch's start-up spent about a third of
/// its CPU in them, filling 150 MB of tables. A block advised here is faulted 2 MB at a time where the kernel's
/// `transparent_hugepage/enabled` is `madvise` (Debian's default) or `always`; elsewhere the advice is ignored.
package enum HugePages {
    /// The size of one huge page on x86-64 and arm64 (4 KB base pages).
    package static let size = 2 << 20

    /// Advises the whole 2 MB-aligned pages inside `count` bytes at `base`; a block smaller than one is left alone
    /// (the advice would cost a whole huge page for a few kilobytes).
    package static func advise(_ base: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
            let start = (Int(bitPattern: base) + size - 1) & ~(size - 1)
            let end = (Int(bitPattern: base) + count) & ~(size - 1)
            guard end > start, let aligned = UnsafeMutableRawPointer(bitPattern: start) else { return }
            _ = madvise(aligned, end - start, Int32(MADV_HUGEPAGE))
        #endif
    }
}
