import Foundation
import Travel411Core
import Travel411Store

/// Where the travel state lives: `--state`, else `$TRAVEL411_STATE`, else
/// `$XDG_DATA_HOME/travel411/travel.sqlite`. It is never the places database.
public enum TravelStateLocation {
    public static let fileName = "travel.sqlite"

    public static func resolve(explicitPath: String?, environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        if let explicitPath, !explicitPath.isEmpty { return explicitPath }
        if let path = environment["TRAVEL411_STATE"], !path.isEmpty { return path }
        return PlacesDatabaseLocation.userDataDirectory(environment: environment).appendingPathComponent(fileName).path
    }

    /// Resolves the path, refuses the places database, and creates the default folder when missing
    /// (a path the user named must have its folder already, so a typo is not silently created).
    public static func prepare(
        explicitPath: String?, placesDatabasePath: String?,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) throws -> String {
        let path = resolve(explicitPath: explicitPath, environment: environment)
        let places = PlacesDatabaseLocation.resolve(explicitPath: placesDatabasePath, environment: environment)
        if canonical(path) == canonical(places) { throw TravelStoreError.isPlacesDatabase(path: path) }
        let isDefault = (explicitPath ?? "").isEmpty && (environment["TRAVEL411_STATE"] ?? "").isEmpty
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
        var isFolder: ObjCBool = false
        let folderExists = FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder) && isFolder.boolValue
        if !isDefault && !folderExists {
            throw TravelStoreError.cannotOpen(path: path, detail: "its folder \(folder.path) does not exist")
        }
        if isDefault && !folderExists {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw TravelStoreError.cannotOpen(path: path, detail: "cannot create \(folder.path): \(error.localizedDescription)")
            }
        }
        return path
    }

    /// Absolute, with symlinks resolved, so two spellings of one file compare equal.
    static func canonical(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
    }
}
