import Foundation

/// Answers coordinates from a places database. Immutable once opened, so one instance serves every
/// thread of a batch. (Skeleton: the lookup is being written.)
public final class ReverseGeocoder: @unchecked Sendable {
    public let databasePath: String

    public init(databasePath: String) throws {
        self.databasePath = databasePath
    }

    public func placemark(for coordinate: Coordinate) -> Placemark {
        Placemark(location: coordinate)
    }
}
