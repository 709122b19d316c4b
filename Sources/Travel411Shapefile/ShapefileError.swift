import Foundation
import Travel411Core

/// A shapefile that cannot be read, or a record whose bytes are corrupt.
///
/// The message names the file, the record (1-based, as users count) and the field where they are known,
/// so that the user can find the fault in their data without a debugger.
public struct ShapefileError: Error, LocalizedError, CustomStringConvertible {
    /// The file at fault, as it was opened.
    public let file: String
    /// The 1-based record number when the fault lies in one record.
    public let record: Int?
    /// The DBF field name when the fault lies in one field.
    public let field: String?
    /// The whole message, ready to show.
    public let message: String

    public init(file: String, record: Int? = nil, field: String? = nil, message: String) {
        self.file = file
        self.record = record
        self.field = field
        self.message = message
    }

    /// A fault located in a file, and maybe a record and a field. `reason` is a predicate, so that the
    /// message reads as a sentence: "roads.shx, record 17 points at bytes … past the end of roads.shp".
    static func at(_ file: String, record: Int? = nil, field: String? = nil, _ reason: String) -> ShapefileError {
        var location = file
        if let record { location += ", record \(record)" }
        if let field { location += ", field \(field)" }
        return ShapefileError(file: file, record: record, field: field, message: "\(location) \(reason)")
    }

    public var description: String { message }
    public var errorDescription: String? { message }
}

extension ShapefileError: Travel411Error {
    public var exitStatus: ExitStatus { .dataError }
}
