import Foundation
import Travel411Core
import Travel411Store

/// Telling a database's sources apart from a copy of them needs their checksums, which only the import makes.
extension ImportedSources {
    /// Whether every source is, byte for byte, a shapefile of `folder` at the same place below it: the
    /// same data in another copy of it (a second clone, a moved install). Each source's path is matched
    /// by its longest tail that names a shapefile in `folder`, and its recorded checksum must equal that
    /// file's. Reads the candidate files once; meant for the rare outdated database, not for every open.
    func areAll(copiesOf folder: URL) -> Bool {
        guard !paths.isEmpty, mapping == nil else { return false }
        return paths.allSatisfy { path in
            guard let recorded = checksums[path], let copy = Self.counterpart(of: path, in: folder),
                let sum = try? SourceChecksum.sha256Hex(ofFiles: ShapefileDiscovery.componentFiles(of: copy))
            else { return false }
            return sum == recorded
        }
    }

    /// The file in `folder` whose path below it is the longest tail of `path`: for
    /// /old/clone/Data/countries/x.shp and folder /new/Data, /new/Data/countries/x.shp.
    private static func counterpart(of path: String, in folder: URL) -> URL? {
        let components = URL(fileURLWithPath: path).pathComponents
        for start in components.indices.dropFirst() {
            let candidate = components[start...].reduce(folder) { $0.appendingPathComponent($1) }
            if FileManager.default.fileExists(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}
