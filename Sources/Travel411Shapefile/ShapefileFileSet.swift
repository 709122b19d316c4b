import Foundation
import Travel411Core

/// The files that make up one shapefile, found next to the .shp.
struct ShapefileFileSet {
    let shp: String
    let shx: String?
    let dbf: String?
    let prj: String?
    let cpg: String?

    /// - Parameter path: "roads.shp" or "roads". Extensions may be all lower or all upper case (shapelib tries both).
    init(path: String) throws {
        let base = path.lowercased().hasSuffix(".shp") ? String(path.dropLast(4)) : path
        guard let shp = Self.existing(base, "shp") else {
            throw ShapefileError(file: base + ".shp", message: Self.missingMessage(base + ".shp"))
        }
        self.shp = shp
        shx = Self.existing(base, "shx")
        dbf = Self.existing(base, "dbf")
        prj = Self.existing(base, "prj")
        cpg = Self.existing(base, "cpg")
    }

    /// The path of a required sidecar, or the error that names it.
    func required(_ sidecar: String?, extension fileExtension: String) throws -> String {
        if let sidecar { return sidecar }
        let expected = String(shp.dropLast(4)) + "." + fileExtension
        var message = Self.missingMessage(expected)
        if fileExtension == "shx" {
            // The index only repeats where each record starts; GDAL can rebuild it from the .shp.
            let name = URL(fileURLWithPath: shp).deletingPathExtension().lastPathComponent
            message += "; GDAL rebuilds a lost index: `ogr2ogr --config SHAPE_RESTORE_SHX YES \(name)_fixed.shp \(name).shp`"
        }
        throw ShapefileError(file: expected, message: message)
    }

    private static func missingMessage(_ file: String) -> String {
        "\(file) is missing: a shapefile needs .shp, .shx and .dbf"
    }

    private static func existing(_ base: String, _ fileExtension: String) -> String? {
        [base + "." + fileExtension, base + "." + fileExtension.uppercased()]
            .first { FileManager.default.fileExists(atPath: $0) }
    }
}
