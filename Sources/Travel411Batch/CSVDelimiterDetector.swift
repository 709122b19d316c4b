/// Decides a CSV input's delimiter from its header, once per run: `;` when the first record holds
/// semicolons outside quotes and more of them than commas (as spreadsheets in much of Europe
/// write CSV), else `,`. Blank lines before the header are skipped, as the header reader does.
///
/// Quotes are read as the record splitter reads them, with either `,` or `;` ending a field, so a
/// quoted header name holding `;` does not make a comma file look like a semicolon file.
enum CSVDelimiterDetector {
    private enum State { case fieldStart, unquoted, quoted, quoteInQuoted }

    static func delimiter(ofHeaderIn sample: UnsafeBufferPointer<UInt8>) -> CSVDelimiter {
        let quote = UInt8(ascii: "\""), newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
        let semicolon = UInt8(ascii: ";"), comma = UInt8(ascii: ",")
        var semicolons = 0
        var commas = 0
        var isBlankSoFar = true
        var state = State.fieldStart
        scan: for byte in sample {
            switch state {
            case .quoted:
                if byte == quote { state = .quoteInQuoted }
                continue
            case .quoteInQuoted:
                if byte == quote {
                    state = .quoted  // a doubled quote: still inside
                    continue
                }
                state = .unquoted  // the closing quote: this byte is outside
            case .fieldStart, .unquoted:
                break
            }
            if byte == newline {
                if !isBlankSoFar { break scan }
                state = .fieldStart
                continue
            }
            if byte == carriageReturn { continue }
            isBlankSoFar = false
            if byte == semicolon {
                semicolons += 1
                state = .fieldStart
            } else if byte == comma {
                commas += 1
                state = .fieldStart
            } else if byte == quote && state == .fieldStart {
                state = .quoted
            } else {
                state = .unquoted
            }
        }
        return semicolons > commas ? .semicolon : .comma
    }
}
