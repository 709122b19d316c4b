import Travel411Core

/// The decimal separators coordinate text may use, decided once per run from the input's field
/// delimiter. Where fields are not separated by commas (semicolon CSV from European spreadsheets,
/// TSV), "51,47" is read as 51.47; in comma CSV it stays an error, and the comma path pays nothing.
enum DecimalMark: Sendable, Equatable {
    case point
    /// A decimal point, or one decimal comma between digits.
    case pointOrComma

    init(fieldDelimiter: UInt8) {
        self = fieldDelimiter == UInt8(ascii: ",") ? .point : .pointOrComma
    }

    /// The number in `bytes[start..<end]`, or nil. A decimal comma is only tried once the point
    /// grammar has failed, so well-formed values take the same path in every file.
    @inline(__always)
    package func parse(_ bytes: UnsafePointer<UInt8>, from start: Int, to end: Int) -> Double? {
        if let value = DecimalParser.parse(bytes, from: start, to: end) { return value }
        return self == .pointOrComma ? DecimalParser.parseDecimalComma(bytes, from: start, to: end) : nil
    }
}
