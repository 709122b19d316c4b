import Travel411Core
import Travel411Store

/// Writes a `PagedRecords` table as records arrive, one page at a time, so that the records of a big
/// layer (two million street names) are never all in memory at once.
package struct PagedRecordsWriter {
    private let fieldCount: Int
    private let withCoordinates: Bool
    private let storePage: (Int, [UInt8]) throws -> Void
    private var fields: [[String?]] = []
    private var coordinates: [Coordinate] = []
    package private(set) var recordCount = 0
    private(set) var pageCount = 0

    /// `storePage(n, blob)` is called for each full page, and for the last one by `finish`.
    package init(fieldCount: Int, withCoordinates: Bool = false, storePage: @escaping (Int, [UInt8]) throws -> Void) {
        self.fieldCount = fieldCount
        self.withCoordinates = withCoordinates
        self.storePage = storePage
        fields.reserveCapacity(PagedRecords.pageSize)
    }

    package mutating func append(_ record: [String?], coordinate: Coordinate? = nil) throws {
        fields.append(record)
        if withCoordinates { coordinates.append(coordinate ?? Coordinate(latitude: 0, longitude: 0)) }
        recordCount += 1
        if fields.count == PagedRecords.pageSize { try flush() }
    }

    /// Stores the last, partial page; returns the number of pages.
    package mutating func finish() throws -> Int {
        if !fields.isEmpty { try flush() }
        return pageCount
    }

    private mutating func flush() throws {
        try storePage(
            pageCount, RecordTable.build(coordinates: withCoordinates ? coordinates : nil, fields: fields, fieldCount: fieldCount))
        pageCount += 1
        fields.removeAll(keepingCapacity: true)
        coordinates.removeAll(keepingCapacity: true)
    }
}
