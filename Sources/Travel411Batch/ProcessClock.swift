import Foundation
import Travel411Core

/// When this process started, on `ProcessInfo.systemUptime`'s clock, so that a batch's summary can
/// count the whole run (start-up and loading the database included) as a user times it.
public enum ProcessClock {
    /// The process's start from the kernel's record of it (`/proc/self/stat`, field 22, in clock ticks
    /// since boot, as proc(5) says), to within a tick (10 ms); now where that cannot be read.
    public static func processStartUptime() -> Double {
        let now = ProcessInfo.processInfo.systemUptime
        guard let ticks = startTicksSinceBoot() else { return now }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        var boot = timespec()
        guard ticksPerSecond > 0, clock_gettime(CLOCK_BOOTTIME, &boot) == 0 else { return now }
        let sinceBoot = Double(boot.tv_sec) + Double(boot.tv_nsec) / 1e9
        let age = sinceBoot - Double(ticks) / ticksPerSecond
        return age >= 0 && age < sinceBoot ? now - age : now
    }

    private static func startTicksSinceBoot() -> UInt64? {
        guard let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        // After the parenthesised name come fields 3 (state), 4, …; the start time is field 22.
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        return fields.count > 19 ? UInt64(fields[19]) : nil
    }
}
