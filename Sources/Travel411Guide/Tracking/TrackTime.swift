import Foundation
import Travel411Kit

/// Reads and writes the times of tracks: ISO 8601 / RFC 3339 (GPX `<time>`, CSV and JSON columns)
/// and Unix epoch numbers. Hand-written, because a track has a time per fix and `ISO8601DateFormatter`
/// needs one configuration for fractional seconds and another without.
public enum TrackTime {
    /// "2017-04-12T17:00:36.000Z", "2017-04-12 17:00:36+02:00", "2017-04-12T17:00:36" (UTC when no zone
    /// is given); or a number: seconds since 1970, or milliseconds when it is above 10^11.
    public static func parse(_ rawText: String) -> Date? {
        let text = rawText.trimmingCharacters(in: .whitespaces)
        guard !text.isEmpty else { return nil }
        if let number = Double(text), number.isFinite {
            return Date(timeIntervalSince1970: abs(number) > 1e11 ? number / 1000 : number)
        }
        return parseISO(Array(text.utf8))
    }

    static func parseISO(_ b: [UInt8]) -> Date? {
        var index = 0
        func digits(_ count: Int) -> Int? {
            guard index + count <= b.count else { return nil }
            var value = 0
            for offset in 0..<count {
                let byte = b[index + offset]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += count
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < b.count, characters.utf8.contains(b[index]) else { return false }
            index += 1
            return true
        }
        guard let year = digits(4), expect("-"), let month = digits(2), expect("-"), let day = digits(2),
            expect("Tt "), let hour = digits(2), expect(":"), let minute = digits(2), expect(":"), let second = digits(2)
        else { return nil }
        guard (1...12).contains(month), (1...31).contains(day), hour <= 24, minute <= 59, second <= 60 else { return nil }
        var fraction = 0.0
        if index < b.count, b[index] == UInt8(ascii: ".") || b[index] == UInt8(ascii: ",") {
            index += 1
            var scale = 0.1
            let start = index
            while index < b.count, b[index] >= 48, b[index] <= 57 {
                fraction += Double(b[index] - 48) * scale
                scale /= 10
                index += 1
            }
            if index == start { return nil }
        }
        var offsetSeconds = 0
        if index < b.count {
            switch b[index] {
            case UInt8(ascii: "Z"), UInt8(ascii: "z"):
                index += 1
            case UInt8(ascii: "+"), UInt8(ascii: "-"):
                let sign = b[index] == UInt8(ascii: "-") ? -1 : 1
                index += 1
                guard let hours = digits(2) else { return nil }
                _ = expect(":")
                let minutes = digits(2) ?? 0
                offsetSeconds = sign * (hours * 3600 + minutes * 60)
            default:
                return nil
            }
        }
        guard index == b.count else { return nil }
        let days = daysFromCivil(year: year, month: month, day: day)
        let seconds = Double(days * 86_400 + hour * 3600 + minute * 60 + second - offsetSeconds) + fraction
        return Date(timeIntervalSince1970: seconds)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// "2005-09-25T23:52:34Z", with milliseconds only when the time has them.
    public static func format(_ date: Date) -> String {
        let total = date.timeIntervalSince1970
        var whole = total.rounded(.down)
        var millis = Int(((total - whole) * 1000).rounded())
        if millis == 1000 {
            whole += 1
            millis = 0
        }
        let seconds = Int(whole)
        let days = Int((Double(seconds) / 86_400).rounded(.down))
        let secondOfDay = seconds - days * 86_400
        let (year, month, day) = civil(fromDays: days)
        var text = String(
            format: "%04d-%02d-%02dT%02d:%02d:%02d", year, month, day,
            secondOfDay / 3600, secondOfDay / 60 % 60, secondOfDay % 60)
        if millis != 0 { text += String(format: ".%03d", millis) }
        return text + "Z"
    }

    static func civil(fromDays days: Int) -> (Int, Int, Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// "2 h 58 min", "4 min 12 s", "12 s": how long a track spans, for people.
    public static func duration(_ seconds: TimeInterval) -> String {
        let total = Int(seconds.rounded())
        if total >= 3600 { return "\(total / 3600) h \(total / 60 % 60) min" }
        if total >= 60 { return "\(total / 60) min \(total % 60) s" }
        return "\(total) s"
    }
}
