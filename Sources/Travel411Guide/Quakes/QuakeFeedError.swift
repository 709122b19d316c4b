import Foundation
import Travel411Core

/// Why a feed could not be read at all. A bad row or feature inside a good feed is not an error:
/// it is skipped and reported as a `SkippedQuakeRecord`.
public enum QuakeFeedError: Travel411Error, Equatable {
    /// No bytes, or only whitespace.
    case empty(source: String)
    /// Something, but not a USGS CSV or GeoJSON feed.
    case notAFeed(source: String, reason: String)
    /// The file does not exist or cannot be opened.
    case cannotOpen(source: String, detail: String)
    /// Every record was skipped: nothing usable is left, so there is no result to print.
    case noUsableRecords(source: String, skipped: Int)

    public var description: String {
        switch self {
        case .empty(let source):
            return "\(source) is empty: a USGS feed has a CSV header line or a GeoJSON FeatureCollection"
        case .notAFeed(let source, let reason):
            return "\(source) is not a USGS earthquake feed: \(reason)"
        case .cannotOpen(let source, let detail):
            return "cannot read \(source): \(detail)"
        case .noUsableRecords(let source, let skipped):
            return
                "\(source): all \(skipped) \(skipped == 1 ? "event was" : "events were") skipped as malformed (see the warnings above); nothing to show"
        }
    }

    public var exitStatus: ExitStatus {
        switch self {
        case .empty, .notAFeed, .noUsableRecords: return .dataError
        case .cannotOpen: return .noInput
        }
    }
}

/// A row (CSV) or feature (GeoJSON) that was left out, and why: "line 7: mag 'NaN' is not a number".
public struct SkippedQuakeRecord: Hashable, Sendable, CustomStringConvertible {
    /// "line 7" or "features[12]".
    public var location: String
    public var reason: String

    public init(location: String, reason: String) {
        self.location = location
        self.reason = reason
    }

    public var description: String { "\(location): \(reason)" }
}

/// Some records were skipped while the rest were shown: the results are printed, and the command
/// still ends with EX_DATAERR so a script notices, as `where` does for rows it cannot geocode.
public struct SkippedQuakeRecordsError: Travel411Error {
    public var source: String
    public var skipped: Int
    public var total: Int

    public init(source: String, skipped: Int, total: Int) {
        self.source = source
        self.skipped = skipped
        self.total = total
    }

    public var description: String {
        "\(source): skipped \(skipped) of \(total) \(total == 1 ? "event" : "events") as malformed (each is named in a warning above)"
    }

    public var exitStatus: ExitStatus { .dataError }
}
