import Foundation
import Travel411Core
import Travel411Store

/// Watches circular regions over a sequence of fixes and says when one is entered or left.
///
/// The rule, which keeps a noisy track that lingers at a boundary from flapping:
/// - Each fix is judged together with the fixes of the `windowSeconds` (10 s) before it: their median
///   distance from the centre `d` and their median accuracy `a` (HDOP × 5 m when only HDOP is known, 0 when
///   nothing is). One wild fix cannot move a median.
/// - That says **inside** when the whole circle of uncertainty is inside, d + a ≤ radius, and **outside**
///   when it is wholly outside, d − a ≥ radius. Between the two it says nothing: the accuracy is the
///   hysteresis band.
/// - A crossing is reported when the judgement has said the new side for at least `dwellSeconds` (10 s,
///   from the first fix saying it to the fix that reports it) with none saying the old side in between.
/// - The first judgement sets the state without an event: a track that starts inside gives no enter,
///   only the later exit.
public struct RegionMonitor: Sendable {
    public static let defaultDwellSeconds: TimeInterval = 10
    public static let defaultWindowSeconds: TimeInterval = 10

    public enum Side: String, Sendable { case inside, outside }

    public struct Crossing: Sendable {
        public var region: MonitoredRegion
        public var side: Side
        /// The median distance from the centre that decided it.
        public var distanceMetres: Double
        /// The median accuracy that decided it (nil when no fix gave one).
        public var accuracyMetres: Double?
        /// When the fixes first said the new side (nil for untimed fixes, which decide alone).
        public var since: Date?
    }

    public let regions: [MonitoredRegion]
    public let dwellSeconds: TimeInterval
    public let windowSeconds: TimeInterval
    private var sides: [Side?]
    private var pendingSince: [Date?]
    private var recent: [Fix] = []

    public init(
        regions: [MonitoredRegion], dwellSeconds: TimeInterval = RegionMonitor.defaultDwellSeconds,
        windowSeconds: TimeInterval = RegionMonitor.defaultWindowSeconds
    ) {
        self.regions = regions
        self.dwellSeconds = dwellSeconds
        self.windowSeconds = windowSeconds
        sides = Array(repeating: nil, count: regions.count)
        pendingSince = Array(repeating: nil, count: regions.count)
    }

    /// The side each region's state says the traveller is on (nil until a fix has said).
    public func side(of index: Int) -> Side? { sides[index] }

    /// The crossings `fix` confirms. Fixes must come in time order (the tracker sees to that).
    public mutating func update(with fix: Fix) -> [Crossing] {
        guard !regions.isEmpty else { return [] }
        // An untimed fix (a route) is judged alone, and a crossing it says is reported at once: there is
        // no time to measure a window or a dwell by.
        if let time = fix.time {
            recent.append(fix)
            recent.removeAll { $0.time.map { time.timeIntervalSince($0) >= windowSeconds } ?? true }
        } else {
            recent = [fix]
        }
        let accuracies = recent.compactMap(\.estimatedAccuracy)
        let accuracy = accuracies.isEmpty ? nil : Self.median(accuracies)
        var crossings: [Crossing] = []
        for (index, region) in regions.enumerated() {
            let distance = Self.median(recent.map { GreatCircle.distance(from: region.center, to: $0.coordinate) })
            let band = accuracy ?? 0
            let verdict: Side?
            if distance + band <= region.radiusMetres {
                verdict = .inside
            } else if distance - band >= region.radiusMetres {
                verdict = .outside
            } else {
                verdict = nil
            }
            guard let verdict else { continue }
            guard let current = sides[index] else {
                sides[index] = verdict
                continue
            }
            if verdict == current {
                pendingSince[index] = nil
                continue
            }
            let since = pendingSince[index] ?? fix.time
            pendingSince[index] = since
            let dwelt = fix.time.flatMap { time in since.map { time.timeIntervalSince($0) } }
            if fix.time == nil || (dwelt ?? 0) >= dwellSeconds {
                sides[index] = verdict
                pendingSince[index] = nil
                crossings.append(Crossing(region: region, side: verdict, distanceMetres: distance, accuracyMetres: accuracy, since: since))
            }
        }
        return crossings
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }
}
