import Foundation

/// Turns the paths a user gave into the shapefiles to import, in a stable order.
package enum ShapefileDiscovery {
    package struct NotFound: Travel411Error {
        let path: String
        let reason: String

        package init(path: String, reason: String) {
            self.path = path
            self.reason = reason
        }

        package var description: String { "\(path): \(reason)" }
        package var exitStatus: ExitStatus { .noInput }
    }

    /// Folders are searched recursively for `.shp` files, leaving out hidden ones: archives made on a Mac
    /// hold AppleDouble companions such as `._roads.shp` (also under `__MACOSX/`) that are not shapefiles.
    /// A file may be given with or without `.shp`.
    package static func shapefiles(in paths: [URL]) throws -> [URL] {
        var found: [URL] = []
        let fileManager = FileManager.default
        for path in paths {
            var isDirectory: ObjCBool = false
            if fileManager.fileExists(atPath: path.path, isDirectory: &isDirectory), isDirectory.boolValue {
                // The enumerator does not descend into a folder given as a symbolic link (a `maps` link to an
                // external disk), so it walks the folder linked to and the paths are put back under the name given.
                let target = path.resolvingSymlinksInPath()
                let enumerator = fileManager.enumerator(at: target, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles])
                let inFolder = (enumerator?.allObjects as? [URL] ?? [])
                    .filter { $0.pathExtension.lowercased() == "shp" && !$0.lastPathComponent.hasPrefix(".") }
                    .map { found in Self.relocate(found, from: target, to: path) }
                    .sorted { $0.path < $1.path }
                if inFolder.isEmpty { throw NotFound(path: path.path, reason: "no .shp files in this folder") }
                found += inFolder
            } else if path.pathExtension.lowercased() == "shp" {
                guard fileManager.fileExists(atPath: path.path) else { throw NotFound(path: path.path, reason: "no such file") }
                found.append(path)
            } else if fileManager.fileExists(atPath: path.path + ".shp") {
                found.append(URL(fileURLWithPath: path.path + ".shp"))
            } else if fileManager.fileExists(atPath: path.path) {
                let kinds = "a shapefile (.shp), an OpenStreetMap extract (.osm.pbf, .osm, .osm.bz2, .osm.gz) or a folder of them"
                throw NotFound(path: path.path, reason: "not \(kinds)")
            } else {
                throw NotFound(path: path.path, reason: "no such file or folder")
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0.standardizedFileURL.path).inserted }
    }

    /// `url`, found under `folder`, as the same relative path under `name`.
    private static func relocate(_ url: URL, from folder: URL, to name: URL) -> URL {
        let prefix = folder.standardizedFileURL.path
        let path = url.standardizedFileURL.path
        guard folder != name, path.hasPrefix(prefix + "/") else { return url }
        return name.appendingPathComponent(String(path.dropFirst(prefix.count + 1)))
    }

    /// The files whose bytes define a layer: the checksum changes when any of them does. Extensions may be
    /// all lower or all upper case (ROADS.SHP, ROADS.DBF), as the reader accepts them.
    package static func componentFiles(of shp: URL) -> [URL] {
        let base = shp.deletingPathExtension()
        return ["shp", "shx", "dbf", "prj", "cpg"].compactMap { fileExtension in
            [fileExtension, fileExtension.uppercased()].map { base.appendingPathExtension($0) }
                .first { FileManager.default.fileExists(atPath: $0.path) }
        }
    }
}
