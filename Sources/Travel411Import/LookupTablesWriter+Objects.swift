import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store
import Travel411StoreWriters

extension LookupTablesWriter {
    /// OpenStreetMap's address points and POIs, stored the streets' way once their tiles are in (`streets`: their
    /// directory, record pages and count), with their covers, the streets' addresses and the interpolation lines.
    func storeObjects(
        _ objects: StreetTilesBuilder, _ pending: ObjectNearestStreets, streets: (directory: [UInt8], pageCount: Int, streetCount: Int),
        insert: SQLiteStatement, coding: @escaping @Sendable ([UInt8]) -> [UInt8]
    ) throws {
        let (directory, pageCount, streetCount) = streets
        let objectDirectory = try objects.finish(coding: coding) { number, blob in
            try insert.run([.integer(PlacesSchema.PageKind.streetTiles.key(level: 1, page: number)), .blob(blob)])
        }
        let storePage = try Self.pageStore(database, deflater: deflater, recordPages: true)
        var records = PagedRecordsWriter(fieldCount: PlacesSchema.ObjectField.allCases.count) { number, blob in
            try storePage(PlacesSchema.PageKind.streetRecords.key(level: 1, page: number), blob)
        }
        // The streets' tiles as just written, read back through this connection (`SQLitePages`), each page once
        // (`ObjectNearestStreets` keeps the rows of tiles still in reach).
        let pages = SQLitePages(database: database), streetDirectory = BlobStorage(bytes: directory)
        let addresses = StreetAddressesBuilder(temporaryPrefix: database.path + "-")
        let interpolations = collector.interpolations
        let parentField = PlacesSchema.ObjectField.parent.rawValue
        var parents: [UInt32: UInt32] = [:]
        defer { addresses.discard() }
        let makeStreets = {
            try StreetTiles(directory: streetDirectory, grid: .streets) {
                pages.blob(key: PlacesSchema.PageKind.streetTiles.key(level: 0, page: $0))
            }
        }
        try pending.finish(
            makeStreets: makeStreets, streetPartitions: collector.streetPostcodes?.partitions ?? StreetPartitions(),
            { fields in
                // An interpolation line's records are no street's addresses; its way's record gives the street its
                // `addr:street` names (`OSMInterpolationLines.parent`).
                let id = UInt32(records.recordCount)
                if !interpolations.unindexed.contains(id) {
                    try addresses.add(object: id, fields: fields)
                } else if let parent = fields[parentField].flatMap({ UInt32($0) }) {
                    parents[id] = parent
                }
                try records.append(fields)
            })
        ImportMemoryTrace.note("objects' streets")
        let objectRecordPages = try records.finish()
        try storeLineIndex(.objects, directory: objectDirectory, recordPages: objectRecordPages)
        if let covers = collector.objectCovers {
            let coverDirectory = try covers.finish(coding: coding) { number, blob in
                try insert.run([.integer(PlacesSchema.PageKind.streetTiles.key(level: 2, page: number)), .blob(blob)])
            }
            try storeLineIndex(.objectCovers, directory: coverDirectory, recordPages: 0)
            // The pages just stored, read back: every one written before they are.
            try deflater?.flush()
            try OSMInheritedStreetNumbers.add(
                to: addresses,
                from: .init(
                    objectDirectory: objectDirectory, objectCount: records.recordCount, objectRecordPages: objectRecordPages,
                    coverDirectory: coverDirectory, streetDirectory: directory, streetRecordPages: pageCount,
                    page: { pages.blob(key: $0) }))
            ImportMemoryTrace.note("inherited street numbers")
        }
        let addressPages = try addresses.finish(streetCount: streetCount) { number, blob in
            try storePage(PlacesSchema.PageKind.streetRecords.key(level: 3, page: number), blob)
        }
        try storeLineIndex(.streetAddresses, directory: [], recordPages: addressPages)
        if let lines = try interpolations.store(
            parents: parents, streets: try makeStreets(), isMinor: pending.isMinor, runPrefix: database.path + "-interpolation-run-",
            coding: coding, tile: { try insert.run([.integer(PlacesSchema.PageKind.streetTiles.key(level: 4, page: $0)), .blob($1)]) },
            record: { try storePage(PlacesSchema.PageKind.streetRecords.key(level: 4, page: $0), $1) })
        {
            try storeLineIndex(.interpolations, directory: lines.directory, recordPages: lines.recordPages)
        }
        ImportMemoryTrace.note("street addresses")
    }
}
