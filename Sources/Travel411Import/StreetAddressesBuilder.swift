import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// Gathers each street's addresses (`StreetAddresses`) from the objects' records as they are written, through an
/// external sort by street, so that memory does not grow with the extract: a street's list is in memory only
/// while its record is written.
final class StreetAddressesBuilder {
    /// One address of a street, as sorted.
    private struct Pending: BitwiseCopyable {
        var street: UInt32
        var object: UInt32
        /// The building whose house number a POI node carries, + 1; 0 for the object's own address.
        var building: UInt32
        var pad: UInt32 = 0
        var x: Double
        var y: Double
        var minX: Double
        var minY: Double
        var maxX: Double
        var maxY: Double
    }

    private let sorter: ExternalSorter<Pending>

    /// Sort runs are created as `temporaryPrefix` and a name (beside the database being built).
    init(temporaryPrefix: String) {
        sorter = ExternalSorter(runPrefix: temporaryPrefix + "street-address-run-", bufferBytes: 8 << 20, spillsInBackground: true) {
            pending in
            UInt64(pending.street) << 32 | UInt64(pending.object)
        }
    }

    /// Object number `object`'s record (`PlacesSchema.ObjectField`) as written: kept when it has a house number and
    /// a street, the one its `addr:street` names, else its nearest: Nominatim's `parent_place_id`, which
    /// `find_parent_for_poi` (`lib-sql/functions/placex_triggers.sql`) sets to the nearest road
    /// (`getNearestRoadPlaceId`) where no street of the `addr:street` name is near or there is none, and which
    /// `_find_housenumber_for_street` (`nominatim_api/reverse.py`) asks for the street's house numbers. A Roman
    /// hotel whose `addr:street` is spelt `Santa` where the street's name says `Sant'` is that street's number 5.
    func add(object: UInt32, fields: [String?]) throws {
        func field(_ name: PlacesSchema.ObjectField) -> String? {
            name.rawValue < fields.count ? fields[name.rawValue] : nil
        }
        func recordNumber(_ name: PlacesSchema.ObjectField) -> UInt32? {
            field(name).flatMap { $0.utf8.withContiguousStorageIfAvailable { ReverseGeocoder.number($0) } ?? nil }
        }
        guard let number = field(.houseNumber), !number.isEmpty, let street = recordNumber(.parent) ?? recordNumber(.nearestStreet) else {
            return
        }
        // A "number" the `clean-housenumbers` sanitizer makes a name (`convert-to-name`, settings/icu_tokenizer.yaml;
        // Chennai's "23/49, G1, Ground Floor, …") leaves the place no `housenumber` column, so `IsAddressPoint` and
        // `_find_housenumber_for_street` (nominatim_api/reverse.py) pass it over: it is no address of its street.
        guard !OSMFeatureClassifier.isName(houseNumber: number) else { return }
        // Parsed as the lookup parses a record's point and extent.
        let centre = field(.centre).flatMap { $0.utf8.withContiguousStorageIfAvailable { ReverseGeocoder.point($0) } ?? nil }
        let extent = field(.extent).flatMap { $0.utf8.withContiguousStorageIfAvailable { ReverseGeocoder.extent($0) } ?? nil }
        try sorter.append(
            Pending(
                street: street, object: object, building: 0, x: centre?.longitude ?? .nan, y: centre?.latitude ?? .nan,
                minX: extent?.minX ?? .nan, minY: extent?.minY ?? .nan, maxX: extent?.maxX ?? .nan, maxY: extent?.maxY ?? .nan))
    }

    /// The POI node `node`, at `centre` (its record's, as a lookup parses it), carrying `building`'s house number on
    /// `street` (`ReverseGeocoder.inheritedStreetNumber`).
    func add(node: UInt32, centre: Coordinate, carrying building: UInt32, on street: UInt32) throws {
        try sorter.append(
            Pending(
                street: street, object: node, building: building + 1, x: centre.longitude, y: centre.latitude,
                minX: .nan, minY: .nan, maxX: .nan, maxY: .nan))
    }

    /// Stores the pages of the records of streets `0..<streetCount` (`storePage(n, blob)`; an empty field for a
    /// street without addresses) and returns their number; the sort runs are removed.
    package func finish(streetCount: Int, storePage: (Int, [UInt8]) throws -> Void) throws -> Int {
        var page: [[[UInt8]]] = []
        var pages = 0
        func flush() throws {
            try storePage(pages, RecordTable.build(bytes: page, fieldCount: 1))
            pages += 1
            page.removeAll(keepingCapacity: true)
        }
        func append(_ field: [UInt8]) throws {
            page.append([field])
            if page.count == PagedRecords.pageSize { try flush() }
        }
        var street: UInt32 = 0
        var entries: [StreetAddresses.Entry] = []
        func finishStreet() throws {
            try append(entries.isEmpty ? [] : StreetAddresses.field(entries))
            entries.removeAll(keepingCapacity: true)
            street += 1
        }
        try sorter.drain { pending in
            guard Int(pending.street) < streetCount else { return }
            while street < pending.street { try finishStreet() }
            entries.append(
                StreetAddresses.Entry(
                    object: pending.object, centre: pending.x.isNaN ? nil : Coordinate(latitude: pending.y, longitude: pending.x),
                    extent: pending.minX.isNaN
                        ? nil : BoundingBox(minX: pending.minX, minY: pending.minY, maxX: pending.maxX, maxY: pending.maxY),
                    building: pending.building == 0 ? nil : pending.building - 1))
        }
        while Int(street) < streetCount { try finishStreet() }
        if !page.isEmpty { try flush() }
        return pages
    }

    /// Removes the sort runs (an import that failed before `finish`).
    package func discard() { sorter.discard() }
}
