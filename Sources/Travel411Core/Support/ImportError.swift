import Foundation

/// A layout the importer does not know, a mapping that does not fit the file, or a file that is no places
/// database: thrown by the importer and by the geocoder that opens what it wrote, so it lives below both.
public struct ImportError: Error, LocalizedError, CustomStringConvertible {
    public let message: String
    public let exitStatus: ExitStatus
    /// `exitStatus`: 65 (bad data) unless the input is missing altogether (66).
    public init(_ message: String, exitStatus: ExitStatus = .dataError) {
        self.message = message
        self.exitStatus = exitStatus
    }
    public var description: String { message }
    public var errorDescription: String? { message }
}

extension ImportError: Travel411Error {}
