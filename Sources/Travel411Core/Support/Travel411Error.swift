import Foundation

/// The exit codes travel411 uses, from BSD's sysexits.h so that scripts can tell the classes apart.
/// docs/exit-codes.md lists them for users; every error type picks one through `Travel411Error`.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    /// Success: every input answered.
    case success = 0
    /// Anything not covered below (an internal failure, a write that failed).
    case failure = 1
    /// EX_USAGE: the command line is wrong (bad or missing coordinates, unknown option values, options that cannot go together).
    case usage = 64
    /// EX_DATAERR: the input data is wrong (a broken shapefile, rows that could not be geocoded, an outdated places database).
    case dataError = 65
    /// EX_NOINPUT: a named input file does not exist or cannot be read.
    case noInput = 66
    /// EX_UNAVAILABLE: a needed service or part is missing (the server executable not built, no network for a URL).
    case unavailable = 69
    /// EX_CANTCREAT: an output file cannot be created.
    case cannotCreate = 73
    /// EX_IOERR: reading or writing failed part way.
    case ioError = 74
    /// EX_TEMPFAIL: try again later (the state file stayed locked by another process).
    case temporaryFailure = 75
}

/// An error with a message written for the user and the exit status it ends the command with.
/// The executable catches every error in one place, prints `travel411: error: <description>` on stderr
/// and exits with `exitStatus`, as Hummingbird's errors carry their own HTTP status.
public protocol Travel411Error: Error, CustomStringConvertible, LocalizedError {
    var exitStatus: ExitStatus { get }
}

extension Travel411Error {
    public var errorDescription: String? { description }
}

/// A plain message with an exit status, for the places that have nothing more specific to say.
public struct UserFacingError: Travel411Error {
    public let description: String
    public let exitStatus: ExitStatus

    public init(_ description: String, exitStatus: ExitStatus = .failure) {
        self.description = description
        self.exitStatus = exitStatus
    }
}

/// Text from input files shown in messages: control characters and other invisible bytes are escaped
/// so a binary file given as CSV cannot paint the terminal, and very long text is elided.
public enum DisplayText {
    public static func sanitized(_ text: String, limit: Int = 200) -> String {
        // Printable ASCII within the limit stays as it is (the server logs a path per request).
        if text.utf8.count <= limit, text.utf8.allSatisfy({ (0x20..<0x7F).contains($0) }) { return text }
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                result += "…"
                break
            }
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x09: result += "\\t"
            default:
                if isInvisible(scalar) {
                    result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
            count += 1
        }
        return result
    }

    /// A whole message about to be printed: line breaks and tabs stay, every other invisible character is
    /// escaped, as a last guard for messages that quoted input without `sanitized`.
    public static func escapingControls(_ message: String) -> String {
        guard message.unicodeScalars.contains(where: { isInvisible($0) }) else { return message }
        var result = ""
        for scalar in message.unicodeScalars {
            if isInvisible(scalar) {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func isInvisible(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: return false
        case 0x00..<0x20, 0x7F..<0xA0, 0xFFFD, 0x200B...0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }
}
