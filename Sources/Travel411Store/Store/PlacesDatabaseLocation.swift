import Foundation
import Travel411Core

/// Where the places database and the embedded default data live.
public enum PlacesDatabaseLocation {
    /// `--db`, else `$TRAVEL411_DB`, else `$XDG_DATA_HOME/travel411/places.gpkg` (XDG's default `~/.local/share`).
    public static func resolve(explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicitPath, !explicitPath.isEmpty { return explicitPath }
        if let path = environment["TRAVEL411_DB"], !path.isEmpty { return path }
        return userDataDirectory(environment: environment).appendingPathComponent("places.gpkg").path
    }

    /// Refuses a database path that names a folder before an import starts: `--db ~/maps` meant a file in it, and
    /// the import would fail only at its end, moving the finished database into place.
    package static func refuseFolder(_ path: String) throws {
        guard FileManager.default.isFolder(atPath: path) else { return }
        let example = URL(fileURLWithPath: path).appendingPathComponent("places.gpkg").path
        throw UserFacingError("\(path) is a folder; the places database is a file (e.g. --db \(example))", exitStatus: .usage)
    }

    /// `$XDG_DATA_HOME/travel411`, defaulting to `~/.local/share/travel411`.
    public static func userDataDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let xdg = environment["XDG_DATA_HOME"], !xdg.isEmpty {
            base = URL(fileURLWithPath: xdg, isDirectory: true)
        } else {
            let home =
                environment["HOME"].map { URL(fileURLWithPath: $0, isDirectory: true) }
                ?? FileManager.default.homeDirectoryForCurrentUser
            base = home.appendingPathComponent(".local/share", isDirectory: true)
        }
        return base.appendingPathComponent("travel411", isDirectory: true)
    }
}

/// Finds the embedded default `Data/` folder.
public enum EmbeddedData {
    public struct NotFound: Travel411Error {
        public var description: String {
            "cannot find the embedded Data/ folder; run from the repository with `swift run`, or set TRAVEL411_DATA to its path"
        }
        public var exitStatus: ExitStatus { .noInput }
    }

    /// `$TRAVEL411_DATA`, else a `Data/` folder found by walking up from the executable and from this
    /// source file (which is where `swift run` and `swift test` find the repository).
    public static func locate(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> URL {
        if let path = environment["TRAVEL411_DATA"], !path.isEmpty {
            return URL(fileURLWithPath: path, isDirectory: true)
        }
        let starts = [
            URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent(),
            URL(fileURLWithPath: #filePath).deletingLastPathComponent(),
        ]
        for start in starts {
            var directory = start.standardizedFileURL
            while directory.path != "/" {
                let candidate = directory.appendingPathComponent("Data", isDirectory: true)
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent("countries").path) {
                    return candidate
                }
                directory.deleteLastPathComponent()
            }
        }
        throw NotFound()
    }
}
