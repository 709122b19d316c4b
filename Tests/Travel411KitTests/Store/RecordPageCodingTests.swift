import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store

/// The stored form of the pages of records (`RecordPageCoding`): every page decodes to the very bytes it was built
/// as, the text that holds numbers as much as the text that does not, so no answer moves; and a damaged page is
/// refused with `IndexFormatError`, never read past its end.
struct RecordPageCodingTests {
    /// Helsinki's streets' and objects' records as the import writes them (`OSMLevelMapping`'s texts), a page each.
    static func helsinkiPages() throws -> [[UInt8]] {
        let (features, _) = try OSMFixtures.helsinkiRead.get()
        var streets: [[String?]] = []
        var objects: [[String?]] = []
        for (n, feature) in features.enumerated() {
            let element = OSMLevelMapping.elementText(feature.element)
            let extent = OSMLevelMapping.extentText(feature.outline.isEmpty ? feature.shape.lines : feature.outline)
            let point = OSMLevelMapping.pointText(feature.representativePoint)
            if let highway = feature.highway {
                streets.append([feature.name ?? "", n % 3 == 0 ? "27" : "26", element, highway.highwayClass, extent, nil, point])
            } else {
                let address = feature.address
                objects.append([
                    feature.name, address?.housenumber, address?.street, address?.postcode, element,
                    feature.pointOfInterest.map { "\($0.key)=\($0.value)" }, extent, point, n % 5 == 0 ? nil : String(n % 700),
                    n % 7 == 0 ? String(n) : nil, n % 3 == 0 ? "FI" : nil, n % 11 == 0 ? String(n % 40) : nil,
                    n % 13 == 0 ? "20 suburb Kamppi" : nil,
                ])
            }
        }
        let fieldCounts = [PlacesSchema.StreetField.allCases.count, PlacesSchema.ObjectField.allCases.count]
        return zip([streets, objects], fieldCounts).flatMap { records, fieldCount in
            PagedRecords.build(coordinates: nil, fields: records, fieldCount: fieldCount)
        }
    }

    static func decoded(_ stored: [UInt8]) throws -> [UInt8] {
        let page = try stored.withUnsafeBytes { try RecordPageCoding.decode($0) }
        return Array(UnsafeRawBufferPointer(start: page.base, count: page.count))
    }

    @Test func everyPageDecodesToTheBytesItWasBuiltAs() throws {
        let pages = try Self.helsinkiPages()
        #expect(pages.count > 10)
        for page in pages {
            let stored = RecordPageCoding.encode(page)
            #expect(stored.withUnsafeBytes { RecordPageCoding.isCoded($0) })
            #expect(try Self.decoded(stored) == page)
            // Read as the lookups read it.
            let table = try RecordTable(storage: BlobStorage(bytes: stored))
            let plain = try RecordTable(storage: BlobStorage(bytes: page))
            for record in 0..<table.recordCount {
                for field in 0..<table.fieldCount {
                    #expect(Array(table.view.bytes(record, field)) == Array(plain.view.bytes(record, field)))
                }
            }
        }
    }

    /// Text that looks like a number but would not be written back the same way stays text, as do columns mixing it
    /// with numbers; coordinates are kept as they are.
    @Test func textThatIsNotWrittenBackTheSameStaysText() throws {
        let awkward: [[String?]] = [
            ["-0.0000000", "W007", "-0", "1.5", "N-1", "9.4945454 47.1687447", "0"],
            [".5000000", "W1", "12", "00.1000000", "R18446744073709551615", "9.4945454  47.1687447", "-12"],
            ["9.49454540", "w1", "+3", "1e5", "N123456789012345678", "9.4945454 47.1687447 ", "99999999999999999"],
            ["-180.0000000", "N0", "007", "-0.0000001", "", "", "x"],
            ["Zollstrasse", "", "", "", "W1", "", ""],
            ["Zollstrasse", "Ä", "26", "primary", "W2", "9.5 47.1", "1"],
        ]
        let coordinates = awkward.indices.map { Coordinate(latitude: 47.1 + Double($0) * 1e-9, longitude: -0.0) }
        for withCoordinates in [false, true] {
            for count in 1...awkward.count {
                let page = RecordTable.build(
                    coordinates: withCoordinates ? Array(coordinates.prefix(count)) : nil, fields: Array(awkward.prefix(count)),
                    fieldCount: 7)
                #expect(try Self.decoded(RecordPageCoding.encode(page)) == page)
            }
        }
        // Exact numbers of every kind, and columns whose values repeat (a dictionary).
        var exact: [[String?]] = []
        for n in 0..<300 {
            let integer = String(n * 7919 - 1_000_000), element = "N\(n * 104_729)"
            let kind = n % 2 == 0 ? "residential" : "primary"
            let point = String(format: "%.7f %.7f", Double(n) * 0.37 - 55, Double(n) * -0.11)
            let sometimes: String? = n % 3 == 0 ? nil : String(n)
            exact.append([integer, element, kind, point, sometimes])
        }
        for page in PagedRecords.build(coordinates: nil, fields: exact, fieldCount: 5) {
            #expect(try Self.decoded(RecordPageCoding.encode(page)) == page)
        }
    }

    /// The seven-decimal numbers read in place and written without a String, and the integers written without one
    /// (session 31), give what the version before gave (kept here: the text written back with a String, then compared), on tokens of every shape near the
    /// rule's edges and on random ones.
    @Test func sevenDecimalsAsTheVersionBefore() {
        func writtenBefore(_ number: Int64) -> [UInt8] {
            var text: [UInt8] = number < 0 ? [UInt8(ascii: "-")] : []
            let magnitude = number.magnitude
            text += Array(String(magnitude / 10_000_000).utf8) + [UInt8(ascii: ".")]
            let fraction = String(magnitude % 10_000_000)
            return text + Array(String(repeating: "0", count: 7 - fraction.count).utf8) + Array(fraction.utf8)
        }
        func readBefore(_ token: ArraySlice<UInt8>) -> Int64? {
            guard token.count >= 9, token.count <= 19, token[token.endIndex - 8] == UInt8(ascii: ".") else { return nil }
            var digits = token
            digits.remove(at: digits.endIndex - 8)
            let negative = digits.first == UInt8(ascii: "-")
            let body = negative ? digits.dropFirst() : digits
            guard !body.isEmpty, body.count <= 17, body.first != UInt8(ascii: "0") || body.count == 1,
                body.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
            let value = body.reduce(Int64(0)) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
            guard !(negative && value == 0) else { return nil }
            let number = negative ? -value : value
            return writtenBefore(number).elementsEqual(token) ? number : nil
        }
        var random = SeededGenerator(seed: 31)
        var numbers: [Int64] = [0, 1, -1, 9_999_999, 10_000_000, -10_000_000, 1_800_000_000, Int64.max, Int64.min, Int64.min + 1]
        numbers += (0..<20_000).map { _ in Int64.random(in: -100_000_000_000...100_000_000_000, using: &random) }
        numbers += (0..<2_000).map { _ in Int64.random(in: Int64.min...Int64.max, using: &random) }
        var tokens: [[UInt8]] = []
        for number in numbers {
            var text: [UInt8] = []
            RecordPageCoding.appendSevenDecimals(number, to: &text)
            #expect(text == writtenBefore(number))
            tokens.append(text)
            var integer: [UInt8] = [UInt8(ascii: "W")]
            RecordPageCoding.appendInteger(number, to: &integer)
            #expect(integer == Array("W\(number)".utf8))
        }
        let alphabet = Array("-0123456789. 0123456789".utf8)
        // Written numbers with one byte changed, dropped or added: the shapes next to the rule's edges.
        for var token in tokens.prefix(6_000) {
            let at = Int.random(in: 0..<token.count, using: &random), byte = alphabet[Int.random(in: 0..<alphabet.count, using: &random)]
            switch Int.random(in: 0..<3, using: &random) {
            case 0: token[at] = byte
            case 1: token.remove(at: at)
            default: token.insert(byte, at: at)
            }
            tokens.append(token)
        }
        for _ in 0..<200_000 {
            tokens.append(
                (0..<Int.random(in: 0...21, using: &random)).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &random)] })
        }
        for edge in [
            "-.1234567", "0.5000000", "-0.0000001", "-0.0000000", "12345678901.0000000", "1234567890.0000000", "-1234567890.0000000",
            "-12345678901.0000000", "1.000000", "1.00000000", "+1.0000000", "1.-000000", "01.0000000", "9.4945454",
        ] {
            tokens.append(Array(edge.utf8))
        }
        for token in tokens {
            #expect(RecordPageCoding.sevenDecimals(token[...]) == readBefore(token[...]), "\(String(decoding: token, as: UTF8.self))")
        }
    }

    /// A plain page's numbers in text deflate to about twice what the coded page does.
    @Test func codedPagesAreSmaller() throws {
        let pages = try Self.helsinkiPages()
        let plain = pages.map { PageCompression.compressed($0).count }.reduce(0, +)
        let coded = pages.map { PageCompression.compressed(RecordPageCoding.encode($0)).count }.reduce(0, +)
        #expect(coded * 3 < plain * 2)
    }

    /// Every cut and many flipped bytes of real pages: refused, or a page `RecordTable` reads or refuses, never a crash.
    @Test func damagedPagesAreRefusedOrChecked() throws {
        for page in try Self.helsinkiPages().prefix(4) {
            let stored = RecordPageCoding.encode(page)
            for length in 0..<stored.count {
                #expect(throws: IndexFormatError.self) { try Self.decoded(Array(stored.prefix(length))) }
            }
            FlippedBytes.forEach(of: stored) { damaged in
                guard let table = try? RecordTable(storage: BlobStorage(bytes: damaged)) else { return }
                for record in 0..<table.recordCount {
                    for field in 0..<table.fieldCount { _ = table.view.bytes(record, field) }
                }
            }
        }
        let marker: [UInt8] = [0xff, 0xff, 0xff, 0xff]
        let wild: [[UInt8]] = [
            marker + [0xff, 0xff, 0xff, 0xff, 0x0f, 1, 0], marker + [1, 0, 0], marker + [1, 1, 2, 0], marker + [1, 1, 0, 9, 0],
            marker + [2, 1, 0, 1, 1, 200, 0, 0], marker + [1, 1, 0, 3, 4, 0], marker + [1, 1, 0, 0, 5],
            marker + [3, 1, 0, 4, 0xff, 0xff, 0xff, 0xff, 0x0f, 0, 0], marker + [1, 1, 0, 0, 0, 0],
        ]
        for blob in wild {
            #expect(throws: IndexFormatError.self) { try Self.decoded(blob) }
        }
    }
}
