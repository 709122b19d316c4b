import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// glibc's allocator, set for an import, whose sort buffers (4 to 32 MB each) and the read's threads would
/// otherwise keep memory it no longer uses. glibc gives a block of its own pages (given back when freed) to an
/// allocation above a threshold that it raises to the largest such block freed so far, up to 32 MB; from then
/// on the sort buffers come from the heap of the thread that asks, and what they free stays in that heap,
/// where another thread cannot reuse it. Measured at 600 copies of Liechtenstein, half of the allocator's
/// memory at the end of the read was free (209 MB from the system, 121 MB in use).
///
/// `mallopt` and `malloc_trim` are not in Swift's Glibc module (malloc.h): looked up by name.
enum ImportAllocator {
    /// Gives every allocation of 1 MB and more pages of its own, so that a freed buffer goes back to the system.
    static func givePagesOfTheirOwnToLargeBlocks() {
        #if canImport(Glibc)
            // M_MMAP_THRESHOLD; setting it also stops glibc raising it.
            _ = mallopt?(-3, 1 << 20)
        #endif
    }

    /// Gives back to the system what every thread's heap holds free.
    static func releaseFreeMemory() {
        #if canImport(Glibc)
            _ = mallocTrim?(0)
        #endif
    }

    /// Hands back what every thread's heap holds free every two seconds until the timer is cancelled, as the read
    /// does (`FreePagesReturn` in COSMium). After the read, the steps free their sort buffers, spill readers and
    /// tiles below blocks still in use, on the threads of `concurrentPerform` too: the pages stayed resident, more of
    /// them the larger the extract (at 2,400 copies of Liechtenstein the heaps held 50-90 MB free after the read,
    /// at 600 copies about 30 MB), under each later step's own peak.
    static func releaseFreeMemoryPeriodically() -> any DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: .global(qos: .utility))
        timer.schedule(deadline: .now() + .seconds(2), repeating: .seconds(2))
        timer.setEventHandler { releaseFreeMemory() }
        timer.resume()
        return timer
    }

    #if canImport(Glibc)
        private static let mallopt: (@convention(c) (Int32, Int32) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt")
            .map { unsafeBitCast($0, to: (@convention(c) (Int32, Int32) -> Int32).self) }
        private static let mallocTrim: (@convention(c) (Int) -> Int32)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_trim").map {
            unsafeBitCast($0, to: (@convention(c) (Int) -> Int32).self)
        }
    #endif
}
