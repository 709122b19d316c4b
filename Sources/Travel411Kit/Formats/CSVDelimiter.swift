/// The byte between the fields of a CSV input. Spreadsheets in much of Europe write `;`, because
/// their numbers use a decimal comma; CSV output mirrors the input's delimiter.
public enum CSVDelimiter: String, CaseIterable, Sendable {
    case comma = ","
    case semicolon = ";"
    case tab = "tab"
    case pipe = "|"

    public var byte: UInt8 {
        switch self {
        case .comma: UInt8(ascii: ",")
        case .semicolon: UInt8(ascii: ";")
        case .tab: UInt8(ascii: "\t")
        case .pipe: UInt8(ascii: "|")
        }
    }

    /// Parses a `--delimiter` value: `,` `;` `|`, or `tab` (also written `\t`, or a tab itself).
    public init(argument: String) throws {
        switch argument {
        case ",": self = .comma
        case ";": self = .semicolon
        case "|": self = .pipe
        case "\t", "\\t": self = .tab
        case let name where name.lowercased() == "tab": self = .tab
        default:
            throw BatchError("--delimiter must be one of ',' ';' 'tab' '|'; got '\(argument)'")
        }
    }
}
