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
