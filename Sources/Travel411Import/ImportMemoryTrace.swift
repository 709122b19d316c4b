import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// With `TRAVEL411_TRACE_MEMORY` set, the import writes a line to standard error at each stage after the read:
/// the process's anonymous memory (`RssAnon`), its CPU time and the wall time since the first line, then glibc's `malloc_stats` (what the
/// allocator holds from the system, and what of it is in use). A stage whose figures grow with the input is
/// what makes the import's memory grow with it.
enum ImportMemoryTrace {
    private static let isOn = ProcessInfo.processInfo.environment["TRAVEL411_TRACE_MEMORY"] != nil
    /// The wall clock at the first line (the process's start is not at hand): CPU over wall between two lines is
    /// how many cores a stage kept busy.
    nonisolated(unsafe) private static var firstNote: Date?

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
        let now = Date()
        let wall = now.timeIntervalSince(firstNote ?? now)
        if firstNote == nil { firstNote = now }
        FileHandle.standardError.write(
            Data(
                "travel411: memory: \(stage()): RssAnon \(anon), CPU \(String(format: "%.1f", seconds)) s, wall \(String(format: "%.1f", wall)) s\n"
                    .utf8))
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
