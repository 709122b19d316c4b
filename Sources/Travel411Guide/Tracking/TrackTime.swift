import Foundation
import Travel411Core

/// Reads and writes the times of tracks: ISO 8601 / RFC 3339 (GPX `<time>`, CSV and JSON columns,
/// through `ISO8601Time`) and Unix epoch numbers.
public enum TrackTime {
    /// "2017-04-12T17:00:36.000Z", "2017-04-12 17:00:36+02:00", "2017-04-12T17:00:36" (UTC when no zone
    /// is given), any form `ISO8601Time` reads; or a number: seconds since 1970, or milliseconds when it
    /// is above 10^11.
    public static func parse(_ rawText: String) -> Date? {
        let text = rawText.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if let number = Double(text), number.isFinite {
            return Date(timeIntervalSince1970: abs(number) > 1e11 ? number / 1000 : number)
        }
        return parseISO(text)
    }

    static func parseISO(_ text: String) -> Date? {
        guard let time = ISO8601Time(text) else { return nil }
        return Date(timeIntervalSince1970: Double(time.secondsSince1970) + time.fraction)
    }

    /// "2005-09-25T23:52:34Z", with milliseconds only when the time has them.
    public static func format(_ date: Date) -> String {
        let total = date.timeIntervalSince1970
        var whole = total.rounded(.down)
        var milliseconds = Int64(((total - whole) * 1000).rounded())
        if milliseconds == 1000 {
            whole += 1
            milliseconds = 0
        }
        return ISO8601Time.format(secondsSince1970: Int64(whole), milliseconds: milliseconds, alwaysMilliseconds: false)
    }

    /// "2 h 58 min", "4 min 12 s", "12 s": how long a track spans, for people.
    public static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600) h \(total / 60 % 60) min" }
        if total >= 60 { return "\(total / 60) min \(total % 60) s" }
        return "\(total) s"
    }
}
