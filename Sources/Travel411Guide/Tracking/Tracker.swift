import Foundation
import Travel411Core
import Travel411Geocoder

/// Core Location's rules for standard and significant-change updates, as the app used them.
public struct TrackingRules: Sendable {
    public enum Mode: String, Sendable, CaseIterable {
        /// Every fix that passes the filters, spaced by the distance filter when one is set.
        case standard
        /// Only moves of at least 500 m, at most one every 5 minutes.
        case significantChange = "significant-change"
    }

    /// `--desired-accuracy`: fixes less accurate than this are ignored. `best` keeps them all.
    public enum DesiredAccuracy: String, Sendable, CaseIterable {
        case best, tenMetres = "10m", hundredMetres = "100m", kilometre = "1km", threeKilometres = "3km"

        public var metres: Double? {
            switch self {
            case .best: return nil
            case .tenMetres: return 10
            case .hundredMetres: return 100
            case .kilometre: return 1000
            case .threeKilometres: return 3000
            }
        }
    }

    public static let significantChangeMetres = 500.0
    public static let significantChangeSeconds: TimeInterval = 300

    public var mode: Mode
    /// Metres a fix must be from the last reported one; nil reports every fix.
    public var distanceFilter: Double?
    public var desiredAccuracy: DesiredAccuracy
    /// A fix older than this is a cached one, not current.
    public var maximumAge: TimeInterval

    public init(
        mode: Mode = .standard, distanceFilter: Double? = nil, desiredAccuracy: DesiredAccuracy = .best,
        maximumAge: TimeInterval = 15
    ) {
        self.mode = mode
        self.distanceFilter = distanceFilter
        self.desiredAccuracy = desiredAccuracy
        self.maximumAge = maximumAge
    }
}

/// What a fix's age is measured against.
public enum TrackClock: Sendable {
    /// A recorded track: the newest fix seen so far (so a log replays the same whenever it is read).
    case track
    /// A live stream: the wall clock.
    case wall(@Sendable () -> Date)

    public static var system: TrackClock { .wall { Date() } }
}

/// Why a fix or input line gave no location event.
public enum SkipReason: String, Sendable, CaseIterable {
    case stale, inaccurate, filtered, outOfOrder, badChecksum, malformed, missingTime, noFix

    public init(_ problem: ReadProblem) {
        switch problem {
        case .badChecksum: self = .badChecksum
        case .malformed: self = .malformed
        case .missingTime: self = .missingTime
        case .noFix: self = .noFix
        }
    }

    /// For people: "out of order", "bad checksum".
    public var words: String {
        switch self {
        case .outOfOrder: return "out of order"
        case .badChecksum: return "bad checksum"
        case .missingTime: return "missing time"
        case .noFix: return "no fix"
        default: return rawValue
        }
    }
}

/// The tally of a run, for the summary at the end.
public struct TrackSummary: Sendable {
    /// Fixes the reader produced (lines the reader rejected are counted in `skipped` only).
    public var fixesRead = 0
    /// Fixes that gave a location event.
    public var fixesUsed = 0
    /// Fixes that passed the quality checks (accuracy, age, order): the track whose distance is summed
    /// and whose regions are watched, whether or not the distance filter let them through.
    public var fixesAccepted = 0
    public var skipped: [SkipReason: Int] = [:]
    /// Great-circle metres along the accepted fixes.
    public var distanceMetres = 0.0
    public var events: [TrackEvent.Kind: Int] = [:]
    public var firstTime: Date?
    public var lastTime: Date?
    /// The sentences of an NMEA input by type (set by whoever holds the reader); nil for other inputs.
    public var sentences: NMEADecoder.SentenceCounts?

    public var spanSeconds: TimeInterval {
        guard let firstTime, let lastTime else { return 0 }
        return lastTime.timeIntervalSince(firstTime)
    }

    public func skipped(_ reason: SkipReason) -> Int { skipped[reason] ?? 0 }
    public func events(_ kind: TrackEvent.Kind) -> Int { events[kind] ?? 0 }
    public var eventCount: Int { events.values.reduce(0, +) }
}

/// Tracking as a fold: `process` takes the state and one reader item to the new state and the events
/// that item fires. A recorded log and a live stream run this same code; only `clock` differs.
///
/// Each fix goes through, in order: accuracy (`desiredAccuracy`), age (`maximumAge`, against the clock),
/// order (a time not after the last accepted fix's is skipped and counted, never reordered), then the
/// region monitor, then the distance filter or the significant-change rule for location events.
public struct Tracker: Sendable {
    public let rules: TrackingRules
    public let destination: TrackDestination
    public let clock: TrackClock
    public private(set) var summary = TrackSummary()
    private var monitor: RegionMonitor
    private var newestTime: Date?
    private var lastAccepted: Fix?
    private var lastReported: Fix?

    public init(
        rules: TrackingRules, destination: TrackDestination, regions: [MonitoredRegion] = [], clock: TrackClock = .track,
        regionDwellSeconds: TimeInterval = RegionMonitor.defaultDwellSeconds
    ) {
        self.rules = rules
        self.destination = destination
        self.clock = clock
        monitor = RegionMonitor(regions: regions, dwellSeconds: regionDwellSeconds)
    }

    public var regions: [MonitoredRegion] { monitor.regions }

    public mutating func process(_ item: TrackItem) -> [TrackEvent] {
        switch item {
        case .skipped(let skipped):
            summary.skipped[SkipReason(skipped.problem), default: 0] += 1
            return []
        case .fix(let fix):
            return process(fix)
        }
    }

    public mutating func process(_ fix: Fix) -> [TrackEvent] {
        summary.fixesRead += 1
        if let time = fix.time, newestTime.map({ time > $0 }) ?? true { newestTime = time }
        if let threshold = rules.desiredAccuracy.metres, let accuracy = fix.estimatedAccuracy, accuracy > threshold {
            return skip(.inaccurate)
        }
        guard let time = fix.time else { return accept(fix) }
        let now: Date
        switch clock {
        case .track: now = newestTime ?? time
        case .wall(let read): now = read()
        }
        if now.timeIntervalSince(time) > rules.maximumAge { return skip(.stale) }
        if let lastAccepted, let last = lastAccepted.time, time <= last { return skip(.outOfOrder) }
        if summary.firstTime == nil { summary.firstTime = time }
        summary.lastTime = time
        return accept(fix)
    }

    /// A fix that passed the quality checks: summed into the distance, reported unless the distance
    /// filter or the significant-change rule holds it back, and watched by the region monitor.
    private mutating func accept(_ fix: Fix) -> [TrackEvent] {
        if let lastAccepted { summary.distanceMetres += GreatCircle.distance(from: lastAccepted.coordinate, to: fix.coordinate) }
        summary.fixesAccepted += 1
        lastAccepted = fix

        var events: [TrackEvent] = []
        if let reason = locationReason(for: fix) {
            summary.fixesUsed += 1
            lastReported = fix
            events.append(event(.location, fix: fix, reason: reason))
        } else {
            summary.skipped[.filtered, default: 0] += 1
        }
        for crossing in monitor.update(with: fix) {
            let accuracy = crossing.accuracyMetres.map { ", accuracy ±\(DistanceFormatter.humanReadable(metres: $0))" } ?? ""
            let waited = fix.time.flatMap { time in crossing.since.map { time.timeIntervalSince($0) } }
            let reason =
                "\(crossing.side == .inside ? "entered" : "left") \(crossing.region.name): "
                + "\(DistanceFormatter.humanReadable(metres: crossing.distanceMetres)) from its centre "
                + "(radius \(DistanceFormatter.humanReadable(metres: crossing.region.radiusMetres))\(accuracy))"
                + (waited.map { ", \(crossing.side.rawValue) for \(TrackTime.duration($0))" } ?? ", untimed point")
            var regionEvent = event(crossing.side == .inside ? .enter : .exit, fix: fix, reason: reason)
            regionEvent.region = crossing.region
            regionEvent.message = crossing.side == .inside ? crossing.region.enterMessage : crossing.region.exitMessage
            events.append(regionEvent)
        }
        for event in events { summary.events[event.kind, default: 0] += 1 }
        return events
    }

    /// Why `fix` is reported as a location event, or nil when the distance filter or the
    /// significant-change rule holds it back.
    private func locationReason(for fix: Fix) -> String? {
        guard let last = lastReported else { return "first fix" }
        let moved = GreatCircle.distance(from: last.coordinate, to: fix.coordinate)
        let movedText = DistanceFormatter.humanReadable(metres: moved)
        switch rules.mode {
        case .significantChange:
            guard moved >= TrackingRules.significantChangeMetres else { return nil }
            // A route without times has only the distance half of the rule.
            guard let time = fix.time, let lastTime = last.time else { return "significant change: moved \(movedText)" }
            let elapsed = time.timeIntervalSince(lastTime)
            guard elapsed >= TrackingRules.significantChangeSeconds else { return nil }
            return "significant change: moved \(movedText) in \(TrackTime.duration(elapsed))"
        case .standard:
            guard let filter = rules.distanceFilter else { return "new fix" }
            guard moved >= filter else { return nil }
            return "moved \(movedText) (distance filter \(DistanceFormatter.humanReadable(metres: filter)))"
        }
    }

    private mutating func skip(_ reason: SkipReason) -> [TrackEvent] {
        summary.skipped[reason, default: 0] += 1
        return []
    }

    private func event(_ kind: TrackEvent.Kind, fix: Fix, reason: String) -> TrackEvent {
        let distance = GreatCircle.distance(from: fix.coordinate, to: destination.city.coordinate)
        let sentence = "You are now \(DistanceFormatter.humanReadable(metres: distance)) from \(destination.city.name)"
        return TrackEvent(
            kind: kind, fix: fix, reason: reason, destination: destination, distanceMetres: distance,
            bearingDegrees: GreatCircle.initialBearing(from: fix.coordinate, to: destination.city.coordinate),
            sentence: sentence, region: nil, message: sentence, placemark: nil)
    }
}
