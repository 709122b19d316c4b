import Foundation

/// A folder for the files that tests of one process share (a database imported once and read by many
/// tests), removed when the process exits. A static value is never deinitialised, so a folder held by
/// one would otherwise stay behind in /tmp after every run: the shared extract imports take 339 MB.
public enum ProcessScratch {
    public static let folder: URL = {
        removeFoldersOfEndedProcesses()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)\(getpid())")
        try? FileManager.default.removeItem(at: folder)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            fatalError("cannot create the tests' scratch folder \(folder.path): \(error)")
        }
        atexit { try? FileManager.default.removeItem(at: ProcessScratch.folder) }
        return folder
    }()

    private static let prefix = "travel411-tests-"

    /// A run stopped by a signal (Ctrl-C, a crash) never reaches its exit handler: its folder is removed
    /// by the next run, once no process has its number.
    private static func removeFoldersOfEndedProcesses() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            guard let pid = pid_t(name.dropFirst(prefix.count)), kill(pid, 0) != 0, errno == ESRCH else { continue }
            try? FileManager.default.removeItem(at: temporary.appendingPathComponent(name))
        }
    }

    /// A path in the folder; `name` may hold subfolders, which are created.
    public static func path(_ name: String) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        return url.path
    }
}
