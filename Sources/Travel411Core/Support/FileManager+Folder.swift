import Foundation

extension FileManager {
    /// Whether `path` names an existing folder (a symbolic link to one counts).
    package func isFolder(atPath path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
