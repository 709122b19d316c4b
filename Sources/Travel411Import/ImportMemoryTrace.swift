import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// With `TRAVEL411_TRACE_MEMORY` set, the import writes a line to standard error at each stage after the read:
/// the process's anonymous memory (`RssAnon`) and CPU time so far, then glibc's `malloc_stats` (what the
/// allocator holds from the system, and what of it is in use). A stage whose figures grow with the input is
/// what makes the import's memory grow with it.
enum ImportMemoryTrace {
    private static let isOn = ProcessInfo.processInfo.environment["TRAVEL411_TRACE_MEMORY"] != nil

    static func note(_ stage: @autoclosure () -> String) {
        guard isOn else { return }
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        let anon =
            status.split(separator: "\n").first { $0.hasPrefix("RssAnon:") }.map {
                $0.dropFirst(8).trimmingCharacters(in: .whitespaces)
            } ?? "?"
        var seconds = 0.0
        #if canImport(Glibc)
            var usage = rusage()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            seconds =
                Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
        #endif
        FileHandle.standardError.write(
            Data("travel411: memory: \(stage()): RssAnon \(anon), CPU \(String(format: "%.1f", seconds)) s\n".utf8))
        #if canImport(Glibc)
            // Not in the Glibc module (malloc.h): looked up once.
            if let stats = mallocStats { stats() }
        #endif
    }

    #if canImport(Glibc)
        private static let mallocStats: (@convention(c) () -> Void)? = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "malloc_stats").map {
            unsafeBitCast($0, to: (@convention(c) () -> Void).self)
        }
    #endif
}
