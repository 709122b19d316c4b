import Foundation
import Travel411Kit

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

    /// Reads the ISO 8601 forms people and feeds write: `2024-08-07`, `2024-08-07T13:27`,
    /// `2024-08-07T13:27:10.850Z`, `2024-08-07 13:27:10+09:00`. No zone means UTC. Nil for
    /// anything else, including impossible dates such as 2024-02-30.
    public init?(iso8601 text: String) {
        var utf8 = Array(text.utf8)[...]
        // Surrounding spaces are tolerated; trimmed on the bytes, as feeds are read row by row.
        while let first = utf8.first, first == 0x20 || first == 0x09 { utf8 = utf8.dropFirst() }
        while let last = utf8.last, last == 0x20 || last == 0x09 { utf8 = utf8.dropLast() }
        var scanner = DigitScanner(Array(utf8))
        guard let year = scanner.number(digits: 4), scanner.skip("-"),
            let month = scanner.number(digits: 2), scanner.skip("-"),
            let day = scanner.number(digits: 2),
            (1...12).contains(month), (1...Self.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var milliseconds: Int64 = 0
        var offsetMinutes: Int64 = 0
        if !scanner.isAtEnd {
            guard scanner.skip("T") || scanner.skip("t") || scanner.skip(" "),
                let hour = scanner.number(digits: 2), scanner.skip(":"),
                let minute = scanner.number(digits: 2), hour < 24, minute < 60
            else { return nil }
            var second: Int64 = 0
            if scanner.skip(":") {
                guard let value = scanner.number(digits: 2), value < 61 else { return nil }
                second = value
                if scanner.skip(".") || scanner.skip(",") {
                    // Any number of decimals; only milliseconds are kept.
                    guard let fraction = scanner.fractionMilliseconds() else { return nil }
                    milliseconds = fraction
                }
            }
            milliseconds += ((hour * 60 + minute) * 60 + second) * 1000
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
        let days = Self.daysFromCivil(year: year, month: month, day: day)
        millisecondsSince1970 = days * 86_400_000 + milliseconds - offsetMinutes * 60_000
    }

    /// `2024-08-07T13:27:10.850Z`, the form USGS's CSV feeds use.
    public var iso8601: String {
        let (days, dayMilliseconds) = Self.floorDivision(millisecondsSince1970, 86_400_000)
        let (year, month, day) = Self.civilFromDays(days)
        let hour = dayMilliseconds / 3_600_000, minute = dayMilliseconds / 60_000 % 60
        let second = dayMilliseconds / 1000 % 60, millisecond = dayMilliseconds % 1000
        return
            "\(Self.pad(year, 4))-\(Self.pad(month, 2))-\(Self.pad(day, 2))T\(Self.pad(hour, 2)):\(Self.pad(minute, 2)):\(Self.pad(second, 2)).\(Self.pad(millisecond, 3))Z"
    }

    /// `2024-08-07 13:27:10`, for tables people read.
    public var readable: String {
        let text = iso8601
        return text.prefix(10) + " " + text.dropFirst(11).prefix(8)
    }

    public var description: String { iso8601 }

    // MARK: Calendar arithmetic (proleptic Gregorian, as ISO 8601 has it)

    /// Days since 1970-01-01 for a civil date; Howard Hinnant's algorithm, exact for any year.
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int64) -> (year: Int64, month: Int64, day: Int64) {
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

    static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    private static func floorDivision(_ a: Int64, _ b: Int64) -> (Int64, Int64) {
        let quotient = a / b, remainder = a % b
        return remainder < 0 ? (quotient - 1, remainder + b) : (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(abs(value))
        return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - digits.count)) + digits
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

    /// One or more digits after the decimal mark, as milliseconds (truncated).
    mutating func fractionMilliseconds() -> Int64? {
        var value: Int64 = 0
        var count = 0
        while index < bytes.count, (0x30...0x39).contains(bytes[index]) {
            if count < 3 { value = value * 10 + Int64(bytes[index] - 0x30) }
            count += 1
            index += 1
        }
        guard count > 0 else { return nil }
        var scale = count
        while scale < 3 {
            value *= 10
            scale += 1
        }
        return value
    }

    mutating func sign() -> Int64? {
        if skip("+") { return 1 }
        if skip("-") { return -1 }
        // U+2212 MINUS SIGN is not ASCII; feeds do not write it.
        return nil
    }
}
