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

    public var description: String { "\(path): \(message)" }
    public var errorDescription: String? { description }

    /// `what` failed with the current errno, e.g. "cannot rename to …: No space left on device".
    static func system(_ what: String, path: String, errorNumber: Int32 = errno) -> AtomicFileReplacementError {
        AtomicFileReplacementError(path: path, message: "\(what): \(String(cString: strerror(errorNumber)))")
    }
}

/// Builds a file in a temporary file beside the target and renames it into place only on success, so a failed
/// or killed build leaves the previous file byte-for-byte intact.
public enum AtomicFileReplacement {
    /// SQLite's companions of a database file, removed together with it.
    /// SQLite's own companions, and the folders of sorted runs an import spills beside its database
    /// (`ExternalSorter`): all go with the temporary file, and with a dead process's leftovers.
    static let companionSuffixes = ["", "-journal", "-wal", "-shm", "-street-runs", "-rtree-runs", "-rtree-leaves"]

    /// Calls `build` with the path of a fresh temporary file (`.<name>.building-<pid>` in the target's
    /// directory, so the final rename stays on one filesystem and is atomic), then syncs it and renames
    /// it over `target`. `build` must have closed the file when it returns. If `build` throws, the
    /// temporary file is deleted and the error rethrown; `target` is untouched either way until the rename.
    /// Temporary files that killed processes left behind are removed first. Do not build the same
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

    /// Deletes temporary files (and their companions) of this target whose process is gone.
    static func removeStaleTemporaryFiles(for target: URL) {
        let directory = target.deletingLastPathComponent()
        let prefix = temporaryPrefix(for: target)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            var rest = Substring(name.dropFirst(prefix.count))
            for suffix in companionSuffixes.dropFirst() where rest.hasSuffix(suffix) {
                rest = rest.dropLast(suffix.count)
                break
            }
            guard let processID = Int32(rest), processID > 0, !isProcessAlive(processID) else { continue }
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
    }

    /// Signal 0 only checks: EPERM means the process exists but belongs to someone else.
    private static func isProcessAlive(_ processID: Int32) -> Bool {
        kill(processID, 0) == 0 || errno == EPERM
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
