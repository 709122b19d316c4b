import CShapelib
import Foundation
import Travel411Core
import Travel411Import
import Travel411Shapefile
import Travel411Store

/// Writes real shapefiles with shapelib, for tests that need input files.
///
///     let shp = try TestShapefileWriter.write(
///         directory: directory, name: "towns", kind: .point,
///         fields: [.string("NAME"), .integer("POP")],
///         records: [.point(x: -0.1, y: 51.5, values: ["London", 8_800_000]), .null(values: [nil, nil])])
///
/// Geometry is written exactly as given (rings are not rewound), so tests control ring orientation.
enum TestShapefileWriter {
    /// Shape types as the specification numbers them; the Z and M variants get made-up z/m values.
    enum Kind: Int32 {
        case point = 1, polyline = 3, polygon = 5, multiPoint = 8
        case pointZ = 11, polylineZ = 13, polygonZ = 15, multiPointZ = 18
        case pointM = 21, polylineM = 23, polygonM = 25, multiPointM = 28
        case multiPatch = 31

        var hasZ: Bool { [11, 13, 15, 18, 31].contains(rawValue) }
        var hasM: Bool { hasZ || [21, 23, 25, 28].contains(rawValue) }
    }

    struct Field {
        enum FieldType { case string, integer, double, logical, date }
        var name: String
        var type: FieldType
        var width: Int
        var decimals: Int

        static func string(_ name: String, width: Int = 50) -> Field { Field(name: name, type: .string, width: width, decimals: 0) }
        static func integer(_ name: String, width: Int = 11) -> Field { Field(name: name, type: .integer, width: width, decimals: 0) }
        static func double(_ name: String, width: Int = 19, decimals: Int = 8) -> Field {
            Field(name: name, type: .double, width: width, decimals: decimals)
        }
        static func logical(_ name: String) -> Field { Field(name: name, type: .logical, width: 1, decimals: 0) }
        static func date(_ name: String) -> Field { Field(name: name, type: .date, width: 8, decimals: 0) }
    }

    /// One attribute value. Literals work: `"Paris"`, `42`, `1.5`, `true`, `nil`.
    enum Value: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
        ExpressibleByBooleanLiteral, ExpressibleByNilLiteral
    {
        case text(String)
        /// Raw bytes, stored as they are: for encoding tests. Must not contain 0.
        case bytes([UInt8])
        case integer(Int)
        case double(Double)
        case logical(Bool)
        case null

        init(stringLiteral value: String) { self = .text(value) }
        init(integerLiteral value: Int) { self = .integer(value) }
        init(floatLiteral value: Double) { self = .double(value) }
        init(booleanLiteral value: Bool) { self = .logical(value) }
        init(nilLiteral: ()) { self = .null }
    }

    struct Record {
        /// The parts of the shape (one part for points and multipoints); nil writes a Null shape.
        var parts: [[Point2D]]?
        var values: [Value]

        init(parts: [[Point2D]]?, values: [Value] = []) {
            self.parts = parts
            self.values = values
        }

        static func point(x: Double, y: Double, values: [Value] = []) -> Record {
            Record(parts: [[Point2D(x: x, y: y)]], values: values)
        }
        static func shape(_ parts: [[Point2D]], values: [Value] = []) -> Record { Record(parts: parts, values: values) }
        static func null(values: [Value] = []) -> Record { Record(parts: nil, values: values) }
    }

    struct WriteError: Error, CustomStringConvertible { let description: String }

    static let wgs84PRJ =
        #"GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]"#

    /// `[(x, y), …]` as points, to keep test geometry short.
    static func points(_ pairs: [(Double, Double)]) -> [Point2D] { pairs.map { Point2D(x: $0.0, y: $0.1) } }

    /// Writes `<name>.shp/.shx/.dbf`, plus `.prj` and `.cpg` unless they are nil, and returns the .shp URL.
    /// - Parameter languageDriver: byte 29 of the .dbf header (0x57 is "ANSI", 0 is "unspecified").
    @discardableResult
    static func write(
        directory: URL, name: String, kind: Kind, fields: [Field] = [], records: [Record],
        prj: String? = wgs84PRJ, cpg: String? = "UTF-8", languageDriver: UInt8 = 0
    ) throws -> URL {
        let base = directory.appendingPathComponent(name).path
        try writeShapes(base: base, kind: kind, records: records)
        try writeTable(base: base, fields: fields, records: records, languageDriver: languageDriver)
        if let prj { try prj.write(toFile: base + ".prj", atomically: true, encoding: .utf8) }
        if let cpg { try cpg.write(toFile: base + ".cpg", atomically: true, encoding: .utf8) }
        return URL(fileURLWithPath: base + ".shp")
    }

    /// A fresh empty directory; remove it in tearDown.
    static func makeTemporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("travel411-tests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    private static func writeShapes(base: String, kind: Kind, records: [Record]) throws {
        guard let handle = SHPCreate(base, kind.rawValue) else { throw WriteError(description: "SHPCreate failed for \(base)") }
        defer { SHPClose(handle) }
        for (index, record) in records.enumerated() {
            let object: UnsafeMutablePointer<SHPObject>?
            if let parts = record.parts {
                let vertices = parts.flatMap { $0 }
                var starts: [Int32] = []
                var next = 0
                for part in parts {
                    starts.append(Int32(next))
                    next += part.count
                }
                let xs = vertices.map(\.x), ys = vertices.map(\.y)
                let zs = vertices.indices.map { 100 + Double($0) }, ms = vertices.indices.map { 200 + Double($0) }
                object = SHPCreateObject(
                    kind.rawValue, -1, Int32(parts.count), starts, nil, Int32(vertices.count),
                    xs, ys, kind.hasZ ? zs : nil, kind.hasM ? ms : nil)
            } else {
                object = SHPCreateObject(0, -1, 0, nil, nil, 0, nil, nil, nil, nil)
            }
            guard let object else { throw WriteError(description: "SHPCreateObject failed for record \(index + 1)") }
            defer { SHPDestroyObject(object) }
            guard SHPWriteObject(handle, -1, object) >= 0 else {
                throw WriteError(description: "SHPWriteObject failed for record \(index + 1)")
            }
        }
    }

    private static func writeTable(base: String, fields: [Field], records: [Record], languageDriver: UInt8) throws {
        guard let handle = DBFCreateEx(base + ".dbf", "LDID/\(languageDriver)") else {
            throw WriteError(description: "DBFCreateEx failed for \(base).dbf")
        }
        defer { DBFClose(handle) }
        // A table needs a column; shapefiles without attributes conventionally get an "FID" one.
        let columns = fields.isEmpty ? [Field.integer("FID")] : fields
        for field in columns {
            let type: CShapelib.DBFFieldType  // Travel411Kit has its own DBFFieldType
            switch field.type {
            case .string: type = FTString
            case .integer: type = FTInteger
            case .double: type = FTDouble
            case .logical: type = FTLogical
            case .date: type = FTDate
            }
            guard DBFAddField(handle, field.name, type, Int32(field.width), Int32(field.decimals)) >= 0 else {
                throw WriteError(description: "DBFAddField failed for \(field.name)")
            }
        }
        for (row, record) in records.enumerated() {
            let values = fields.isEmpty ? [Value.integer(row)] : record.values
            for (column, value) in values.enumerated() {
                let written: Int32
                let (row32, column32) = (Int32(row), Int32(column))
                switch value {
                case .text(let text): written = writeRaw(Array(text.utf8), handle, row32, column32)
                case .bytes(let bytes): written = writeRaw(bytes, handle, row32, column32)
                case .integer(let number):
                    written =
                        Int32(exactly: number).map { DBFWriteIntegerAttribute(handle, row32, column32, $0) }
                        ?? writeRaw(Array(String(number).utf8), handle, row32, column32)
                case .double(let number): written = DBFWriteDoubleAttribute(handle, row32, column32, number)
                case .logical(let flag): written = DBFWriteLogicalAttribute(handle, row32, column32, CChar(UInt8(ascii: flag ? "T" : "F")))
                case .null: written = DBFWriteNULLAttribute(handle, row32, column32)
                }
                guard written != 0 else { throw WriteError(description: "writing record \(row + 1), field \(column + 1) failed") }
            }
            if values.isEmpty { _ = DBFWriteNULLAttribute(handle, Int32(row), 0) }
        }
    }

    private static func writeRaw(_ bytes: [UInt8], _ handle: DBFHandle, _ row: Int32, _ column: Int32) -> Int32 {
        var terminated = bytes.map { CChar(bitPattern: $0) } + [0]
        return DBFWriteAttributeDirectly(handle, row, column, &terminated)
    }
}
