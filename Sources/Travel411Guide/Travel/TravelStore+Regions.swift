import Foundation
import Travel411Core
import Travel411Store

/// The regions monitored for each destination (`travel411 regions`), kept in the state file with
/// everything else, so they share its transactions: an add killed midway leaves no trace.
extension TravelStore {
    /// The regions of a destination (nil: the current one), oldest first.
    public func regions(of destinationName: String?) throws -> (destination: Destination, regions: [MonitoredRegion]) {
        try translatingSQLiteErrors {
            let destination = try resolve(destinationName)
            return (destination, try readRegions(of: destination))
        }
    }

    /// Adds a region to a destination (nil: the current one). A name already used there, or a 21st
    /// region, is refused. `insideTransaction` runs after the insert and before COMMIT (tests stop the
    /// process there).
    @discardableResult
    public func addRegion(
        _ region: MonitoredRegion, to destinationName: String?,
        insideTransaction: () throws -> Void = {}
    ) throws -> Destination {
        try writing {
            let destination = try resolve(destinationName)
            let existing = try readRegions(of: destination)
            if let same = existing.first(where: { $0.name.caseInsensitiveCompare(region.name) == .orderedSame }) {
                throw TrackingError.duplicateRegion(same.name)
            }
            if existing.count >= MonitoredRegion.maximumCount { throw TrackingError.tooManyRegions(count: existing.count + 1) }
            try database.run(
                """
                INSERT INTO monitored_regions (destination_id, name, latitude, longitude, radius_metres, message)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(destination.id), .text(region.name), .real(region.center.latitude), .real(region.center.longitude),
                    .real(region.radiusMetres), region.message.map(SQLValue.text) ?? .null,
                ])
            try insideTransaction()
            return destination
        }
    }

    /// Removes the region named `name` (any case) from a destination; returns what was removed.
    @discardableResult
    public func removeRegion(named name: String, from destinationName: String?) throws -> (
        destination: Destination, region: MonitoredRegion
    ) {
        try writing {
            let destination = try resolve(destinationName)
            let existing = try readRegions(of: destination)
            let wanted = name.trimmingCharacters(in: .whitespacesAndNewlines)
            guard let region = existing.first(where: { $0.name.caseInsensitiveCompare(wanted) == .orderedSame }) else {
                throw TrackingError.unknownRegion(wanted, destination: destination.name, known: existing.map(\.name))
            }
            try database.run(
                "DELETE FROM monitored_regions WHERE destination_id = ? AND name = ? COLLATE NOCASE",
                [.integer(destination.id), .text(region.name)])
            return (destination, region)
        }
    }

    private func readRegions(of destination: Destination) throws -> [MonitoredRegion] {
        let statement = try database.prepare(
            """
            SELECT name, latitude, longitude, radius_metres, message FROM monitored_regions
            WHERE destination_id = ? ORDER BY id
            """)
        try statement.bind([.integer(destination.id)])
        var regions: [MonitoredRegion] = []
        while try statement.step() {
            regions.append(
                MonitoredRegion(
                    name: statement.string(0) ?? "", center: Coordinate(latitude: statement.double(1), longitude: statement.double(2)),
                    radiusMetres: statement.double(3), message: statement.isNull(4) ? nil : statement.string(4)))
        }
        return regions
    }
}
