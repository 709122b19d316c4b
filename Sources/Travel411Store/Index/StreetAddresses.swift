import Foundation
import Travel411Core

/// The address points and buildings of each OpenStreetMap street, by street number (`PlacesSchema.LineIndex
/// .streetAddresses`): those whose parent is the street (`OSMParentStreets`) and that have a house number, the
/// candidates of "the street's own address near the point" (`ReverseGeocoder.address(on:)`). Read from the list,
/// a zoom-18 lookup tests the street's few addresses near the point instead of searching every building and
/// POI within 0.001° for those of the street.
///
/// With them, the POI nodes that carry a building's house number on the street (`building` set): the import decides
/// which once (`ReverseGeocoder.inheritedStreetNumber`), so that an answer reads this one list for both.
///
/// A street's record has one field: u32 centrelessCount, u32 pad, then entries of 56 bytes, those without a
/// centre first, the others by their centre's longitude: u32 object, u32 building + 1 (0 for the object's own
/// address), f64 centreX, centreY, then the outline's extent minX, minY, maxX, maxY (NaN for a point). Centre and
/// extent are the object record's own (`ObjectField.centre`, `.extent`) as a lookup parses them, so that both give
/// the same answer.
package struct StreetAddresses {
    static let headerBytes = 8
    static let entryBytes = 56

    /// One address of a street.
    package struct Entry: Equatable {
        package var object: UInt32
        /// nil when the object record has none.
        package var centre: Coordinate?
        /// nil for a point.
        package var extent: BoundingBox?
        /// The building whose house number a POI node carries; nil for an object's own address.
        package var building: UInt32?

        package init(object: UInt32, centre: Coordinate?, extent: BoundingBox?, building: UInt32? = nil) {
            self.object = object
            self.centre = centre
            self.extent = extent
            self.building = building
        }
    }

    private let bytes: UnsafeRawBufferPointer
    private let centrelessCount: Int
    private let count: Int

    /// The street's field; nil when it is too short or its counts do not fit it (a damaged page).
    package init?(_ field: UnsafeBufferPointer<UInt8>) {
        let raw = UnsafeRawBufferPointer(field)
        guard raw.count >= Self.headerBytes, (raw.count - Self.headerBytes) % Self.entryBytes == 0 else { return nil }
        count = (raw.count - Self.headerBytes) / Self.entryBytes
        centrelessCount = Int(raw.loadUnaligned(fromByteOffset: 0, as: UInt32.self).littleEndian)
        guard centrelessCount <= count else { return nil }
        bytes = raw
    }

    /// The entries without a centre, then those whose centre's longitude is within `x ± reach` (a little more:
    /// the caller tests the distance exactly), in their order.
    package func forEach(nearLongitude x: Double, reach: Double, _ body: (Entry) -> Void) {
        for index in 0..<centrelessCount { body(entry(index)) }
        let widened = reach * (1 + 1e-9) + 1e-12
        // From the first entry at or east of x - reach.
        var index = partitionPoint(in: centrelessCount..<count) { centreX($0) < x - widened }
        while index < count, centreX(index) <= x + widened {
            body(entry(index))
            index += 1
        }
    }

    private func offset(_ index: Int) -> Int { Self.headerBytes + index * Self.entryBytes }

    private func centreX(_ index: Int) -> Double { double(offset(index) + 8) }

    private func double(_ at: Int) -> Double { Double(bitPattern: bytes.loadUnaligned(fromByteOffset: at, as: UInt64.self).littleEndian) }

    private func entry(_ index: Int) -> Entry {
        let start = offset(index)
        let object = bytes.loadUnaligned(fromByteOffset: start, as: UInt32.self).littleEndian
        let building = bytes.loadUnaligned(fromByteOffset: start + 4, as: UInt32.self).littleEndian
        let x = double(start + 8), y = double(start + 16)
        let minX = double(start + 24), minY = double(start + 32), maxX = double(start + 40), maxY = double(start + 48)
        return Entry(
            object: object, centre: x.isNaN ? nil : Coordinate(latitude: y, longitude: x),
            extent: minX.isNaN ? nil : BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY),
            building: building == 0 ? nil : building - 1)
    }

    /// A street's field: `entries` in the order a lookup reads them.
    package static func field(_ entries: [Entry]) -> [UInt8] {
        let centreless = entries.filter { $0.centre == nil }
        let placed = entries.filter { $0.centre != nil }.sorted {
            ($0.centre?.longitude ?? 0, $0.object) < ($1.centre?.longitude ?? 0, $1.object)
        }
        var writer = ByteWriter(capacity: headerBytes + entries.count * entryBytes)
        writer.append(UInt32(centreless.count))
        writer.append(UInt32(0))
        for entry in centreless + placed {
            writer.append(entry.object)
            writer.append(entry.building.map { $0 + 1 } ?? 0)
            writer.append(entry.centre?.longitude ?? .nan)
            writer.append(entry.centre?.latitude ?? .nan)
            writer.append(entry.extent?.minX ?? .nan)
            writer.append(entry.extent?.minY ?? .nan)
            writer.append(entry.extent?.maxX ?? .nan)
            writer.append(entry.extent?.maxY ?? .nan)
        }
        return writer.bytes
    }
}
