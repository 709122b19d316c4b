#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns the bytes of one DBF value into a String.
///
/// UTF-8 is validated where it lies and copied once, into the String. Single-byte code pages use a 256-entry
/// table built once with iconv; multi-byte ones (GBK, Big5, Shift_JIS, …) run iconv per value. Foundation on
/// Linux lacks most code pages, glibc's iconv has them all.
struct DBFTextDecoder {
    private enum Method {
        case utf8
        case table(SingleByteTable)
        case iconv(IconvConverter)
    }

    private let method: Method

    /// UTF-8, with a Latin-1 reading for values that are not valid UTF-8.
    static var utf8: DBFTextDecoder { DBFTextDecoder(method: .utf8) }

    private init(method: Method) { self.method = method }

    /// Nil when this system cannot decode `encoding`.
    init?(encoding: DBFTextEncoding) {
        guard let iconvName = encoding.iconvName else {
            method = encoding == .latin1 ? .table(.latin1) : .utf8
            return
        }
        if let table = SingleByteTable(iconvName: iconvName) {
            method = .table(table)
        } else if let converter = IconvConverter(from: iconvName) {
            method = .iconv(converter)
        } else {
            return nil
        }
    }

    /// - Parameter fillsField: whether the value runs to the end of its field, so that a writer may have cut
    ///   it there, possibly inside a multi-byte character.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>, fillsField: Bool = false) -> String {
        switch method {
        case .utf8: return Self.decodeUTF8(bytes, fillsField: fillsField)
        case .table(let table): return table.decode(bytes)
        case .iconv(let converter): return converter.decode(bytes)
        }
    }

    private static func decodeUTF8(_ bytes: UnsafeBufferPointer<UInt8>, fillsField: Bool) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        // A value cut at its field width can end inside a character; keep the whole characters before it.
        let completeCount = fillsField ? countWithoutIncompleteTail(bytes) : bytes.count
        if completeCount < bytes.count,
            let text = String(validating: UnsafeBufferPointer(rebasing: bytes[..<completeCount]), as: UTF8.self)
        {
            return text
        }
        return SingleByteTable.latin1.decode(bytes)
    }

    /// The length of `bytes` without a multi-byte UTF-8 sequence that the end cuts short.
    private static func countWithoutIncompleteTail(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = bytes.count - 1
        while index >= 0, index >= bytes.count - 3, bytes[index] & 0xC0 == 0x80 { index -= 1 }
        guard index >= 0 else { return bytes.count }
        let lead = bytes[index]
        let expected = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        return bytes.count - index < expected ? index : bytes.count
    }
}

/// The UTF-8 form of each of the 256 bytes of a single-byte code page.
private struct SingleByteTable {
    private static let maxUTF8Length = 3  // single-byte code pages stay in the Basic Multilingual Plane
    private var utf8: [UInt8] = Array(repeating: 0, count: 256 * maxUTF8Length)
    private var lengths: [UInt8] = Array(repeating: 0, count: 256)

    static let latin1: SingleByteTable = {
        var table = SingleByteTable()
        for byte in 0..<256 { table.set(byte, scalar: Unicode.Scalar(UInt8(byte))) }
        return table
    }()

    private init() {}

    /// Nil when `iconvName` is unknown or is not a single-byte, ASCII-compatible code page.
    init?(iconvName: String) {
        guard let converter = IconvConverter(from: iconvName) else { return nil }
        for byte in 0..<256 {
            switch converter.convertSingleByte(UInt8(byte)) {
            case .scalar(let scalar):
                if byte < 0x80, scalar.value != UInt32(byte) { return nil }
                set(byte, scalar: scalar)
            case .undefined:
                // Bytes a code page leaves undefined (0x81 in windows-1252) read as their Latin-1 namesakes.
                set(byte, scalar: Unicode.Scalar(UInt8(byte)))
            case .partOfLongerSequence:
                return nil
            }
        }
    }

    private mutating func set(_ byte: Int, scalar: Unicode.Scalar) {
        let encoded = Array(String(Character(scalar)).utf8)
        lengths[byte] = UInt8(encoded.count)
        for (position, unit) in encoded.enumerated() { utf8[byte * Self.maxUTF8Length + position] = unit }
    }

    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        if !bytes.contains(where: { $0 >= 0x80 }) { return String(decoding: bytes, as: UTF8.self) }
        return utf8.withUnsafeBufferPointer { utf8 in
            lengths.withUnsafeBufferPointer { lengths in
                String(unsafeUninitializedCapacity: bytes.count * Self.maxUTF8Length) { output in
                    var written = 0
                    for byte in bytes {
                        let start = Int(byte) * Self.maxUTF8Length
                        for position in 0..<Int(lengths[Int(byte)]) {
                            output[written] = utf8[start + position]
                            written += 1
                        }
                    }
                    return written
                }
            }
        }
    }
}

/// A glibc iconv conversion to UTF-8. Not thread-safe: iconv descriptors carry state.
private final class IconvConverter {
    enum SingleByteResult {
        case scalar(Unicode.Scalar)
        case undefined
        case partOfLongerSequence
    }

    private enum Outcome {
        case complete(written: Int)
        /// Stopped at an input byte that is not valid here; `incomplete` when the input ends inside a character.
        case stopped(written: Int, consumed: Int, incomplete: Bool)
    }

    private static var failure: iconv_t? { iconv_t(bitPattern: -1) }
    private static let replacementCharacter: [UInt8] = [0xEF, 0xBF, 0xBD]
    private let descriptor: iconv_t

    init?(from encodingName: String) {
        let descriptor = iconv_open("UTF-8", encodingName)
        guard let descriptor, descriptor != Self.failure else { return nil }
        self.descriptor = descriptor
    }

    deinit { iconv_close(descriptor) }

    func convertSingleByte(_ byte: UInt8) -> SingleByteResult {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 9) { buffer in
            buffer[0] = byte
            let input = UnsafeBufferPointer(rebasing: buffer[0..<1])
            let output = UnsafeMutableBufferPointer(rebasing: buffer[1...])
            switch convert(input, into: output) {
            case .stopped(_, _, let incomplete):
                return incomplete ? .partOfLongerSequence : .undefined
            case .complete(let written):
                let text = String(decoding: UnsafeBufferPointer(rebasing: output[..<written]), as: UTF8.self)
                return text.unicodeScalars.first.map(SingleByteResult.scalar) ?? .undefined
            }
        }
    }

    /// Converts one value; bytes that are not valid in the encoding become U+FFFD.
    func decode(_ bytes: UnsafeBufferPointer<UInt8>) -> String {
        // At most 4 UTF-8 bytes per input byte (a lone invalid byte becomes a 3-byte U+FFFD).
        String(unsafeUninitializedCapacity: bytes.count * 4) { output in
            var read = 0
            var written = 0
            while read < bytes.count {
                let input = UnsafeBufferPointer(rebasing: bytes[read...])
                switch convert(input, into: UnsafeMutableBufferPointer(rebasing: output[written...])) {
                case .complete(let count):
                    return written + count
                case .stopped(let count, _, true):
                    // A character cut short by the end of the value (written by a tool that cut at the field
                    // width): drop it.
                    return written + count
                case .stopped(let count, let consumed, false):
                    written += count
                    read += consumed + 1
                    guard written + Self.replacementCharacter.count <= output.count else { return written }
                    for unit in Self.replacementCharacter {
                        output[written] = unit
                        written += 1
                    }
                }
            }
            return written
        }
    }

    private func convert(_ input: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Outcome {
        guard let inputBase = input.baseAddress, let outputBase = output.baseAddress else { return .complete(written: 0) }
        iconv(descriptor, nil, nil, nil, nil)  // a fresh shift state for each value
        var inPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(mutating: inputBase)
            .assumingMemoryBound(to: CChar.self)
        var inLeft = input.count
        var outPointer: UnsafeMutablePointer<CChar>? = UnsafeMutableRawPointer(outputBase)
            .assumingMemoryBound(to: CChar.self)
        var outLeft = output.count
        let result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
        let error = errno  // read at once: anything else may overwrite it
        let written = output.count - outLeft
        guard result == -1 else { return .complete(written: written) }  // (size_t)-1, imported as Int
        return .stopped(written: written, consumed: input.count - inLeft, incomplete: error == EINVAL)
    }
}
