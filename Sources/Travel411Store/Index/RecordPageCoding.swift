import Foundation
import Travel411Core

/// The stored form of a page of records (`PagedRecords`: the streets' and objects' records, the points' records)
/// in a database with an OpenStreetMap extract: the same page, field by field, with the text that holds numbers
/// stored as numbers. A street's extent `9.4945454 47.1687447 9.5004734 47.1696486` becomes 1e-7 steps (its
/// corner from the record before's, the far corner from the near one), an element `W1345` a letter and a step from
/// the id before, a rank or street number a step from the one before, and a field with few distinct values
/// (`residential`, `highway=bus_stop`) an index into the page's list of them. A value is stored as a number only
/// when writing the number again gives its very bytes (`0.5000000`, not `.5` or `-0.0000000`), so every page
/// decodes to exactly the bytes it was built as and no answer moves; the rest stays text. `RecordTable` reads the
/// decoded page as before.
///
/// Layout: u32 0xFFFFFFFF (no plain page starts so: it starts with its record count), varints recordCount and
/// fieldCount, a byte 1 when the records have coordinates (then recordCount × two little-endian doubles), then
/// each field's column: a byte naming its `Column` kind and its values, record by record.
package enum RecordPageCoding {
    package static let marker: UInt32 = 0xFFFF_FFFF

    enum Column: UInt8 {
        /// Each value's length, then the bytes of all.
        case text = 0
        /// The page's distinct values (count, lengths, bytes), then each record's index among them.
        case dictionary = 1
        /// 0 for an empty value, else the zigzag step from the column's value before, plus one.
        case integer = 2
        /// 0 for an empty value, else 1, 2 or 3 (`N`, `W`, `R`) then the zigzag step from the column's id before.
        case element = 3
        /// The count of seven-decimal numbers (0 for an empty value), then each as a zigzag 1e-7 step: the first two
        /// from the first two of an earlier decimal field of the record when one has two (a centroid from its
        /// street's extent's corner), else from the column's value before; the others from the number two before.
        case decimals = 4
    }

    static let elementLetters: [UInt8] = [UInt8(ascii: "N"), UInt8(ascii: "W"), UInt8(ascii: "R")]
    /// 17 digits stay inside Int64 after the seven decimals' scaling, with room for steps between them.
    private static let maximumDigits = 17

    /// Whether a page (as inflated) is in this form.
    package static func isCoded(_ page: UnsafeRawBufferPointer) -> Bool {
        page.count >= 4 && page.loadUnaligned(as: UInt32.self) == marker.littleEndian
    }

    // MARK: Encoding

    /// The stored form of a plain page (`RecordTable.build`); the page as it is when it is not one.
    /// The stored form is checked by decoding it: a page it would not give back bit for bit is kept as it is.
    package static func encode(_ page: [UInt8]) -> [UInt8] {
        let coded = encoded(page)
        let same = coded.withUnsafeBytes { stored in
            (try? decode(stored)).map { UnsafeRawBufferPointer(start: $0.base, count: $0.count).elementsEqual(page) } ?? false
        }
        return same ? coded : page
    }

    private static func encoded(_ page: [UInt8]) -> [UInt8] {
        guard let table = PlainPage(page) else { return page }
        var out = VarintWriter(capacity: page.count / 2)
        withUnsafeBytes(of: marker.littleEndian) { out.bytes.append(contentsOf: $0) }
        out.append(UInt64(table.recordCount))
        out.append(UInt64(table.fieldCount))
        out.bytes.append(table.hasCoordinates ? 1 : 0)
        out.bytes.append(contentsOf: page[16..<table.offsetsStart])
        var decimalValues: [[[Int64]?]] = Array(repeating: [], count: table.fieldCount)
        for field in 0..<table.fieldCount {
            let values = (0..<table.recordCount).map { table.value($0, field) }
            if let numbers = decimalNumbers(values) {
                out.bytes.append(Column.decimals.rawValue)
                writeDecimals(numbers, anchors: anchors(decimalValues, before: field), to: &out)
                decimalValues[field] = numbers
            } else if let elements = elementNumbers(values) {
                out.bytes.append(Column.element.rawValue)
                writeElements(elements, to: &out)
            } else if let integers = integerNumbers(values) {
                out.bytes.append(Column.integer.rawValue)
                writeIntegers(integers, to: &out)
            } else {
                writeText(values, to: &out)
            }
        }
        return out.bytes
    }

    /// The numbers of a column whose every non-empty value is seven-decimal numbers separated by single spaces, each
    /// written back to the same bytes; nil for any other column, or one with no value.
    private static func decimalNumbers(_ values: [ArraySlice<UInt8>]) -> [[Int64]?]? {
        var result: [[Int64]?] = []
        var any = false
        for value in values {
            if value.isEmpty {
                result.append(nil)
                continue
            }
            // The tokens between single spaces, as `split(omittingEmptySubsequences: false)` gives them, without an
            // array of them per value.
            var numbers: [Int64] = []
            var start = value.startIndex
            while true {
                let end = value[start...].firstIndex(of: UInt8(ascii: " ")) ?? value.endIndex
                guard let number = sevenDecimals(value[start..<end]) else { return nil }
                numbers.append(number)
                guard end < value.endIndex else { break }
                start = end + 1
            }
            result.append(numbers)
            any = true
        }
        return any ? result : nil
    }

    /// `-12.3456789` as -123456789, when writing it back gives the same bytes: a `-` or none, then digits without a
    /// leading zero (so no value under 1 in magnitude), a `.` and seven digits, at most 17 digits in all. Read in
    /// place: the page's every decimal value passes here, and a copy of each token and of its text written back took
    /// most of the encoder's time.
    static func sevenDecimals(_ token: ArraySlice<UInt8>) -> Int64? {
        let negative = token.first == UInt8(ascii: "-")
        let sign = negative ? 1 : 0
        guard token.count >= 9, token.count - 1 - sign <= maximumDigits, token[token.endIndex - 8] == UInt8(ascii: ".") else {
            return nil
        }
        let wholeStart = token.startIndex + sign, point = token.endIndex - 8
        guard wholeStart < point, token[wholeStart] != UInt8(ascii: "0") else { return nil }
        var value: Int64 = 0
        for index in wholeStart..<token.endIndex where index != point {
            let digit = token[index] &- UInt8(ascii: "0")
            guard digit <= 9 else { return nil }
            value = value * 10 + Int64(digit)
        }
        return negative ? -value : value
    }

    /// A decimal integer written as `String(Int64)` writes it (no `+`, no leading zero, no `-0`).
    private static func integer(_ token: ArraySlice<UInt8>) -> Int64? {
        let negative = token.first == UInt8(ascii: "-")
        let digits = negative ? token.dropFirst() : token
        guard !digits.isEmpty, digits.count <= maximumDigits, digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var value: Int64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(digit - UInt8(ascii: "0"))
        }
        guard !(negative && value == 0) else { return nil }
        return negative ? -value : value
    }

    private static func elementNumbers(_ values: [ArraySlice<UInt8>]) -> [(UInt8, Int64)?]? {
        var result: [(UInt8, Int64)?] = []
        var any = false
        for value in values {
            if value.isEmpty {
                result.append(nil)
                continue
            }
            guard let letter = value.first, let kind = elementLetters.firstIndex(of: letter),
                let id = integer(value.dropFirst()), id >= 0
            else { return nil }
            result.append((UInt8(kind + 1), id))
            any = true
        }
        return any ? result : nil
    }

    private static func integerNumbers(_ values: [ArraySlice<UInt8>]) -> [Int64?]? {
        var result: [Int64?] = []
        var any = false
        for value in values {
            if value.isEmpty {
                result.append(nil)
                continue
            }
            guard let number = integer(value) else { return nil }
            result.append(number)
            any = true
        }
        return any ? result : nil
    }

    /// For each record, the first two numbers of the first earlier decimal field holding two or more.
    private static func anchors(_ decimalValues: [[[Int64]?]], before field: Int) -> [ArraySlice<Int64>?] {
        let recordCount = decimalValues.first(where: { !$0.isEmpty })?.count ?? 0
        return (0..<recordCount).map { record in
            for earlier in 0..<field where !decimalValues[earlier].isEmpty {
                if let numbers = decimalValues[earlier][record], numbers.count >= 2 { return numbers[0..<2] }
            }
            return nil
        }
    }

    private static func writeDecimals(_ values: [[Int64]?], anchors: [ArraySlice<Int64>?], to out: inout VarintWriter) {
        var previous: [Int64] = [0, 0]
        for (record, value) in values.enumerated() {
            guard let numbers = value else {
                out.append(0)
                continue
            }
            out.append(UInt64(numbers.count))
            let anchor = record < anchors.count ? anchors[record] : nil
            for (n, number) in numbers.enumerated() {
                let base = n >= 2 ? numbers[n - 2] : (anchor.map { $0[$0.startIndex + n] } ?? previous[n])
                out.appendSigned(number &- base)
            }
            for n in 0..<min(2, numbers.count) { previous[n] = numbers[n] }
        }
    }

    private static func writeElements(_ values: [(UInt8, Int64)?], to out: inout VarintWriter) {
        var previous: Int64 = 0
        for value in values {
            guard let (kind, id) = value else {
                out.bytes.append(0)
                continue
            }
            out.bytes.append(kind)
            out.appendSigned(id &- previous)
            previous = id
        }
    }

    private static func writeIntegers(_ values: [Int64?], to out: inout VarintWriter) {
        var previous: Int64 = 0
        for value in values {
            guard let number = value else {
                out.append(0)
                continue
            }
            out.append(UInt64(bitPattern: (number &- previous) << 1 ^ (number &- previous) >> 63) &+ 1)
            previous = number
        }
    }

    /// A dictionary when at most half the values are distinct, else plain text.
    private static func writeText(_ values: [ArraySlice<UInt8>], to out: inout VarintWriter) {
        var distinct: [ArraySlice<UInt8>] = []
        var numbers: [Bytes: Int] = [:]
        let indexes = values.map { value in
            if let known = numbers[Bytes(value)] { return known }
            numbers[Bytes(value)] = distinct.count
            distinct.append(value)
            return distinct.count - 1
        }
        let asDictionary = distinct.count * 2 <= values.count
        out.bytes.append(asDictionary ? Column.dictionary.rawValue : Column.text.rawValue)
        if asDictionary { out.append(UInt64(distinct.count)) }
        let listed = asDictionary ? distinct : values
        for value in listed { out.append(UInt64(value.count)) }
        for value in listed { out.bytes.append(contentsOf: value) }
        if asDictionary { for index in indexes { out.append(UInt64(index)) } }
    }

    /// A value as a dictionary key, hashed as one run of bytes: an `ArraySlice`'s own hash combines byte by byte.
    private struct Bytes: Hashable {
        let bytes: ArraySlice<UInt8>
        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
        func hash(into hasher: inout Hasher) { bytes.withUnsafeBytes { hasher.combine(bytes: $0) } }
        static func == (a: Bytes, b: Bytes) -> Bool { a.bytes.elementsEqual(b.bytes) }
    }

    /// `number` (1e-7 steps) as seven-decimal text: `-` when negative, the whole part's digits (`0` for none), a `.`
    /// and seven digits.
    @inline(__always) static func appendSevenDecimals(_ number: Int64, to text: inout [UInt8]) {
        appendDecimal(number, fractionDigits: 7, to: &text)
    }

    /// `number` as `String(number)` writes it, without the String: every integer and element of a page decoded.
    @inline(__always) static func appendInteger(_ number: Int64, to text: inout [UInt8]) {
        appendDecimal(number, fractionDigits: 0, to: &text)
    }

    /// `number` in steps of 10^-`fractionDigits` (at most 7): `-` when negative, the whole part's digits (`0` for
    /// none), then a `.` and the fraction's digits when there are any. Written from the end in a buffer on the
    /// stack, without a String or array per number: every number of a page passes here.
    @inline(__always) private static func appendDecimal(_ number: Int64, fractionDigits: Int, to text: inout [UInt8]) {
        // 20 digits of UInt64's largest, the `.`, seven decimals and a `-`.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 29) { buffer in
            var end = buffer.count
            var magnitude = number.magnitude
            if fractionDigits > 0 {
                for _ in 0..<fractionDigits {
                    end -= 1
                    buffer[end] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                    magnitude /= 10
                }
                end -= 1
                buffer[end] = UInt8(ascii: ".")
            }
            repeat {
                end -= 1
                buffer[end] = UInt8(ascii: "0") &+ UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if number < 0 {
                end -= 1
                buffer[end] = UInt8(ascii: "-")
            }
            text.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[end...]))
        }
    }

    /// The plain page's parts (`RecordTable`'s layout), checked.
    private struct PlainPage {
        let recordCount: Int, fieldCount: Int, hasCoordinates: Bool
        let offsetsStart: Int
        private let page: [UInt8]
        private let textStart: Int

        init?(_ page: [UInt8]) {
            guard page.count >= 16 else { return nil }
            func u32(_ offset: Int) -> Int {
                page.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
            }
            recordCount = u32(0)
            fieldCount = u32(4)
            hasCoordinates = u32(8) != 0
            let (slots, overflow) = recordCount.multipliedReportingOverflow(by: fieldCount)
            guard !overflow, slots < page.count, recordCount < page.count else { return nil }
            offsetsStart = 16 + (hasCoordinates ? recordCount * 16 : 0)
            textStart = offsetsStart + (recordCount * fieldCount + 1) * 4
            guard recordCount < Int(marker), fieldCount > 0, textStart <= page.count,
                u32(textStart - 4) == page.count - textStart
            else { return nil }
            self.page = page
        }

        func value(_ record: Int, _ field: Int) -> ArraySlice<UInt8> {
            let slot = offsetsStart + (record * fieldCount + field) * 4
            let start = page.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: slot, as: UInt32.self))) }
            let end = page.withUnsafeBytes { Int(UInt32(littleEndian: $0.loadUnaligned(fromByteOffset: slot + 4, as: UInt32.self))) }
            guard start <= end, textStart + end <= page.count else { return [] }
            return page[(textStart + start)..<(textStart + end)]
        }
    }
}

extension SQLValue {
    /// A page of records as it is stored: in `RecordPageCoding`'s form, deflated; as it is when `deflate` is false
    /// (the database of `Data/`, whose batches read every locality's record up front, in place).
    package static func recordPage(_ bytes: [UInt8], deflate: Bool) -> SQLValue {
        .page(deflate ? RecordPageCoding.encode(bytes) : bytes, deflate: deflate)
    }
}
