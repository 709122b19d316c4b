import Travel411Core

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

    /// The name `--delimiter` takes, which needs no quoting in a shell.
    public var name: String {
        switch self {
        case .comma: "comma"
        case .semicolon: "semicolon"
        case .tab: "tab"
        case .pipe: "pipe"
        }
    }

    /// Parses a `--delimiter` value: a name (`comma`, `semicolon`, `tab`, `pipe`) or the character itself
    /// (`,` `;` `|`, a tab, or `\t`).
    public init(parsing argument: String) throws {
        switch argument.lowercased() {
        case ",", "comma": self = .comma
        case ";", "semicolon": self = .semicolon
        case "|", "pipe": self = .pipe
        case "\t", "\\t", "tab": self = .tab
        default:
            throw BatchError(
                "--delimiter must be one of comma (','), semicolon (';'), tab or pipe ('|'); got '\(DisplayText.sanitized(argument, limit: 20))'"
            )
        }
    }
}
