import Foundation
import Travel411Kit

/// NMEA 0183 sentences to fixes, one line at a time: RMC and GGA from any talker (GP, GN, GL, GA, BD, …),
/// checked against their `*hh` checksums, and the RMC and GGA of one epoch (the same time of day) merged
/// into one fix. Pure: lines in, items out; it never reads or prints.
///
/// - A `$` inside a line starts a new sentence, as receivers resynchronise: a log that lost a newline
///   (`…*1E$GPRMC,…`) still yields both sentences, and the cut-off text before it is reported malformed.
/// - An epoch is emitted as soon as it holds every sentence type the stream has shown so far (so a live
///   stream is answered when the epoch's last sentence arrives, not when the next epoch starts), and at
///   the latest when a sentence of another time arrives or the input ends.
/// - The date comes from RMC. A GGA-only epoch takes the last RMC date, moved on a day when its time of
///   day wraps past midnight; an RMC whose date lags behind a wrapped time (some receivers update the
///   date late) is moved on a day too.
public struct NMEADecoder {
    private enum Kind { case rmc, gga }

    private struct RMC {
        var coordinate: Coordinate?
        var valid: Bool
        var speedKnots: Double?
        var course: Double?
        var day: Int?
    }

    private struct GGA {
        var coordinate: Coordinate?
        var quality: Int
        var hdop: Double?
        var altitude: Double?
    }

    private struct Epoch {
        var secondOfDay: Double
        var rmc: RMC?
        var gga: GGA?
        var line: Int
        var kinds: Set<Kind> { Set([rmc.map { _ in Kind.rmc }, gga.map { _ in Kind.gga }].compactMap { $0 }) }
    }

    private var pending: Epoch?
    /// The time of day of the epoch emitted last, so a late sentence of it is merged away, not doubled.
    private var emittedSecondOfDay: Double?
    private var kindsSeen: Set<Kind> = []
    private var closedEpochs = 0
    private var lastDay: Int?
    private var lastSecondOfDay: Double?

    public init() {}

    /// The items a line completes: fixes, skipped sentences, or nothing (other sentence types, blank
    /// lines and `#` comments, which gpsd's logs use for their headers).
    public mutating func decode(line bytes: ArraySlice<UInt8>, number: Int) -> [TrackItem] {
        var line = bytes
        while let last = line.last, last == 13 || last == 10 || last == 32 || last == 9 { line.removeLast() }
        while let first = line.first, first == 32 || first == 9 || first == 0xEF || first == 0xBB || first == 0xBF { line.removeFirst() }
        guard !line.isEmpty, line.first != UInt8(ascii: "#") else { return [] }
        var items: [TrackItem] = []
        var starts = line.indices.filter { line[$0] == UInt8(ascii: "$") || line[$0] == UInt8(ascii: "!") }
        if starts.first != line.startIndex {
            let end = starts.first ?? line.endIndex
            items.append(
                .skipped(
                    SkippedInput(
                        line: number, problem: .malformed,
                        detail: "not an NMEA sentence: '\(Self.shown(line[line.startIndex..<end]))'")))
        }
        starts.append(line.endIndex)
        for (start, end) in zip(starts, starts.dropFirst()) {
            items += sentence(line[start..<end], number: number)
        }
        return items
    }

    /// What is still pending when the input ends.
    public mutating func finish() -> [TrackItem] {
        guard let epoch = pending else { return [] }
        pending = nil
        return close(epoch).map { [$0] } ?? []
    }

    // MARK: Sentences

    private mutating func sentence(_ text: ArraySlice<UInt8>, number: Int) -> [TrackItem] {
        var body = text
        while let last = body.last, last == 32 || last == 9 || last == 0 { body.removeLast() }
        guard let star = body.lastIndex(of: UInt8(ascii: "*")), body.distance(from: star, to: body.endIndex) == 3,
            let expected = Self.hex(body[body.index(after: star)...])
        else {
            return [
                .skipped(
                    SkippedInput(
                        line: number, problem: .malformed,
                        detail: "truncated sentence without a *hh checksum: '\(Self.shown(text))'"))
            ]
        }
        let content = body[body.index(after: body.startIndex)..<star]
        let sum = content.reduce(UInt8(0), ^)
        guard sum == expected else {
            return [
                .skipped(
                    SkippedInput(
                        line: number, problem: .badChecksum,
                        detail: String(
                            format: "checksum *%02X does not match the sentence's %02X: '%@'",
                            expected, sum, Self.shown(text))))
            ]
        }
        let fields = content.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map {
            String(decoding: $0, as: UTF8.self)
        }
        guard let address = fields.first, address.count == 5, !address.hasPrefix("P") else { return [] }
        switch address.suffix(3) {
        case "RMC": return rmc(fields, number: number)
        case "GGA": return gga(fields, number: number)
        default: return []
        }
    }

    private mutating func rmc(_ f: [String], number: Int) -> [TrackItem] {
        guard f.count >= 10 else {
            return [
                .skipped(SkippedInput(line: number, problem: .malformed, detail: "RMC sentence with \(f.count) fields instead of 12 or 13"))
            ]
        }
        guard let secondOfDay = Self.secondOfDay(f[1]) else {
            // Receivers send empty sentences ("$GPRMC,,V,,,,,,,,,,N") before their first fix.
            if f[2] != "A" { return [.skipped(SkippedInput(line: number, problem: .noFix, detail: "RMC: the receiver has no fix yet"))] }
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: "RMC time '\(Self.shownField(f[1]))' is not hhmmss"))]
        }
        let valid = f[2] == "A" && !(f.count > 12 && f[12] == "N")
        var coordinate: Coordinate?
        if valid {
            guard let position = Self.coordinate(f[3], f[4], f[5], f[6]) else {
                return [
                    .skipped(
                        SkippedInput(
                            line: number, problem: .malformed,
                            detail: "RMC position '\(f[3]),\(f[4]),\(f[5]),\(f[6])' is not a valid latitude and longitude"))
                ]
            }
            coordinate = position
        }
        let record = RMC(coordinate: coordinate, valid: valid, speedKnots: Double(f[7]), course: Double(f[8]), day: Self.day(f[9]))
        return arrive(.rmc, secondOfDay: secondOfDay, number: number) { $0.rmc = $0.rmc ?? record }
    }

    private mutating func gga(_ f: [String], number: Int) -> [TrackItem] {
        guard f.count >= 10 else {
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: "GGA sentence with \(f.count) fields instead of 15"))]
        }
        let quality = Int(f[6]) ?? 0
        guard let secondOfDay = Self.secondOfDay(f[1]) else {
            if quality == 0 { return [.skipped(SkippedInput(line: number, problem: .noFix, detail: "GGA: the receiver has no fix yet"))] }
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: "GGA time '\(Self.shownField(f[1]))' is not hhmmss"))]
        }
        var coordinate: Coordinate?
        if quality > 0 {
            guard let position = Self.coordinate(f[2], f[3], f[4], f[5]) else {
                return [
                    .skipped(
                        SkippedInput(
                            line: number, problem: .malformed,
                            detail: "GGA position '\(f[2]),\(f[3]),\(f[4]),\(f[5])' is not a valid latitude and longitude"))
                ]
            }
            coordinate = position
        }
        let record = GGA(coordinate: coordinate, quality: quality, hdop: Double(f[8]), altitude: Double(f[9]))
        return arrive(.gga, secondOfDay: secondOfDay, number: number) { $0.gga = $0.gga ?? record }
    }

    // MARK: Epochs

    private mutating func arrive(_ kind: Kind, secondOfDay: Double, number: Int, merge: (inout Epoch) -> Void) -> [TrackItem] {
        var items: [TrackItem] = []
        if var epoch = pending, epoch.secondOfDay == secondOfDay {
            merge(&epoch)
            epoch.line = number
            pending = epoch
        } else {
            if let epoch = pending {
                pending = nil
                if let item = close(epoch) { items.append(item) }
            }
            kindsSeen.insert(kind)
            // A sentence of the epoch just emitted (a second GGA from another talker, say) adds nothing.
            if emittedSecondOfDay == secondOfDay { return items }
            var epoch = Epoch(secondOfDay: secondOfDay, rmc: nil, gga: nil, line: number)
            merge(&epoch)
            pending = epoch
        }
        kindsSeen.insert(kind)
        if let epoch = pending, epoch.kinds.count == 2 || (closedEpochs > 0 && epoch.kinds.isSuperset(of: kindsSeen)) {
            pending = nil
            if let item = close(epoch) { items.append(item) }
        }
        return items
    }

    private mutating func close(_ epoch: Epoch) -> TrackItem? {
        closedEpochs += 1
        emittedSecondOfDay = epoch.secondOfDay
        let position = epoch.rmc?.coordinate ?? epoch.gga?.coordinate
        guard let coordinate = position else {
            return .skipped(
                SkippedInput(
                    line: epoch.line, problem: .noFix,
                    detail: "the receiver reports no fix at \(Self.timeOfDay(epoch.secondOfDay))"))
        }
        // The date: the RMC's own, else the last one seen; moved on a day when the time of day wraps.
        var day = epoch.rmc?.day ?? lastDay
        if let known = day, let lastDay, let lastSecondOfDay, known <= lastDay,
            epoch.secondOfDay < lastSecondOfDay - 43_200
        {
            day = lastDay + 1
        }
        guard let day else {
            return .skipped(
                SkippedInput(
                    line: epoch.line, problem: .missingTime,
                    detail: "no RMC sentence has given the date yet (GGA carries only the time of day)"))
        }
        lastDay = day
        lastSecondOfDay = epoch.secondOfDay
        let time = Date(timeIntervalSince1970: Double(day) * 86_400 + epoch.secondOfDay)
        let speed = epoch.rmc?.speedKnots.map { $0 * 1852 / 3600 }
        return .fix(
            Fix(
                time: time, coordinate: coordinate, hdop: epoch.gga?.hdop, elevation: epoch.gga?.altitude,
                speed: speed, course: epoch.rmc?.course, line: epoch.line))
    }

    // MARK: Fields

    /// "235234" or "000343.03" as seconds since midnight.
    static func secondOfDay(_ text: String) -> Double? {
        let bytes = Array(text.utf8)
        guard bytes.count >= 6, bytes[0..<6].allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func two(_ at: Int) -> Int { Int(bytes[at] - 48) * 10 + Int(bytes[at + 1] - 48) }
        let hours = two(0), minutes = two(2)
        guard hours < 24, minutes < 60, let seconds = Double(String(decoding: bytes[4...], as: UTF8.self)),
            seconds >= 0, seconds < 61
        else { return nil }
        return Double(hours * 3600 + minutes * 60) + seconds
    }

    /// "250905" (ddmmyy) as days since 1970; two-digit years below 80 are 20xx, as in gpsd.
    static func day(_ text: String) -> Int? {
        let bytes = Array(text.utf8)
        guard bytes.count == 6, bytes.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        func two(_ at: Int) -> Int { Int(bytes[at] - 48) * 10 + Int(bytes[at + 1] - 48) }
        let day = two(0), month = two(2), year = two(4)
        guard (1...31).contains(day), (1...12).contains(month) else { return nil }
        return Int(CivilDate.days(year: Int64(year < 80 ? 2000 + year : 1900 + year), month: Int64(month), day: Int64(day)))
    }

    /// "3925.9702","N","11945.9354","W": degrees and decimal minutes with hemispheres.
    static func coordinate(_ latText: String, _ ns: String, _ lonText: String, _ ew: String) -> Coordinate? {
        guard let lat = degrees(latText), let lon = degrees(lonText), ns == "N" || ns == "S", ew == "E" || ew == "W",
            lat <= 90, lon <= 180
        else { return nil }
        return Coordinate(latitude: ns == "S" ? -lat : lat, longitude: ew == "W" ? -lon : lon)
    }

    private static func degrees(_ text: String) -> Double? {
        guard let value = Double(text), value.isFinite, value >= 0, text.first?.isNumber == true else { return nil }
        let whole = (value / 100).rounded(.down)
        let minutes = value - whole * 100
        guard minutes < 60 else { return nil }
        return whole + minutes / 60
    }

    private static func hex(_ bytes: ArraySlice<UInt8>) -> UInt8? {
        guard bytes.count == 2, let value = UInt8(String(decoding: bytes, as: UTF8.self), radix: 16) else { return nil }
        return value
    }

    static func timeOfDay(_ seconds: Double) -> String {
        let whole = Int(seconds)
        return String(format: "%02d:%02d:%02d", whole / 3600, whole / 60 % 60, whole % 60)
    }

    static func shownField(_ text: String) -> String { DisplayText.sanitized(text, limit: 20) }

    static func shown(_ bytes: ArraySlice<UInt8>) -> String {
        DisplayText.sanitized(String(decoding: bytes, as: UTF8.self), limit: 60)
    }
}
