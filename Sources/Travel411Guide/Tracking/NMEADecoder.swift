import Foundation
import Travel411Core
import Travel411Store

/// NMEA 0183 sentences to fixes, one line at a time: RMC, GGA, GNS and GLL positions and ZDA dates from
/// any talker (GP, GN, GL, GA, BD, …), and the sentences of one epoch (the same time of day) merged into
/// one fix. Pure: lines in, items out; it never reads or prints.
///
/// - A `*hh` checksum is checked when there is one. NMEA 0183 lets some talkers leave it out, and gpsd
///   accepts such sentences; so does this decoder, but only with all of their type's fields, so that a
///   line cut off mid-way is still reported malformed, not read short. `sentences` counts them.
/// - A `$` inside a line starts a new sentence, as receivers resynchronise: a log that lost a newline
///   (`…*1E$GPRMC,…`) still yields both sentences, and the cut-off text before it is reported malformed.
/// - An epoch is emitted as soon as it holds every sentence type the stream has shown so far (so a live
///   stream is answered when the epoch's last sentence arrives, not when the next epoch starts), and at
///   the latest when a sentence of another time arrives or the input ends.
/// - The date comes from RMC, else from the last ZDA (receivers set up for GGA and ZDA send no RMC). An
///   epoch without an RMC takes the last date, moved on a day when its time of day wraps past midnight;
///   an RMC whose date lags behind a wrapped time (some receivers update the date late) is moved on a
///   day too.
/// - Position: RMC's, else GGA's, else GNS's, else GLL's; HDOP and altitude from GGA, else GNS.
public struct NMEADecoder {
    private enum Kind { case rmc, gga, gns, gll }

    /// The sentences read, by type, as gpsd's logs count them; for the summary.
    public struct SentenceCounts: Hashable, Sendable {
        public var rmc = 0
        public var gga = 0
        public var gns = 0
        public var gll = 0
        public var zda = 0
        /// Sentences of other types (GSA, GSV, VTG, proprietary `$P…`), read past.
        public var other = 0
        /// Sentences of any type accepted without a `*hh` checksum.
        public var withoutChecksum = 0

        public init() {}

        public var total: Int { rmc + gga + gns + gll + zda + other }
    }

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

    /// A GLL position: it carries no quality figures.
    private struct GLL {
        var coordinate: Coordinate?
    }

    private struct Epoch {
        var secondOfDay: Double
        var rmc: RMC?
        var gga: GGA?
        var gns: GGA?
        var gll: GLL?
        var line: Int
        var kinds: Set<Kind> {
            var kinds: Set<Kind> = []
            if rmc != nil { kinds.insert(.rmc) }
            if gga != nil { kinds.insert(.gga) }
            if gns != nil { kinds.insert(.gns) }
            if gll != nil { kinds.insert(.gll) }
            return kinds
        }
    }

    public private(set) var sentences = SentenceCounts()

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
        let truncated: [TrackItem] = [
            .skipped(
                SkippedInput(
                    line: number, problem: .malformed, detail: "truncated sentence without a *hh checksum: '\(Self.shown(text))'"))
        ]
        guard let star = body.lastIndex(of: UInt8(ascii: "*")) else {
            // No checksum at all, which NMEA 0183 allows: read it if it has all of its type's fields.
            let content = body[body.index(after: body.startIndex)...]
            let fields = Self.fields(content)
            guard let address = fields.first, fields.count > 1, address.count >= 5,
                address.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) })
            else { return truncated }
            if let needed = Self.fieldCount(ofSentence: address), fields.count < needed { return truncated }
            sentences.withoutChecksum += 1
            return read(fields, number: number)
        }
        guard body.distance(from: star, to: body.endIndex) == 3, let expected = Self.hex(body[body.index(after: star)...]) else {
            return truncated
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
        return read(Self.fields(content), number: number)
    }

    private static func fields(_ content: ArraySlice<UInt8>) -> [String] {
        content.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The fields, address included, that a sentence without a checksum must have to be read: those of
    /// the oldest NMEA 0183 version that has the type. Nil for a type that is read past in any case
    /// (GSV, GSA, proprietary `$P…`), which needs only an address of capitals and digits.
    private static func fieldCount(ofSentence address: String) -> Int? {
        guard address.count == 5, !address.hasPrefix("P") else { return nil }
        switch address.suffix(3) {
        case "RMC": return 12
        case "GGA": return 15
        case "GNS": return 13
        case "GLL": return 7
        case "ZDA": return 7
        default: return nil
        }
    }

    private mutating func read(_ fields: [String], number: Int) -> [TrackItem] {
        guard let address = fields.first, address.count == 5, !address.hasPrefix("P") else {
            sentences.other += 1
            return []
        }
        switch address.suffix(3) {
        case "RMC":
            sentences.rmc += 1
            return rmc(fields, number: number)
        case "GGA":
            sentences.gga += 1
            return gga(fields, number: number)
        case "GNS":
            sentences.gns += 1
            return gns(fields, number: number)
        case "GLL":
            sentences.gll += 1
            return gll(fields, number: number)
        case "ZDA":
            sentences.zda += 1
            return zda(fields, number: number)
        default:
            sentences.other += 1
            return []
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

    /// GNS (NMEA 0183 3.0): GGA's fields for every constellation at once; the mode has one letter per
    /// constellation, and N for all of them means no fix.
    private mutating func gns(_ f: [String], number: Int) -> [TrackItem] {
        guard f.count >= 10 else {
            return [
                .skipped(SkippedInput(line: number, problem: .malformed, detail: "GNS sentence with \(f.count) fields instead of 13 or 14"))
            ]
        }
        let mode = f[6]
        let hasFix = mode.contains { $0 != "N" && $0 != " " } && !mode.isEmpty
        guard let secondOfDay = Self.secondOfDay(f[1]) else {
            if !hasFix { return [.skipped(SkippedInput(line: number, problem: .noFix, detail: "GNS: the receiver has no fix yet"))] }
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: "GNS time '\(Self.shownField(f[1]))' is not hhmmss"))]
        }
        var coordinate: Coordinate?
        if hasFix {
            guard let position = Self.coordinate(f[2], f[3], f[4], f[5]) else {
                return [
                    .skipped(
                        SkippedInput(
                            line: number, problem: .malformed,
                            detail: "GNS position '\(f[2]),\(f[3]),\(f[4]),\(f[5])' is not a valid latitude and longitude"))
                ]
            }
            coordinate = position
        }
        let record = GGA(coordinate: coordinate, quality: hasFix ? 1 : 0, hdop: Double(f[8]), altitude: Double(f[9]))
        return arrive(.gns, secondOfDay: secondOfDay, number: number) { $0.gns = $0.gns ?? record }
    }

    /// GLL: position, time of day, status (A valid) and, from NMEA 0183 2.3 on, a mode (N not valid).
    private mutating func gll(_ f: [String], number: Int) -> [TrackItem] {
        guard f.count >= 7 else {
            return [
                .skipped(SkippedInput(line: number, problem: .malformed, detail: "GLL sentence with \(f.count) fields instead of 7 or 8"))
            ]
        }
        let valid = f[6] == "A" && !(f.count > 7 && f[7] == "N")
        guard let secondOfDay = Self.secondOfDay(f[5]) else {
            if !valid { return [.skipped(SkippedInput(line: number, problem: .noFix, detail: "GLL: the receiver has no fix yet"))] }
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: "GLL time '\(Self.shownField(f[5]))' is not hhmmss"))]
        }
        var coordinate: Coordinate?
        if valid {
            guard let position = Self.coordinate(f[1], f[2], f[3], f[4]) else {
                return [
                    .skipped(
                        SkippedInput(
                            line: number, problem: .malformed,
                            detail: "GLL position '\(f[1]),\(f[2]),\(f[3]),\(f[4])' is not a valid latitude and longitude"))
                ]
            }
            coordinate = position
        }
        return arrive(.gll, secondOfDay: secondOfDay, number: number) { $0.gll = $0.gll ?? GLL(coordinate: coordinate) }
    }

    /// ZDA: the UTC date and time. It gives the date to the epochs around it, as RMC does; it is not a
    /// position, so it starts no epoch of its own.
    private mutating func zda(_ f: [String], number: Int) -> [TrackItem] {
        guard f.count >= 5 else {
            return [.skipped(SkippedInput(line: number, problem: .malformed, detail: "ZDA sentence with \(f.count) fields instead of 7"))]
        }
        // Receivers without a time yet send "$GPZDA,,,,,,": nothing to learn, nothing wrong.
        if f[1].isEmpty && f[2].isEmpty && f[3].isEmpty && f[4].isEmpty { return [] }
        guard let secondOfDay = Self.secondOfDay(f[1]), let day = Int(f[2]), let month = Int(f[3]), let year = Int(f[4]),
            f[4].count == 4, (1...12).contains(month),
            (1...CivilDate.daysIn(month: Int64(month), year: Int64(year))).contains(Int64(day))
        else {
            return [
                .skipped(
                    SkippedInput(
                        line: number, problem: .malformed,
                        detail:
                            "ZDA date and time '\(Self.shownField(f[1])),\(Self.shownField(f[2])),\(Self.shownField(f[3])),\(Self.shownField(f[4]))' is not hhmmss,dd,mm,yyyy"
                    ))
            ]
        }
        lastDay = Int(CivilDate.days(year: Int64(year), month: Int64(month), day: Int64(day)))
        lastSecondOfDay = secondOfDay
        return []
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
            var epoch = Epoch(secondOfDay: secondOfDay, line: number)
            merge(&epoch)
            pending = epoch
        }
        kindsSeen.insert(kind)
        if let epoch = pending, epoch.kinds.isSuperset(of: [.rmc, .gga]) || (closedEpochs > 0 && epoch.kinds.isSuperset(of: kindsSeen)) {
            pending = nil
            if let item = close(epoch) { items.append(item) }
        }
        return items
    }

    private mutating func close(_ epoch: Epoch) -> TrackItem? {
        closedEpochs += 1
        emittedSecondOfDay = epoch.secondOfDay
        let position = epoch.rmc?.coordinate ?? epoch.gga?.coordinate ?? epoch.gns?.coordinate ?? epoch.gll?.coordinate
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
                    detail: "no RMC or ZDA sentence has given the date yet (GGA, GNS and GLL carry only the time of day)"))
        }
        lastDay = day
        lastSecondOfDay = epoch.secondOfDay
        let time = Date(timeIntervalSince1970: Double(day) * 86_400 + epoch.secondOfDay)
        let speed = epoch.rmc?.speedKnots.map { $0 * 1852 / 3600 }
        return .fix(
            Fix(
                time: time, coordinate: coordinate, hdop: epoch.gga?.hdop ?? epoch.gns?.hdop,
                elevation: epoch.gga?.altitude ?? epoch.gns?.altitude,
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
