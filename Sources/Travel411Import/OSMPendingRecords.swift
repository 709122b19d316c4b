import Foundation
import Travel411Core

/// An address waiting for the postcodes: an address point's, or a number of an interpolation line.
struct PendingAddress {
    var houseNumber: String
    var street: String?
    package var postcode: String?
    var coordinate: Coordinate
}

/// An address point or POI waiting for the postcodes and the parent streets: its `PlacesSchema.ObjectField`s,
/// its point, and the rings of the building or area it stands on.
struct PendingObject {
    var fields: [String?]
    package var point: Point2D
    var outline: [[Point2D]]
}

extension OSMSpillWriter {
    mutating func write(_ address: PendingAddress) {
        write(address.houseNumber)
        write(address.street)
        write(address.postcode)
        write(address.coordinate.latitude)
        write(address.coordinate.longitude)
    }

    mutating func write(_ object: PendingObject) {
        write(object.fields)
        write(object.point)
        write(object.outline)
    }

    /// A street's number, midpoint and own postcode as written (nil for none).
    mutating func writeStreetMidpoint(_ id: UInt32, _ midpoint: Point2D, postcode: String?) {
        write(id)
        write(midpoint)
        write(postcode)
    }
}

extension OSMSpillReader {
    mutating func pendingAddress() throws -> PendingAddress {
        PendingAddress(
            houseNumber: try presentText(), street: try text(), postcode: try text(),
            coordinate: Coordinate(latitude: try double(), longitude: try double()))
    }

    mutating func pendingObject() throws -> PendingObject {
        PendingObject(fields: try texts(), point: try point(), outline: try rings())
    }

    mutating func streetMidpoint() throws -> (id: UInt32, point: Point2D, postcode: String?) { (try uint32(), try point(), try text()) }
}
