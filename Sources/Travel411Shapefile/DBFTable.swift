import CShapelib
import Travel411Core

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The attribute table (.dbf) of a shapefile.
///
/// Shapelib reads the header and field descriptions; values are sliced straight out of the mapped file and
/// decoded in the table's encoding, without shapelib's per-value copy into its work buffer.
final class DBFTable {
    let path: String
    let fields: [DBFField]
    package let recordCount: Int
    let encodingDescription: String

    private let file: MappedFile
    private let octets: UnsafeBufferPointer<UInt8>
    private let headerLength: Int
    private let recordLength: Int
    private let fieldOffsets: [Int]
    private let decoder: DBFTextDecoder

    private static let deletedMarker = UInt8(ascii: "*")

    init(path: String, codePageFile: String?, messages: ShapelibMessageSink, warnings: inout [String]) throws {
        self.path = path
        var hooks = ShapelibMessageSink.makeHooks()
        let opened = messages.collect { DBFOpenLL(path, "rb", &hooks) }
        let shapelibMessages = messages.take()
        guard let handle = opened else {
            let detail = shapelibMessages.isEmpty ? "" : " (\(shapelibMessages.joined(separator: "; ")))"
            throw ShapefileError.at(path, "is not a dBASE table that can be read\(detail)")
        }
        defer { DBFClose(handle) }
        let info = handle.pointee

        let encoding = DBFEncodingChoice(
            codePageFile: codePageFile, languageDriver: UInt8(truncatingIfNeeded: info.iLanguageDriver), dbfPath: path)
        warnings += encoding.warnings
        let decoder = encoding.decoder
        self.decoder = decoder
        encodingDescription = encoding.description

        recordCount = Int(info.nRecords)
        headerLength = Int(info.nHeaderLength)
        recordLength = Int(info.nRecordLength)
        var fields: [DBFField] = []
        var offsets: [Int] = []
        for index in 0..<Int(info.nFields) {
            var nameBuffer = [CChar](repeating: 0, count: Int(XBASE_FLDNAME_LEN_READ) + 1)
            var width: Int32 = 0
            var decimals: Int32 = 0
            DBFGetFieldInfo(handle, Int32(index), &nameBuffer, &width, &decimals)
            let nativeType = UInt8(bitPattern: DBFGetNativeFieldType(handle, Int32(index)))
            let name = nameBuffer.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: UInt8.self) { bytes in
                    decoder.decode(UnsafeBufferPointer(rebasing: bytes.prefix { $0 != 0 }))
                }
            }
            let offset = Int(info.panFieldOffset[index])
            guard offset >= 1, offset + Int(width) <= recordLength else {
                throw ShapefileError.at(path, field: name, "lies outside the \(recordLength)-byte record: the table header is corrupt")
            }
            fields.append(
                DBFField(
                    name: name, type: Self.fieldType(nativeType, decimals: Int(decimals)),
                    width: Int(width), decimals: Int(decimals)))
            offsets.append(offset)
        }
        self.fields = fields
        fieldOffsets = offsets

        file = try MappedFile(path: path)
        octets = file.octets
        let expectedLength = headerLength + recordCount * recordLength
        if file.count < expectedLength {
            let completeRecords = max(0, file.count - headerLength) / max(recordLength, 1)
            throw ShapefileError.at(
                path, record: completeRecords + 1,
                "is cut off: the table is truncated (it has \(file.count) bytes, its header promises \(expectedLength) for \(recordCount) records)"
            )
        }
        // One end-of-file byte (0x1A) usually follows the last record.
        if file.count > expectedLength + 1 {
            warnings.append("\(path) is \(byteCount(file.count - expectedLength)) longer than its header says; the extra bytes are ignored")
        }
    }

    private static func fieldType(_ native: UInt8, decimals: Int) -> DBFFieldType {
        switch native {
        case UInt8(ascii: "C"): return .string
        case UInt8(ascii: "N"), UInt8(ascii: "F"): return decimals > 0 ? .double : .integer
        case UInt8(ascii: "L"): return .logical
        case UInt8(ascii: "D"): return .date
        default: return .other
        }
    }

    /// Lets go of the memory of the records before `record` (see `MappedFile.release`).
    func release(before record: Int) {
        file.release(before: headerLength + max(0, min(record, recordCount)) * recordLength)
    }

    func isDeleted(record: Int) -> Bool {
        guard (0..<recordCount).contains(record) else { return false }
        return octets[headerLength + record * recordLength] == Self.deletedMarker
    }

    /// A value's bytes without padding, and whether they run to the end of the field.
    private struct Value {
        let bytes: UnsafeBufferPointer<UInt8>
        let fillsField: Bool
    }

    /// Nil when out of range, blank, or one of dBASE's null markers.
    private func value(record: Int, field: Int) -> Value? {
        guard (0..<recordCount).contains(record), fields.indices.contains(field),
            let fileStart = octets.baseAddress
        else { return nil }
        let start = fileStart + headerLength + record * recordLength + fieldOffsets[field]
        let width = fields[field].width
        let unpadded = Self.withoutPadding(start, count: width)
        let bytes = UnsafeBufferPointer(start: start + unpadded.lowerBound, count: unpadded.count)
        guard !bytes.isEmpty, !Self.isNullMarker(bytes, type: fields[field].type) else { return nil }
        return Value(bytes: bytes, fillsField: unpadded.upperBound == width)
    }

    private static let eightSpaces: UInt64 = 0x2020_2020_2020_2020

    /// The range of `bytes` without the spaces (and NULs, from some writers) around the value. Values are
    /// mostly padding, so whole words of spaces are skipped first.
    private static func withoutPadding(_ bytes: UnsafePointer<UInt8>, count: Int) -> Range<Int> {
        let raw = UnsafeRawPointer(bytes)
        var end = count
        while end >= 8, raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) == eightSpaces { end -= 8 }
        while end > 0, bytes[end - 1] == 0x20 || bytes[end - 1] == 0 { end -= 1 }
        var start = 0
        while end - start >= 8, raw.loadUnaligned(fromByteOffset: start, as: UInt64.self) == eightSpaces { start += 8 }
        while start < end, bytes[start] == 0x20 || bytes[start] == 0 { start += 1 }
        return start..<end
    }

    /// Numbers overflowing their width are written as asterisks; unknown logicals as "?"; empty dates as zeros.
    private static func isNullMarker(_ value: UnsafeBufferPointer<UInt8>, type: DBFFieldType) -> Bool {
        switch type {
        case .integer, .double: return value.allSatisfy { $0 == UInt8(ascii: "*") }
        case .logical: return value.count == 1 && value[0] == UInt8(ascii: "?")
        case .date: return value.allSatisfy { $0 == UInt8(ascii: "0") }
        default: return false
        }
    }

    func string(record: Int, field: Int) -> String? {
        value(record: record, field: field).map { decoder.decode($0.bytes, fillsField: $0.fillsField) }
    }

    func double(record: Int, field: Int) -> Double? {
        value(record: record, field: field).flatMap { Self.parseDouble($0.bytes) }
    }

    /// Whole numbers only: "12" and "12.000" give 12, "12.5" gives nil rather than a silently truncated 12.
    package func integer(record: Int, field: Int) -> Int64? {
        guard let text = value(record: record, field: field)?.bytes else { return nil }
        if let integer = Self.parseInteger(text) { return integer }
        guard let number = Self.parseDouble(text), number.rounded() == number else { return nil }
        return Int64(exactly: number)
    }

    func bool(record: Int, field: Int) -> Bool? {
        guard let text = value(record: record, field: field)?.bytes, text.count == 1 else { return nil }
        switch text[0] {
        case UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: "Y"), UInt8(ascii: "y"): return true
        case UInt8(ascii: "F"), UInt8(ascii: "f"), UInt8(ascii: "N"), UInt8(ascii: "n"): return false
        default: return nil
        }
    }

    private static func parseInteger(_ text: UnsafeBufferPointer<UInt8>) -> Int64? {
        var digits = text[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative || digits.first == UInt8(ascii: "+") { digits.removeFirst() }
        guard !digits.isEmpty else { return nil }
        var magnitude: Int64 = 0
        for byte in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            let (shifted, overflowA) = magnitude.multipliedReportingOverflow(by: 10)
            let (added, overflowB) = shifted.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowA, !overflowB else { return nil }
            magnitude = added
        }
        return negative ? -magnitude : magnitude
    }

    /// strtod needs a terminated string: the value is copied to a small stack buffer first.
    private static func parseDouble(_ text: UnsafeBufferPointer<UInt8>) -> Double? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: text.count + 1) { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            for (index, byte) in text.enumerated() { buffer[index] = CChar(bitPattern: byte) }
            buffer[text.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let number = strtod(base, &end)
            guard end == base + text.count, number.isFinite else { return nil }
            return number
        }
    }
}
