/// The one reader and writer of ISO 8601 / RFC 3339 times: quake feeds (`UTCTimestamp`) and tracks
/// (`TrackTime`) both go through it. Hand-written on the bytes: a feed or a track has a time per row, and
/// `ISO8601DateFormatter` needs one configuration for fractional seconds and another without.
public struct ISO8601Time: Hashable, Sendable {
    /// Whole seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Int64
    /// The first three decimals of the seconds, exactly (truncated), for times kept to the millisecond.
    public var milliseconds: Int64
    /// Every decimal of the seconds, in [0, 1).
    public var fraction: Double

    /// Reads the forms people, feeds and receivers write: `2024-08-07`, `2024-08-07T13:27`,
    /// `2024-08-07T13:27:10.850Z`, `2024-08-07 13:27:10+09:00`, `2024-07-31T19:00:00-0500`. No zone means
    /// UTC. Surrounding spaces and tabs are ignored. Nil for anything else, including impossible dates
    /// such as 2024-02-30.
    public init?(_ text: String) {
        var utf8 = Array(text.utf8)[...]
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        var scanner = DigitScanner(Array(utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...CivilDate.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var secondOfDay: Int64 = 0
        var offsetMinutes: Int64 = 0
        var milliseconds: Int64 = 0
        var fraction = 0.0
        if !scanner.isAtEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
                let hour = scanner.number(digits: 2), scanner.skip(":"),
                let minute = scanner.number(digits: 2), hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.skip(":") {
                // 60 is a leap second.
                guard let value = scanner.number(digits: 2), value < 61 else { return nil }
                second = value
                if scanner.skip(".") || scanner.skip(",") {
                    guard let decimals = scanner.fraction() else { return nil }
                    (milliseconds, fraction) = decimals
                }
            }
            secondOfDay = (hour * 60 + minute) * 60 + second
            if scanner.skip("Z") || scanner.skip("z") {
                offsetMinutes = 0
            } else if let sign = scanner.sign() {
                guard let hours = scanner.number(digits: 2), hours <= 18 else { return nil }
                _ = scanner.skip(":")
                let minutes = scanner.isAtEnd ? 0 : (scanner.number(digits: 2) ?? 60)
                guard minutes < 60 else { return nil }
                offsetMinutes = sign * (hours * 60 + minutes)
            }
            guard scanner.isAtEnd else { return nil }
        }
        let days = CivilDate.days(year: year, month: month, day: day)
        secondsSince1970 = days * 86_400 + secondOfDay - offsetMinutes * 60
        self.milliseconds = milliseconds
        self.fraction = fraction
    }

    /// `2024-08-07T13:27:10.850Z`; without the decimals when `alwaysMilliseconds` is false and they are 0.
    public static func format(secondsSince1970: Int64, milliseconds: Int64, alwaysMilliseconds: Bool) -> String {
        let (days, secondOfDay) = floorDivision(secondsSince1970, 86_400)
        let (year, month, day) = CivilDate.date(days: days)
        let hour = secondOfDay / 3600, minute = secondOfDay / 60 % 60, second = secondOfDay % 60
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2))"
        if alwaysMilliseconds || milliseconds != 0 { text += ".\(pad(milliseconds, 3))" }
        return text + "Z"
    }

    static func floorDivision(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        let quotient = a / b, remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value.magnitude)
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}

/// Dates of the proleptic Gregorian calendar, as ISO 8601 has it, and days since 1970-01-01: Howard
/// Hinnant's algorithms, exact for any year.
public enum CivilDate {
    public static func days(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    public static func date(days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    public static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

/// Reads fixed-width digit groups and signs from ASCII bytes, for the ISO 8601 grammar above.
private struct DigitScanner {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, index < bytes.count, bytes[index] == ascii else { return false }
        index += 1
        return true
    }

    mutating func number(digits: Int) -> Int64? {
        guard index + digits <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + digits] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int64(byte - 0x30)
        }
        index += digits
        return value
    }

    /// One or more digits after the decimal mark: as milliseconds (truncated) and as a fraction of a second.
    mutating func fraction() -> (milliseconds: Int64, fraction: Double)? {
        var milliseconds: Int64 = 0
        var fraction = 0.0
        var scale = 0.1
        var count = 0
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            let digit = bytes[index] - 0x30
            if count < 3 { milliseconds = milliseconds * 10 + Int64(digit) }
            fraction += Double(digit) * scale
            scale /= 10
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        for _ in count..<max(count, 3) { milliseconds *= 10 }
        return (milliseconds, fraction)
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        return nil
    }
}
