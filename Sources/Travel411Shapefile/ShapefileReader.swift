import CShapelib
import Travel411Core

/// Reads one shapefile (.shp with its .shx, .dbf and optional .prj and .cpg) for import.
///
/// Opening checks everything that can be checked up front: that the files exist and are shapefiles, that
/// every .shx entry points at a whole record inside the .shp, that the DBF is complete, that the coordinate
/// system is WGS 84 longitude/latitude, and how text is encoded. Corruption is thus reported before anything
/// is imported. Records are then read one at a time through shapelib.
///
/// Not thread-safe: use one reader per thread.
public final class ShapefileReader {
    /// The .shp path.
    public let path: String
    public let geometryKind: ShapefileGeometryKind
    public let recordCount: Int
    public let fields: [DBFField]
    /// What was used to decode text, e.g. "UTF-8 (.cpg)" or "windows-1252 (DBF code page 0x57)".
    public let encodingName: String
    /// From the .shp header.
    public let boundingBox: BoundingBox
    /// The file holds at most this many vertices: each takes 16 bytes of the .shp after its 100-byte header.
    public let maximumVertexCount: Int
    /// Things the user should know that did not stop the reading, oldest first.
    public private(set) var warnings: [String]

    private static let maxWarnings = 100
    private var suppressedWarnings = 0

    private let handle: SHPHandle
    private let table: DBFTable
    private let messages = ShapelibMessageSink()
    private let builder: ShapeRecordBuilder

    /// - Parameter path: "roads.shp", or "roads" without the extension.
    public init(path: String) throws {
        let files = try ShapefileFileSet(path: path)
        let shp = try MappedFile(path: files.shp)
        let shpHeader = try ShapefileMainHeader(of: shp, role: "a shapefile")
        let kind = try Self.geometryKind(of: shpHeader.shapeType, path: files.shp)
        let shxPath = try files.required(files.shx, extension: "shx")
        let dbfPath = try files.required(files.dbf, extension: "dbf")

        var warnings: [String] = []
        try CoordinateSystemRequirement.check(prjPath: files.prj, shpPath: files.shp, warnings: &warnings)
        try CoordinateSystemRequirement.checkDegrees(shpHeader.boundingBox, shpPath: files.shp, warnings: &warnings)

        let shx = try MappedFile(path: shxPath)
        let shxHeader = try ShapefileMainHeader(of: shx, role: "a shapefile index (.shx)")
        let recordCount = try ShapeRecordTableCheck.verify(
            shp: shp, shpHeader: shpHeader, shx: shx, shxHeader: shxHeader, warnings: &warnings)

        let table = try DBFTable(path: dbfPath, codePageFile: files.cpg, messages: messages, warnings: &warnings)
        if table.recordCount < recordCount {
            throw ShapefileError.at(
                dbfPath, record: table.recordCount + 1,
                "is missing: the table has \(table.recordCount) records but \(files.shp) has \(recordCount) shapes")
        } else if table.recordCount > recordCount {
            warnings.append(
                "\(dbfPath) has \(table.recordCount) records but \(files.shp) has only \(recordCount) shapes; the extra records are ignored"
            )
        }

        var hooks = ShapelibMessageSink.makeHooks()
        let opened = messages.collect { SHPOpenLL(files.shp, "rb", &hooks) }
        let openMessages = messages.take()
        guard let handle = opened else {
            let detail = openMessages.isEmpty ? "" : " (\(openMessages.joined(separator: "; ")))"
            throw ShapefileError.at(files.shp, "cannot be opened by shapelib\(detail)")
        }
        // Fast mode reuses one object's buffers for every read instead of allocating them per record.
        SHPSetFastModeReadObject(handle, 1)

        self.path = files.shp
        self.geometryKind = kind
        self.recordCount = recordCount
        self.fields = table.fields
        self.encodingName = table.encodingDescription
        self.boundingBox = shpHeader.boundingBox
        self.maximumVertexCount = max(0, (shp.count - 100) / 16)
        self.warnings = []
        self.handle = handle
        self.table = table
        self.builder = ShapeRecordBuilder(shpPath: files.shp, kind: kind)
        (warnings + openMessages.map { "\(files.shp): \($0)" }).forEach(addWarning)
    }

    deinit { SHPClose(handle) }

    /// The index of the field called `name`, ignoring case.
    public func fieldIndex(_ name: String) -> Int? {
        let wanted = name.lowercased()
        return fields.firstIndex { $0.name.lowercased() == wanted }
    }

    /// The geometry of record `index` (0-based).
    /// - Throws: `ShapefileError` for structural corruption that the checks on opening could not see.
    public func record(at index: Int) throws -> ShapeRecord {
        guard (0..<recordCount).contains(index) else {
            throw ShapefileError.at(path, record: index + 1, "does not exist: the file has \(recordCount) records")
        }
        let object = messages.collect { SHPReadObject(handle, Int32(index)) }
        let readMessages = messages.take()
        guard let object else {
            let reason =
                readMessages.isEmpty
                ? "shapelib cannot read it" : "shapelib reports “\(readMessages.joined(separator: "; "))”"
            throw ShapefileError.at(path, record: index + 1, "is corrupt: \(reason)")
        }
        defer { SHPDestroyObject(object) }
        readMessages.forEach { addWarning("\(path), record \(index + 1): \($0)") }
        return try builder.record(from: object.pointee, number: index + 1, warn: addWarning)
    }

    /// The text of a field, decoded and trimmed; nil for DBF null or blank values.
    public func string(record: Int, field: Int) -> String? {
        table.string(record: record, field: field)
    }

    /// A number parsed from a field; nil for null, blank or non-numeric values.
    public func double(record: Int, field: Int) -> Double? {
        table.double(record: record, field: field)
    }

    /// A whole number parsed from a field; nil for null, blank, fractional or out-of-range values.
    public func integer(record: Int, field: Int) -> Int64? {
        table.integer(record: record, field: field)
    }

    /// A logical field: T/Y true, F/N false, nil for "?" or blank.
    public func bool(record: Int, field: Int) -> Bool? {
        table.bool(record: record, field: field)
    }

    /// Lets go of the memory that the attributes of the records before `record` took when read: a reader
    /// walking a big table from start to end then holds a little of it at a time rather than all of it.
    /// Reading them again still works, from the file.
    public func releaseAttributes(before record: Int) {
        table.release(before: record)
    }

    /// Whether the DBF marks the record as deleted (most tools skip such records).
    public func isDeleted(record: Int) -> Bool {
        table.isDeleted(record: record)
    }

    private func addWarning(_ warning: String) {
        if warnings.count < Self.maxWarnings {
            warnings.append(warning)
            return
        }
        suppressedWarnings += 1
        let summary = "… and \(suppressedWarnings) more warnings"
        if suppressedWarnings == 1 { warnings.append(summary) } else { warnings[warnings.count - 1] = summary }
    }

    private static func geometryKind(of shapeType: Int32, path: String) throws -> ShapefileGeometryKind {
        if let kind = ShapeTypeCode.kind(of: shapeType) { return kind }
        switch shapeType {
        case ShapeTypeCode.multiPatch:
            throw ShapefileError.at(
                path, "has unsupported shape type MultiPatch: only points, multipoints, polylines and polygons can be imported")
        case ShapeTypeCode.null:
            throw ShapefileError.at(path, "has shape type Null: it holds no geometry to import")
        default:
            throw ShapefileError.at(path, "has unknown shape type \(shapeType): the file is corrupt or not a shapefile")
        }
    }
}
