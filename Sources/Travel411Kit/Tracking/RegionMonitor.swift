import Foundation

/// Watches circular regions over a sequence of fixes and says when one is entered or left.
///
/// The rule, which keeps a noisy track that lingers at a boundary from flapping:
/// - A fix counts as **inside** when its whole circle of uncertainty is: distance + accuracy ≤ radius,
///   and **outside** when its whole circle is: distance − accuracy ≥ radius. Between the two it says nothing.
/// - A crossing is reported when fixes have said the new side for at least `dwellSeconds` (20 s, counted
///   from the first such fix to the one that reports it) with no fix saying the old side in between.
/// - The first fix that says anything sets the state without an event: a track that starts inside gives
///   no enter, only the later exit.
public struct RegionMonitor: Sendable {
    public static let defaultDwellSeconds: TimeInterval = 20

    public enum Side: String, Sendable { case inside, outside }

    public struct Crossing: Sendable {
        public var region: MonitoredRegion
        public var side: Side
        public var distanceMetres: Double
        public var accuracyMetres: Double?
        /// When the fixes first said the new side.
        public var since: Date
    }

    public let regions: [MonitoredRegion]
    public let dwellSeconds: TimeInterval
    private var sides: [Side?]
    private var pendingSince: [Date?]

    public init(regions: [MonitoredRegion], dwellSeconds: TimeInterval = RegionMonitor.defaultDwellSeconds) {
        self.regions = regions
        self.dwellSeconds = dwellSeconds
        sides = Array(repeating: nil, count: regions.count)
        pendingSince = Array(repeating: nil, count: regions.count)
    }

    /// The side each region's state says the traveller is on (nil until a fix has said).
    public func side(of index: Int) -> Side? { sides[index] }

    /// The crossings `fix` confirms.
    public mutating func update(with fix: Fix) -> [Crossing] {
        var crossings: [Crossing] = []
        let accuracy = fix.estimatedAccuracy ?? 0
        for (index, region) in regions.enumerated() {
            let distance = GreatCircle.distance(from: region.center, to: fix.coordinate)
            let verdict: Side?
            if distance + accuracy <= region.radiusMetres { verdict = .inside }
            else if distance - accuracy >= region.radiusMetres { verdict = .outside }
            else { verdict = nil }
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
            if fix.time.timeIntervalSince(since) >= dwellSeconds {
                sides[index] = verdict
                pendingSince[index] = nil
                crossings.append(Crossing(region: region, side: verdict, distanceMetres: distance,
                                          accuracyMetres: fix.estimatedAccuracy, since: since))
            }
        }
        return crossings
    }
}
