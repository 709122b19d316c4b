import Foundation
import Travel411Core

/// Which events to show: the filters of `travel411 quakes`, applied in one fixed order so that
/// `--last N` always means "the N most recent of those that pass the other filters".
public struct QuakeFilter: Sendable {
    /// Keep events of at least this magnitude; events without a magnitude are then left out.
    public var minimumMagnitude: Double?
    /// Keep events at or after this time.
    public var since: UTCTimestamp?
    /// Keep events within `radiusMetres` of this point, nearest first.
    public var near: Coordinate?
    public var radiusMetres: Double
    /// Keep the N most recent events.
    public var last: Int?

    public static let defaultRadiusKilometres = 500.0

    public init(
        minimumMagnitude: Double? = nil, since: UTCTimestamp? = nil, near: Coordinate? = nil,
        radiusMetres: Double = QuakeFilter.defaultRadiusKilometres * 1000, last: Int? = nil
    ) {
        self.minimumMagnitude = minimumMagnitude
        self.since = since
        self.near = near
        self.radiusMetres = radiusMetres
        self.last = last
    }
}

/// An event that passed the filters, with where it lies from the `near` point when there is one.
public struct SelectedQuake: Hashable, Sendable {
    public var quake: Quake
    /// Great-circle metres from the near point to the epicentre.
    public var distanceMetres: Double?
    /// Initial bearing from the near point towards the epicentre.
    public var bearingDegrees: Double?

    public init(quake: Quake, distanceMetres: Double? = nil, bearingDegrees: Double? = nil) {
        self.quake = quake
        self.distanceMetres = distanceMetres
        self.bearingDegrees = bearingDegrees
    }
}

public enum QuakeSelection {
    /// Filters by magnitude, time and distance, keeps the `last` most recent, and orders the result:
    /// nearest first with a near point, else most recent first (as USGS lists its feeds). Ties keep
    /// the feed's order, so the output is stable.
    public static func select(_ quakes: [Quake], _ filter: QuakeFilter) -> [SelectedQuake] {
        var selected: [(index: Int, item: SelectedQuake)] = []
        for (index, quake) in quakes.enumerated() {
            if let minimum = filter.minimumMagnitude {
                guard let magnitude = quake.magnitude, magnitude >= minimum else { continue }
            }
            if let since = filter.since, quake.time < since { continue }
            var item = SelectedQuake(quake: quake)
            if let near = filter.near {
                let metres = GreatCircle.distance(from: near, to: quake.coordinate)
                guard metres <= filter.radiusMetres else { continue }
                item.distanceMetres = metres
                item.bearingDegrees = GreatCircle.initialBearing(from: near, to: quake.coordinate)
            }
            selected.append((index, item))
        }
        selected.sort { a, b in
            a.item.quake.time != b.item.quake.time ? a.item.quake.time > b.item.quake.time : a.index < b.index
        }
        if let last = filter.last, selected.count > last { selected.removeLast(selected.count - last) }
        if filter.near != nil {
            selected.sort { a, b in
                let da = a.item.distanceMetres ?? 0, db = b.item.distanceMetres ?? 0
                return da != db
                    ? da < db : (a.item.quake.time != b.item.quake.time ? a.item.quake.time > b.item.quake.time : a.index < b.index)
            }
        }
        return selected.map(\.item)
    }
}

/// `--since`: an ISO 8601 time, or a duration back from now such as `7d`, `12h`, `30m`, `2w`, `90s`.
public enum QuakeSince {
    public static func parse(_ text: String, now: UTCTimestamp) -> UTCTimestamp? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let duration = milliseconds(inDuration: trimmed) { return now.adding(milliseconds: -duration) }
        return UTCTimestamp(iso8601: trimmed)
    }

    /// The accepted units, for messages and help.
    public static let units = "s, m, h, d or w"

    /// "7d" → 7 days in milliseconds; a positive number (decimals allowed) and one unit letter.
    static func milliseconds(inDuration text: String) -> Int64? {
        guard let unit = text.last, text.count >= 2 else { return nil }
        let perUnit: Double
        switch unit {
        case "s": perUnit = 1000
        case "m": perUnit = 60_000
        case "h": perUnit = 3_600_000
        case "d": perUnit = 86_400_000
        case "w": perUnit = 604_800_000
        default: return nil
        }
        let number = text.dropLast()
        // Digits and at most one point only: no signs, exponents or "nan".
        guard number.allSatisfy({ $0.isASCII && ($0.isNumber || $0 == ".") }), number.filter({ $0 == "." }).count <= 1,
            let value = Double(number), value.isFinite
        else { return nil }
        let milliseconds = value * perUnit
        // Beyond ±10,000 years a duration means nothing here, and Int64 stays safe.
        guard milliseconds < 3.2e14 else { return nil }
        return Int64(milliseconds.rounded())
    }
}
