import Foundation
import Travel411Core

extension RecordPageCoding {
    /// A decoded page's text may not pass this: a damaged dictionary index repeated could otherwise ask for gigabytes.
    private static let maximumTextBytes = 64 << 20

    /// The plain page (`RecordTable`'s layout) of a stored one, in memory of its own; a damaged one throws
    /// `IndexFormatError`, and the counts it claims are checked against its size before anything is allocated.
    package static func decode(_ stored: UnsafeRawBufferPointer) throws -> BlobStorage {
        guard isCoded(stored) else { throw IndexFormatError.malformed("record page marker") }
        var input = VarintReader(UnsafeRawBufferPointer(rebasing: stored[4...]), what: "record page")
        let recordCount = try input.count(), fieldCount = try input.count()
        let hasCoordinates = try input.byte()
        guard hasCoordinates <= 1, fieldCount > 0 else { throw IndexFormatError.malformed("record page header") }
        let coordinateBytes = Int(hasCoordinates) * recordCount * 16
        // Every value of every column takes a byte at least.
        let (slots, overflow) = recordCount.multipliedReportingOverflow(by: fieldCount)
        guard !overflow, coordinateBytes <= input.remaining, slots <= input.remaining - coordinateBytes else {
            throw IndexFormatError.malformed("record page counts")
        }
        let coordinates = try input.bytes(coordinateBytes)
        var columns = Columns(recordCount: recordCount, fieldCount: fieldCount)
        for field in 0..<fieldCount { try columns.read(field: field, from: &input) }
        guard input.remaining == 0 else { throw IndexFormatError.malformed("record page size") }
        return columns.page(coordinates: coordinates, hasCoordinates: hasCoordinates == 1)
    }

    /// The values read so far, record by record: their bytes back to back in the order read (column by column), and
    /// where each record's field lies among them, so that no value is an array of its own.
    private struct Columns {
        let recordCount: Int, fieldCount: Int
        var text: [UInt8] = []
        /// Each value's start and end in `text`, by record then field; an empty range for an empty value.
        var spans: [(start: Int, end: Int)]
        var textBytes = 0
        /// The numbers of each decimal field, for the fields after it that start from them.
        var decimals: [[[Int64]?]]

        init(recordCount: Int, fieldCount: Int) {
            self.recordCount = recordCount
            self.fieldCount = fieldCount
            spans = Array(repeating: (0, 0), count: recordCount * fieldCount)
            decimals = Array(repeating: [], count: fieldCount)
        }

        /// The value `write` appends to `text`.
        mutating func set(_ record: Int, _ field: Int, _ write: (inout [UInt8]) -> Void) throws {
            let start = text.count
            write(&text)
            textBytes += text.count - start
            guard textBytes <= RecordPageCoding.maximumTextBytes else { throw IndexFormatError.malformed("record page size") }
            spans[record * fieldCount + field] = (start, text.count)
        }

        mutating func read(field: Int, from input: inout VarintReader) throws {
            guard let column = Column(rawValue: try input.byte()) else { throw IndexFormatError.malformed("record page column") }
            switch column {
            case .text: try readText(field: field, from: &input)
            case .dictionary: try readDictionary(field: field, from: &input)
            case .integer: try readIntegers(field: field, from: &input)
            case .element: try readElements(field: field, from: &input)
            case .decimals: try readDecimals(field: field, from: &input)
            }
        }

        private mutating func readText(field: Int, from input: inout VarintReader) throws {
            let lengths = try (0..<recordCount).map { _ in try input.count() }
            for (record, length) in lengths.enumerated() {
                let bytes = try input.bytes(length)
                try set(record, field) { $0.append(contentsOf: bytes) }
            }
        }

        private mutating func readDictionary(field: Int, from input: inout VarintReader) throws {
            let count = try input.count()
            let lengths = try (0..<count).map { _ in try input.count() }
            let entries = try lengths.map { try input.bytes($0) }
            for record in 0..<recordCount {
                let index = try input.count()
                guard index < entries.count else { throw IndexFormatError.malformed("record page dictionary") }
                try set(record, field) { $0.append(contentsOf: entries[index]) }
            }
        }

        private mutating func readIntegers(field: Int, from input: inout VarintReader) throws {
            var previous: Int64 = 0
            for record in 0..<recordCount {
                let raw = try input.value()
                guard raw > 0 else { continue }
                let step = Int64(bitPattern: (raw - 1) >> 1) ^ -Int64(bitPattern: (raw - 1) & 1)
                previous = previous &+ step
                try set(record, field) { RecordPageCoding.appendInteger(previous, to: &$0) }
            }
        }

        private mutating func readElements(field: Int, from input: inout VarintReader) throws {
            var previous: Int64 = 0
            for record in 0..<recordCount {
                let kind = try input.byte()
                guard kind > 0 else { continue }
                guard Int(kind) <= RecordPageCoding.elementLetters.count else { throw IndexFormatError.malformed("record page element") }
                previous = previous &+ (try input.signed())
                try set(record, field) { text in
                    text.append(RecordPageCoding.elementLetters[Int(kind) - 1])
                    RecordPageCoding.appendInteger(previous, to: &text)
                }
            }
        }

        private mutating func readDecimals(field: Int, from input: inout VarintReader) throws {
            var previous: [Int64] = [0, 0]
            var column: [[Int64]?] = []
            for record in 0..<recordCount {
                let count = try input.count()
                guard count > 0 else {
                    column.append(nil)
                    continue
                }
                let anchor = anchor(record, before: field)
                var numbers: [Int64] = []
                for n in 0..<count {
                    let base = n >= 2 ? numbers[n - 2] : (anchor?[n] ?? previous[n])
                    numbers.append(base &+ (try input.signed()))
                }
                for n in 0..<min(2, count) { previous[n] = numbers[n] }
                try set(record, field) { text in
                    for (n, number) in numbers.enumerated() {
                        if n > 0 { text.append(UInt8(ascii: " ")) }
                        RecordPageCoding.appendSevenDecimals(number, to: &text)
                    }
                }
                column.append(numbers)
            }
            decimals[field] = column
        }

        /// The first two numbers of the record's first earlier decimal field holding two or more (`encode`'s rule).
        private func anchor(_ record: Int, before field: Int) -> ArraySlice<Int64>? {
            for earlier in 0..<field where !decimals[earlier].isEmpty {
                if let numbers = decimals[earlier][record], numbers.count >= 2 { return numbers[0..<2] }
            }
            return nil
        }

        /// The page in `RecordTable`'s layout.
        func page(coordinates: UnsafeRawBufferPointer, hasCoordinates: Bool) -> BlobStorage {
            var writer = ByteWriter(capacity: 16 + coordinates.count + (spans.count + 1) * 4 + textBytes)
            writer.append(UInt32(recordCount))
            writer.append(UInt32(fieldCount))
            writer.append(UInt32(hasCoordinates ? 1 : 0))
            writer.append(UInt32(0))
            var bytes = writer.bytes
            bytes.append(contentsOf: coordinates)
            var offset: UInt32 = 0
            for span in spans {
                withUnsafeBytes(of: offset.littleEndian) { bytes.append(contentsOf: $0) }
                offset += UInt32(span.end - span.start)
            }
            withUnsafeBytes(of: offset.littleEndian) { bytes.append(contentsOf: $0) }
            for span in spans { bytes.append(contentsOf: text[span.start..<span.end]) }
            return BlobStorage(bytes: bytes)
        }
    }
}
