import Foundation
import Travel411Core

/// The `travel411 import` command line that repeats the import a places database was built by, for a
/// message to show: its shapefiles, its `--level`/`--name-field`, and `--db`.
package struct ReimportCommand {
    package let sources: ImportedSources
    let databasePath: String

    package var text: String {
        var arguments = Self.arguments(for: sources.paths)
        if let mapping = sources.mapping { arguments += ["--level", mapping.level, "--name-field", mapping.nameField] }
        arguments += ["--db", databasePath]
        return "travel411 import " + arguments.map(ShellQuoting.quoted).joined(separator: " ")
    }

    /// The shapefiles as the import was most likely given them: a run of them that is exactly what a
    /// folder holds (as `ShapefileDiscovery` finds it, same order) becomes that folder; other files stay
    /// files. Either way the import reads the same files in the same order.
    static func arguments(for paths: [String]) -> [String] {
        var arguments: [String] = []
        var start = paths.startIndex
        while start < paths.endIndex {
            if let run = folderRun(startingAt: start, in: paths) {
                arguments.append(run.folder)
                start += run.count
            } else {
                arguments.append(paths[start])
                start += 1
            }
        }
        return arguments
    }

    /// Climbs from the folder of `paths[start]` while each folder's shapefiles are the next ones of
    /// `paths`, and takes the lowest folder of the longest run: a folder above it that holds nothing else
    /// is not what the user typed. A folder that stands for one file only is not worth it.
    private static func folderRun(startingAt start: Int, in paths: [String]) -> (folder: String, count: Int)? {
        var best: (folder: String, count: Int)?
        var folder = URL(fileURLWithPath: paths[start]).deletingLastPathComponent()
        while folder.path != "/", let found = shapefiles(in: folder), found.count <= paths.count - start,
            zip(found, paths[start...]).allSatisfy({ ImportedSources.resolved($0.path) == ImportedSources.resolved($1) })
        {
            if found.count > best?.count ?? 0 { best = (folder.path, found.count) }
            folder.deleteLastPathComponent()
        }
        guard let best, best.count > 1 else { return nil }
        return best
    }

    /// A message must not stall on a folder such as a home directory, so a big one is not searched.
    static let maximumFolderEntries = 10_000

    private static func shapefiles(in folder: URL) -> [URL]? {
        guard let entries = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
        else { return nil }
        var count = 0
        while entries.nextObject() != nil {
            count += 1
            if count > maximumFolderEntries { return nil }
        }
        return try? ShapefileDiscovery.shapefiles(in: [folder])
    }
}
