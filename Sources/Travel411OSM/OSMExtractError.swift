import Foundation
import Travel411Core

/// An OpenStreetMap extract that cannot be read. The message names the file and, where known, the element the
/// fault came after (PBF blocks and XML lines are where libosmium says) and what to do.
public struct OSMExtractError: Travel411Error, Hashable {
    /// The file as it was given.
    public let file: String
    public let message: String
    public let exitStatus: ExitStatus

    public init(file: String, message: String, exitStatus: ExitStatus = .dataError) {
        self.file = file
        self.message = message
        self.exitStatus = exitStatus
    }

    public var description: String { "\(DisplayText.sanitized(file, limit: 400)): \(message)" }
}
