import Foundation
import Travel411Core

/// An instant as whole milliseconds since 1970-01-01T00:00:00Z: USGS gives times to the millisecond
/// (epoch milliseconds in GeoJSON, ISO 8601 with three decimals in CSV), and integers keep them
/// exact through sorting, filtering and printing, where a `Date`'s binary fraction would not.
public struct UTCTimestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var millisecondsSince1970: Int64

    public init(millisecondsSince1970: Int64) { self.millisecondsSince1970 = millisecondsSince1970 }

    public init(_ date: Date) {
        millisecondsSince1970 = Int64((date.timeIntervalSince1970 * 1000).rounded(.down))
    }

    public static func < (a: UTCTimestamp, b: UTCTimestamp) -> Bool { a.millisecondsSince1970 < b.millisecondsSince1970 }

    public var date: Date { Date(timeIntervalSince1970: Double(millisecondsSince1970) / 1000) }

    public func adding(milliseconds: Int64) -> UTCTimestamp {
        UTCTimestamp(millisecondsSince1970: millisecondsSince1970 &+ milliseconds)
    }

    // MARK: ISO 8601

    /// Reads the ISO 8601 forms people and feeds write (see `ISO8601Time`), to the millisecond.
    public init?(iso8601 text: String) {
        guard let time = ISO8601Time(text) else { return nil }
        millisecondsSince1970 = time.secondsSince1970 * 1000 + time.milliseconds
    }

    /// `2024-08-07T13:27:10.850Z`, the form USGS's CSV feeds use.
    public var iso8601: String {
        let (seconds, milliseconds) = ISO8601Time.floorDivision(millisecondsSince1970, 1000)
        return ISO8601Time.format(secondsSince1970: seconds, milliseconds: milliseconds, alwaysMilliseconds: true)
    }

    /// `2024-08-07 13:27:10`, for tables people read.
    public var readable: String {
        let text = iso8601
        return text.prefix(10) + " " + text.dropFirst(11).prefix(8)
    }

    public var description: String { iso8601 }
}
