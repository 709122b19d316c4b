import CInterruptCleanup
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why a file could not be replaced.
public struct AtomicFileReplacementError: Error, CustomStringConvertible, LocalizedError {
    public let path: String
    public let message: String

    package init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
    public var errorDescription: String? { description }

    /// `what` failed with the current errno, e.g. "cannot rename to …: No space left on device".
    package static func system(_ what: String, path: String, errorNumber: Int32 = errno) -> AtomicFileReplacementError {
        AtomicFileReplacementError(path: path, message: "\(what): \(String(cString: strerror(errorNumber)))")
    }
}

/// Builds a file in a temporary file beside the target and renames it into place only on success, so a failed
/// or killed build leaves the previous file byte-for-byte intact.
public enum AtomicFileReplacement {
    /// SQLite's companions of a database file, removed together with it.
    static let companionSuffixes = ["", "-journal", "-wal", "-shm"]

    /// Calls `build` with the path of a fresh temporary file (`.<name>.building-<pid>` in the target's
    /// directory, so the final rename stays on one filesystem and is atomic), then syncs it and renames
    /// it over `target`. `build` must have closed the file when it returns. If `build` throws, the
    /// temporary file is deleted and the error rethrown; `target` is untouched either way until the rename.
    /// SIGINT, SIGTERM or SIGHUP during the build deletes the temporary file before the signal ends the
    /// process; temporary files that killed processes left behind are removed first. Do not build the same
    /// target twice at once in one process: both builds would share the temporary name.
    public static func replace(_ target: URL, build: (URL) throws -> Void) throws {
        let directory = target.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw AtomicFileReplacementError(
                path: directory.path, message: "cannot create the directory: \(error.localizedDescription)")
        }
        removeStaleTemporaryFiles(for: target)

        let temporary = temporaryURL(for: target, processID: getpid())
        removeWithCompanions(temporary)  // a leftover of this very process id, from an earlier life
        let cleanupSlots = companionSuffixes.map { travel411_interrupt_cleanup_register(temporary.path + $0) }
        defer { cleanupSlots.forEach(travel411_interrupt_cleanup_unregister) }
        do {
            try build(temporary)
            guard FileManager.default.fileExists(atPath: temporary.path) else {
                throw AtomicFileReplacementError(path: target.path, message: "the build finished without writing a file")
            }
            try synchronize(temporary)
            guard rename(temporary.path, target.path) == 0 else {
                throw AtomicFileReplacementError.system("cannot move \(temporary.lastPathComponent) into place", path: target.path)
            }
        } catch {
            removeWithCompanions(temporary)
            throw error
        }
        // A closed SQLite file has no companions; any left would be meaningless for the renamed file.
        for suffix in companionSuffixes.dropFirst() { try? FileManager.default.removeItem(atPath: temporary.path + suffix) }
        // The rename itself is durable only once the directory entry is on disk.
        try? synchronize(directory)
    }

    /// `.<target name>.building-<pid>`, in the target's directory.
    static func temporaryURL(for target: URL, processID: Int32) -> URL {
        target.deletingLastPathComponent()
            .appendingPathComponent(temporaryPrefix(for: target) + String(processID))
    }

    private static func temporaryPrefix(for target: URL) -> String { ".\(target.lastPathComponent).building-" }

    /// Deletes temporary files (and their companions) of this target whose process is gone. Cheap when
    /// there are none (one directory listing), so every start may call it.
    public static func removeStaleTemporaryFiles(for target: URL) {
        let directory = target.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            var rest = Substring(name.dropFirst(prefix.count))
            for suffix in companionSuffixes.dropFirst() where rest.hasSuffix(suffix) {
                rest = rest.dropLast(suffix.count)
                break
            }
            let file = directory.appendingPathComponent(name)
            guard let processID = Int32(rest), processID > 0, !isBuilding(processID, file: file) else { continue }
            try? FileManager.default.removeItem(at: file)
        }
    }

    /// Whether the process that named `file` after itself may still be writing it: it is alive and it is
    /// not a newer process that got the same id. Container runs start their first process at the same low
    /// id every time, so a live id alone would keep a dead run's file for good; but a process cannot have
    /// written a file that was last modified before it started. (The margin covers /proc's boot time,
    /// which is whole seconds.)
    static func isBuilding(_ processID: Int32, file: URL) -> Bool {
        // Signal 0 only checks: EPERM means the process exists but belongs to someone else.
        guard kill(processID, 0) == 0 || errno == EPERM else { return false }
        guard let started = startDate(ofProcess: processID),
            let modified = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
        else { return true }
        return started.timeIntervalSince(modified) < 2
    }

    /// When the process started, from Linux's /proc; nil elsewhere or when it cannot be read.
    static func startDate(ofProcess processID: Int32) -> Date? {
        // Field 22 of /proc/PID/stat, in clock ticks since boot; the name (field 2) may hold spaces, so
        // fields are counted after its closing parenthesis.
        guard let stat = try? String(contentsOfFile: "/proc/\(processID)/stat", encoding: .utf8),
            let nameEnd = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: nameEnd)...].split(separator: " ")
        guard fields.count > 19, let ticks = Double(fields[19]),
            let system = try? String(contentsOfFile: "/proc/stat", encoding: .utf8),
            let bootLine = system.split(separator: "\n").first(where: { $0.hasPrefix("btime ") }),
            let bootTime = Double(bootLine.dropFirst("btime ".count).trimmingCharacters(in: .whitespaces))
        else { return nil }
        let ticksPerSecond = Double(sysconf(Int32(_SC_CLK_TCK)))
        guard ticksPerSecond > 0 else { return nil }
        return Date(timeIntervalSince1970: bootTime + ticks / ticksPerSecond)
    }

    private static func removeWithCompanions(_ file: URL) {
        for suffix in companionSuffixes { try? FileManager.default.removeItem(atPath: file.path + suffix) }
    }

    /// fsync(2) a file or directory, so its contents reach the disk before we depend on them.
    private static func synchronize(_ url: URL) throws {
        let descriptor = open(url.path, O_RDONLY)
        guard descriptor >= 0 else { throw AtomicFileReplacementError.system("cannot open to sync", path: url.path) }
        defer { close(descriptor) }
        guard fsync(descriptor) == 0 else { throw AtomicFileReplacementError.system("cannot sync to disk", path: url.path) }
    }
}

extension AtomicFileReplacementError: Travel411Error {
    public var exitStatus: ExitStatus { .cannotCreate }
}
