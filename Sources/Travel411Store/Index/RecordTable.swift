import Foundation
import Travel411Core

/// The text fields and coordinates of the records a `PointIndex` or `LineIndex` returns, stored as one
/// blob and read in place: a lookup decodes only the strings of the records it answers with.
///
/// Layout: u32 recordCount, u32 fieldCount, u32 hasCoordinates, u32 padding, coordinates[recordCount ×
/// (latitude, longitude) f64] when it has them (localities; streets and postcodes need none),
/// offsets[recordCount × fieldCount + 1] u32 into the UTF-8 bytes that follow (empty means absent).
// @unchecked Sendable: a read-only view of raw blob bytes (raw pointers are not Sendable to the checker);
// never written after init.
public final class RecordTable: @unchecked Sendable {
    public let recordCount: Int
    public let fieldCount: Int
    private let storage: BlobStorage
    private let coordinates: UnsafePointer<Double>?
    private let offsets: UnsafePointer<UInt32>
    private let text: UnsafePointer<UInt8>

    /// `stored` in `RecordTable`'s layout, or in `RecordPageCoding`'s (decoded here).
    package init(storage stored: BlobStorage) throws {
        let bytes = UnsafeRawBufferPointer(start: stored.base, count: stored.count)
        let storage = RecordPageCoding.isCoded(bytes) ? try RecordPageCoding.decode(bytes) : stored
        guard storage.count >= 16 else { throw IndexFormatError.malformed("record table header") }
        recordCount = Int(storage.u32(at: 0))
        fieldCount = Int(storage.u32(at: 4))
        let coordinateOffset = 16
        // Counts beyond the page's size are damage, caught before they are multiplied into offsets.
        let (slots, overflow) = recordCount.multipliedReportingOverflow(by: fieldCount)
        guard !overflow, slots < storage.count, recordCount < storage.count else {
            throw IndexFormatError.malformed("record table size")
        }
        let offsetOffset = coordinateOffset + (storage.u32(at: 8) != 0 ? recordCount * 16 : 0)
        let textOffset = offsetOffset + (recordCount * fieldCount + 1) * 4
        guard textOffset <= storage.count else { throw IndexFormatError.malformed("record table size") }
        self.storage = storage
        coordinates = storage.u32(at: 8) != 0 ? storage.pointer(at: coordinateOffset, as: Double.self) : nil
        offsets = storage.pointer(at: offsetOffset, as: UInt32.self)
        text = storage.pointer(at: textOffset, as: UInt8.self)
        guard Int(offsets[recordCount * fieldCount]) == storage.count - textOffset else {
            throw IndexFormatError.malformed("record table text size")
        }
        // Rising offsets keep every field inside the text: a damaged page is refused here, not read past its end.
        var previous: UInt32 = 0
        for slot in 0...(recordCount * fieldCount) {
            guard offsets[slot] >= previous else { throw IndexFormatError.malformed("record table offsets") }
            previous = offsets[slot]
        }
    }

    /// Bare pointers into this table, for lookups that must not touch reference counts.
    package var view: RecordTableView { RecordTableView(fieldCount: fieldCount, coordinates: coordinates, offsets: offsets, text: text) }

    /// The record's position; nil for tables stored without positions.
    public func coordinate(_ record: Int) -> Coordinate? { view.coordinate(record) }

    /// `coordinates`, when given, has one entry per record.
    public static func build(coordinates: [Coordinate]?, fields: [[String?]], fieldCount: Int) -> [UInt8] {
        build(coordinates: coordinates, recordCount: fields.count, fieldCount: fieldCount) { record, field, text in
            if let value = fields[record][field] { text.append(contentsOf: value.utf8) }
        }
    }

    /// A table whose fields are bytes of any kind (`StreetAddresses`' packed entries).
    package static func build(bytes records: [[[UInt8]]], fieldCount: Int) -> [UInt8] {
        build(coordinates: nil, recordCount: records.count, fieldCount: fieldCount) { record, field, text in
            if field < records[record].count { text.append(contentsOf: records[record][field]) }
        }
    }

    /// `appendField(record, field, &text)` appends the field's bytes.
    private static func build(
        coordinates: [Coordinate]?, recordCount: Int, fieldCount: Int, appendField: (Int, Int, inout [UInt8]) -> Void
    ) -> [UInt8] {
        var writer = ByteWriter()
        writer.append(UInt32(recordCount))
        writer.append(UInt32(fieldCount))
        writer.append(UInt32(coordinates == nil ? 0 : 1))
        writer.append(UInt32(0))
        for coordinate in coordinates ?? [] {
            writer.append(coordinate.latitude)
            writer.append(coordinate.longitude)
        }
        var offset: UInt32 = 0
        var text: [UInt8] = []
        for record in 0..<recordCount {
            for field in 0..<fieldCount {
                writer.append(offset)
                appendField(record, field, &text)
                offset = UInt32(text.count)
            }
        }
        writer.append(offset)
        var result = writer.bytes
        result.append(contentsOf: text)
        return result
    }
}

/// A record table without coordinates, built a field at a time: `RecordTable.build(coordinates: nil, fields:fieldCount:)`'s
/// bytes for the same texts, without first holding every record's texts as strings (a batch's start-up reads the
/// area levels' texts from their rows this way).
package struct RecordTableBuilder {
    private let fieldCount: Int
    private var offsets: [UInt32] = []
    private var text: [UInt8] = []

    package init(fieldCount: Int) { self.fieldCount = fieldCount }

    /// The next field of the record being built, in field order; empty reads as absent, as nil does in `build`.
    package mutating func append(_ field: UnsafeRawBufferPointer) {
        offsets.append(UInt32(text.count))
        text.append(contentsOf: field)
    }

    /// The table's bytes, once each record's `fieldCount` fields were appended.
    package func bytes() -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + (offsets.count + 1) * 4 + text.count)
        writer.append(UInt32(fieldCount > 0 ? offsets.count / fieldCount : 0))
        writer.append(UInt32(fieldCount))
        writer.append(UInt32(0))
        writer.append(UInt32(0))
        writer.append(contentsOf: offsets)
        writer.append(UInt32(text.count))
        var result = writer.bytes
        result.append(contentsOf: text)
        return result
    }
}

/// A record table's memory as bare pointers (its `RecordTable` keeps it alive).
// @unchecked Sendable: pointers into a table that is never written after it is built.
@usableFromInline package struct RecordTableView: @unchecked Sendable {
    @usableFromInline let fieldCount: Int
    @usableFromInline let coordinates: UnsafePointer<Double>?
    @usableFromInline let offsets: UnsafePointer<UInt32>
    @usableFromInline package let text: UnsafePointer<UInt8>

    @inline(__always) func coordinate(_ record: Int) -> Coordinate? {
        guard let coordinates else { return nil }
        return Coordinate(latitude: coordinates[record * 2], longitude: coordinates[record * 2 + 1])
    }

    /// Cache hints for a field printed soon: stage 0 its offset, stage 1 (once the offset has arrived)
    /// its first bytes.
    @inline(__always) package func prefetch(_ record: Int, _ field: Int, stage: Int) {
        let slot = record * fieldCount + field
        if stage == 0 {
            LookupPrefetch.hint(UnsafeRawPointer(offsets + slot))
        } else {
            LookupPrefetch.hint(UnsafeRawPointer(text + Int(offsets[slot])))
        }
    }

    /// The field's UTF-8 bytes; empty when absent.
    @inlinable @inline(__always) package func bytes(_ record: Int, _ field: Int) -> UnsafeBufferPointer<UInt8> {
        let slot = record * fieldCount + field
        let start = Int(offsets[slot]), end = Int(offsets[slot + 1])
        return UnsafeBufferPointer(start: text + start, count: max(0, end - start))
    }

    @inline(__always) func equals(_ record: Int, _ field: Int, _ other: UnsafeBufferPointer<UInt8>) -> Bool {
        let mine = bytes(record, field)
        guard mine.count == other.count else { return false }
        guard let a = mine.baseAddress, let b = other.baseAddress, mine.count > 0 else { return true }
        // Country codes and names are short: a loop costs less than a call to memcmp.
        guard mine.count <= 32 else { return memcmp(a, b, mine.count) == 0 }
        for index in 0..<mine.count where a[index] != b[index] { return false }
        return true
    }
}

/// A record table cut into pages of `pageSize` records, read whole or page by page like `PagedBlobs`;
/// pages read late are kept in `LazySlots`, so any number of threads may read it either way.
// @unchecked Sendable: `views` (bare pointers to the pages read up front) is filled in init and only read
// afterwards; the tables read later live in LazySlots.
public final class PagedRecords: @unchecked Sendable {
    /// A constant the inlined reads divide by, not a stored value read through an accessor.
    @inlinable package static var pageSize: Int { 256 }

    private let pages: PagedBlobs
    private let tables: LazySlots<RecordTable>
    /// Every page's table when all were read up front: kept for their memory, read through `views`.
    private let preloaded: [RecordTable?]
    // Usable from inlined code: the Geocoder's per-field reads inline `view(_:)` and its callers, a call each
    // (2-4 % of an every-field batch) when they crossed the module boundary.
    @usableFromInline let views: UnsafeMutablePointer<RecordTableView?>
    @usableFromInline let viewCount: Int

    package init(pages: PagedBlobs, preloadedCount: Int? = nil) {
        self.pages = pages
        tables = LazySlots(count: pages.count)
        // Batches read every page up front: their lookups then read bare pointers, no cache at all.
        if let preloadedCount {
            preloaded = (0..<preloadedCount).map { n in pages[n].flatMap { try? RecordTable(storage: $0) } }
        } else {
            preloaded = []
        }
        viewCount = preloaded.count
        views = UnsafeMutablePointer<RecordTableView?>.allocate(capacity: max(viewCount, 1))
        for (n, table) in preloaded.enumerated() { (views + n).initialize(to: table?.view) }
    }

    deinit { views.deallocate() }

    /// How many records the pages read up front hold (ids 0..<count; 0 when read one by one).
    package var preloadedRecordCount: Int { preloaded.reduce(0) { $0 + ($1?.recordCount ?? 0) } }

    /// The page holding `record`, as bare pointers.
    @inlinable @inline(__always) package func view(_ record: Int) -> RecordTableView? {
        let number = record / PagedRecords.pageSize
        if number < viewCount { return views[number] }
        return lateView(number)
    }

    /// A page not read up front. Out of line: inlined, its closure's reference to `pages` was taken on every
    /// read, the preloaded ones too, and two threads taking it contend on its count.
    @usableFromInline @inline(never) func lateView(_ number: Int) -> RecordTableView? {
        tables.withValue(at: number, orMake: { self.pages[number].flatMap { try? RecordTable(storage: $0) } }) { $0.view }
    }

    public func coordinate(_ record: Int) -> Coordinate? {
        view(record)?.coordinate(record % PagedRecords.pageSize) ?? nil
    }

    /// Where `coordinate(record)` reads its latitude and longitude, nil when it would answer nil, with a cache
    /// hint (`LookupPrefetch`) sent for them: the caller reads them later, when they have arrived.
    @inlinable @inline(__always) package func prefetchCoordinate(_ record: Int) -> UnsafePointer<Double>? {
        guard let coordinates = view(record)?.coordinates else { return nil }
        let address = coordinates + (record % PagedRecords.pageSize) * 2
        LookupPrefetch.hint(UnsafeRawPointer(address))
        return address
    }

    /// The field's UTF-8 bytes, valid while this table lives; nil or empty when absent.
    @inlinable @inline(__always) package func bytes(_ record: Int, _ field: Int) -> UnsafeBufferPointer<UInt8>? {
        view(record)?.bytes(record % PagedRecords.pageSize, field)
    }

    @inline(__always) package func field(_ record: Int, _ field: Int, equals other: UnsafeBufferPointer<UInt8>) -> Bool {
        view(record)?.equals(record % PagedRecords.pageSize, field, other) ?? false
    }

    /// Cache hints for a field printed soon (`LookupPrefetch`): stage 0 its offsets, stage 1 (once they have
    /// arrived) its first bytes.
    @inline(__always) package func prefetch(_ record: Int, _ field: Int, stage: Int) {
        guard record >= 0 else { return }
        view(record)?.prefetch(record % PagedRecords.pageSize, field, stage: stage)
    }

    /// Page blobs for records, `pageSize` at a time.
    package static func build(coordinates: [Coordinate]?, fields: [[String?]], fieldCount: Int) -> [[UInt8]] {
        stride(from: 0, to: fields.count, by: pageSize).map { start in
            let end = min(start + pageSize, fields.count)
            return RecordTable.build(
                coordinates: coordinates.map { Array($0[start..<end]) }, fields: Array(fields[start..<end]), fieldCount: fieldCount)
        }
    }
}

/// One text field of every record, copied back to back: what a batch prints for every row (the
/// locality's name) in a fifth of the records' memory, so that its reads hit the cache far more often.
// @unchecked Sendable: one raw allocation, filled in init and only read afterwards.
package final class TextColumn: @unchecked Sendable {
    private let offsets: UnsafeMutablePointer<UInt32>
    private let text: UnsafeMutablePointer<UInt8>
    package let count: Int

    /// Field `field` of every record of `records`, which were all read up front.
    package init(field: Int, of records: PagedRecords) {
        let count = records.preloadedRecordCount
        var bytes = 0
        for record in 0..<count { bytes += records.bytes(record, field)?.count ?? 0 }
        self.count = count
        offsets = .allocate(capacity: count + 1)
        text = .allocate(capacity: max(bytes, 1))
        var end = 0
        for record in 0..<count {
            offsets[record] = UInt32(end)
            if let value = records.bytes(record, field), let start = value.baseAddress, !value.isEmpty {
                (text + end).initialize(from: start, count: value.count)
                end += value.count
            }
        }
        offsets[count] = UInt32(end)
    }

    deinit {
        offsets.deallocate()
        text.deallocate()
    }

    /// Cache hints for a record whose text is printed soon: stage 0 its offset, stage 1 (once the offset
    /// has arrived) its first bytes.
    @inline(__always) package func prefetch(_ record: Int, stage: Int) {
        guard record >= 0, record < count else { return }
        if stage == 0 {
            LookupPrefetch.hint(UnsafeRawPointer(offsets + record))
        } else {
            LookupPrefetch.hint(UnsafeRawPointer(text + Int(offsets[record])))
        }
    }

    @inline(__always) package func bytes(_ record: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(offsets[record]), end = Int(offsets[record + 1])
        return UnsafeBufferPointer(start: text + start, count: end - start)
    }
}
