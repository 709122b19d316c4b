import CShapelib
import Foundation

/// Locates the repository's test fixtures and Data/ folder, and stages fixture shapefiles in a temporary
/// directory for tests that need to change or complete them.
enum ShapefileFixtures {
    /// The repository root, found from this file's path (Tests/Travel411KitTests/Shapefile/…).
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let shapefiles = repositoryRoot.appendingPathComponent("Tests/Fixtures/shapefiles")
    static let data = repositoryRoot.appendingPathComponent("Data")

    /// `Tests/Fixtures/shapefiles/<source>/<name>.shp`
    static func path(_ source: String, _ name: String) -> String {
        shapefiles.appendingPathComponent(source).appendingPathComponent(name + ".shp").path
    }

    /// Copies every `<name>.*` of a fixture into `directory` (leaving out `omitting` extensions) and returns the
    /// copy's .shp path. With `restoringIndex`, writes the .shx some samples lack, using shapelib's SHPRestoreSHX.
    static func stage(
        _ source: String, _ name: String, in directory: URL, omitting: Set<String> = [],
        restoringIndex: Bool = false
    ) throws -> String {
        let sourceDirectory = shapefiles.appendingPathComponent(source)
        for file in try FileManager.default.contentsOfDirectory(atPath: sourceDirectory.path) {
            let url = URL(fileURLWithPath: file)
            guard url.deletingPathExtension().lastPathComponent == name,
                !omitting.contains(url.pathExtension.lowercased())
            else { continue }
            try FileManager.default.copyItem(
                at: sourceDirectory.appendingPathComponent(file),
                to: directory.appendingPathComponent(file))
        }
        let shp = directory.appendingPathComponent(name + ".shp").path
        var hooks = SAHooks()
        SASetupDefaultHooks(&hooks)
        if restoringIndex, SHPRestoreSHX(shp, "rb", &hooks) == 0 {
            throw TestShapefileWriter.WriteError(description: "SHPRestoreSHX failed for \(shp)")
        }
        return shp
    }
}
