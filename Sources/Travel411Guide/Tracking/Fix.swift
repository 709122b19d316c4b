import Foundation
import Travel411Core

/// One location fix read from a track: where and when, with what the receiver said about its quality
/// and motion. Optional values are nil when the input did not carry them.
public struct Fix: Hashable, Sendable {
    /// Nil for a point of a route without times (a GPX with no `<time>` at all): such fixes are taken in
    /// input order, and the rules that need a time (age, order, the significant change's 5 minutes, the
    /// region monitor's dwell) do not apply to them.
    public var time: Date?
    public var coordinate: Coordinate
    /// Radius of uncertainty in metres, as Core Location's `horizontalAccuracy`: given by the input
    /// (a CSV `accuracy` column), else estimated from the HDOP (see `estimatedAccuracy`).
    public var horizontalAccuracy: Double?
    /// Horizontal dilution of precision, as GPX `<hdop>` and NMEA GGA give it.
    public var hdop: Double?
    /// Metres above mean sea level.
    public var elevation: Double?
    /// Metres per second over the ground.
    public var speed: Double?
    /// Degrees clockwise from true north.
    public var course: Double?
    /// Where the fix came from in its input: the line (NMEA, CSV, JSON Lines: the line that completed
    /// the fix; GPX: the line of the point's start tag).
    public var line: Int
    /// The GPX track segment or route it belongs to (0 for line-based input), so a map can draw
    /// segments apart.
    public var segment: Int

    public init(
        time: Date?, coordinate: Coordinate, horizontalAccuracy: Double? = nil, hdop: Double? = nil,
        elevation: Double? = nil, speed: Double? = nil, course: Double? = nil, line: Int = 0, segment: Int = 0
    ) {
        self.time = time
        self.coordinate = coordinate
        self.horizontalAccuracy = horizontalAccuracy
        self.hdop = hdop
        self.elevation = elevation
        self.speed = speed
        self.course = course
        self.line = line
        self.segment = segment
    }

    /// A GPS receiver's user equivalent range error: HDOP × this is the usual estimate of horizontal
    /// accuracy in metres when the receiver gives no accuracy of its own.
    public static let userEquivalentRangeErrorMetres = 5.0

    /// The accuracy the filters and the region monitor use: the given one, else HDOP × 5 m, else nil
    /// (unknown, treated as exact).
    public var estimatedAccuracy: Double? {
        if let horizontalAccuracy, horizontalAccuracy.isFinite, horizontalAccuracy >= 0 { return horizontalAccuracy }
        if let hdop, hdop.isFinite, hdop > 0 { return hdop * Self.userEquivalentRangeErrorMetres }
        return nil
    }
}

/// Why an input line or record gave no fix. The reader reports these; the tracker adds its own
/// (stale, inaccurate, filtered, out of order) in `SkipReason`.
public enum ReadProblem: String, Sendable, CaseIterable, Codable {
    /// An NMEA sentence whose `*hh` checksum does not match its content.
    case badChecksum
    /// A line or record that cannot be read: truncated, garbage, a number that is not one.
    case malformed
    /// A position without a time (GPX points without `<time>`, CSV rows with an empty time).
    case missingTime
    /// The receiver said it had no fix (RMC status V, GGA quality 0).
    case noFix
}

/// A line or record the reader skipped, with where and why, for warnings and the summary.
public struct SkippedInput: Hashable, Sendable {
    public var line: Int
    public var problem: ReadProblem
    public var detail: String

    public init(line: Int, problem: ReadProblem, detail: String) {
        self.line = line
        self.problem = problem
        self.detail = detail
    }
}

/// What a reader yields, one at a time, in input order.
public enum TrackItem: Hashable, Sendable {
    case fix(Fix)
    case skipped(SkippedInput)
}
