import Dispatch
import Foundation
import Synchronization
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store

/// The POI nodes that carry a building's house number on a street, decided once at import rather than at each
/// answer: a node without an address of its own inside a numbered building is one of its street's house numbers in
/// Nominatim 5.3 (`placex_indexing_prepare` and `placex_update`, lib-sql/functions/placex_triggers.sql; "Housenumber to
/// closest result", `lookup_street_poi` in nominatim_api/reverse.py). Each is added to its street's addresses
/// (`StreetAddresses`) with the building, so that an answer reads that one list and asks no node for the building
/// around it (`ReverseGeocoder.inheritedStreetNumber` is the rule, the answer's own code).
enum OSMInheritedStreetNumbers {
    /// Where the objects, their covers and the streets are stored, read back through the import's connection.
    struct Stored {
        var objectDirectory: [UInt8]
        var objectCount: Int
        var objectRecordPages: Int
        var coverDirectory: [UInt8]
        var streetDirectory: [UInt8]
        var streetRecordPages: Int
        /// The page of `PlacesSchema.PageKind` at `key`, inflated; nil when there is none.
        var page: @Sendable (Int64) -> BlobStorage?
    }

    /// Objects read per chunk, each chunk through lookups of its own, let go at its end: the pages a chunk reads stay
    /// only as long as it runs, whatever the extract's size.
    static let chunkObjects = 16 * PagedRecords.pageSize

    /// Adds every node that carries a building's house number to `addresses`, in object order; the chunks are
    /// searched on every core.
    static func add(to addresses: StreetAddressesBuilder, from stored: Stored) throws {
        let chunks = (stored.objectCount + chunkObjects - 1) / chunkObjects
        guard chunks > 0 else { return }
        let found = Mutex<[[Carrier]]>(Array(repeating: [], count: chunks))
        let failure = Mutex<(any Error)?>(nil)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            do {
                let carriers = try carriersOf(chunk: chunk, stored)
                found.withLock { $0[chunk] = carriers }
            } catch {
                failure.withLock { if $0 == nil { $0 = error } }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        for carriers in found.withLock({ $0 }) {
            for carrier in carriers {
                try addresses.add(node: carrier.node, centre: carrier.centre, carrying: carrier.building, on: carrier.street)
            }
        }
    }

    /// Whether a building's stored `addr:housenumber` is a number: one that is a name is no address of its street
    /// (`StreetAddressesBuilder`), and a node inside the building carries none either.
    static func isHouseNumber(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !OSMFeatureClassifier.isName(houseNumber: String(decoding: bytes, as: UTF8.self))
    }

    private struct Carrier {
        var node: UInt32
        var centre: Coordinate
        var building: UInt32
        var street: UInt32
    }

    private static func carriersOf(chunk: Int, _ stored: Stored) throws -> [Carrier] {
        let levels = try Levels(stored)
        let first = chunk * chunkObjects, end = min(stored.objectCount, first + chunkObjects)
        var carriers: [Carrier] = []
        for id in UInt32(first)..<UInt32(end) {
            guard
                let (street, building) = ReverseGeocoder.inheritedStreetNumber(
                    of: id, objects: levels.objects, streets: levels.streets, covers: levels.covers, isHouseNumber: isHouseNumber),
                let centre = ReverseGeocoder.centre(of: id, objects: levels.objects)
            else { continue }
            carriers.append(Carrier(node: id, centre: centre, building: building, street: street))
        }
        return carriers
    }

    /// The objects, their covers and the streets as a lookup reads them.
    private struct Levels {
        let objects: PlacesLookup.LineLevel
        let streets: PlacesLookup.LineLevel
        let covers: StreetTiles

        init(_ stored: Stored) throws {
            let page = stored.page
            func tiles(_ directory: [UInt8], grid: TileGrid, level: Int64) throws -> StreetTiles {
                try StreetTiles(directory: BlobStorage(bytes: directory), grid: grid) { number in
                    page(PlacesSchema.PageKind.streetTiles.key(level: level, page: number))
                }
            }
            func records(level: Int64, pages: Int) -> PagedRecords {
                PagedRecords(
                    pages: PagedBlobs(count: pages) { number in page(PlacesSchema.PageKind.streetRecords.key(level: level, page: number)) })
            }
            objects = PlacesLookup.LineLevel(
                index: try tiles(stored.objectDirectory, grid: .objects, level: 1),
                names: records(level: 1, pages: stored.objectRecordPages))
            streets = PlacesLookup.LineLevel(
                index: try tiles(stored.streetDirectory, grid: .streets, level: 0),
                names: records(level: 0, pages: stored.streetRecordPages))
            covers = try tiles(stored.coverDirectory, grid: .objects, level: 2)
        }
    }
}
