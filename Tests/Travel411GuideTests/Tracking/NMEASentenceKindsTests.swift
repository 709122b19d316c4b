import Foundation
import Testing
import Travel411Core
import Travel411Guide

/// NMEA as receivers are set up to write it: GGA and ZDA without RMC, GLL or GNS alone, sentences without
/// a checksum. Each log is a real one (Tests/Fixtures/tracks/nmea) with the sentences such a receiver
/// would not send taken out; the whole log's fixes are the reference.
@Suite struct NMEASentenceKindsTests {
    struct Reading {
        var fixes: [Fix]
        var skipped: [SkippedInput]
        var sentences: NMEADecoder.SentenceCounts?
    }

    static func read(_ relative: String, keeping keep: (String) -> Bool = { _ in true }, transform: (String) -> String = { $0 }) throws
        -> Reading
    {
        let path = TrackFixtures.path(relative)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            .filter { !$0.hasPrefix("$") || keep(String($0.dropFirst(3).prefix(3))) }
            .map { $0.hasPrefix("$") ? transform($0) : $0 }
        let reader = try TrackReader(data: Data(lines.joined(separator: "\n").utf8), name: "log.nmea", format: .nmea)
        var fixes: [Fix] = []
        var skipped: [SkippedInput] = []
        while let item = try reader.next() {
            switch item {
            case .fix(let fix): fixes.append(fix)
            case .skipped(let problem): skipped.append(problem)
            }
        }
        return Reading(fixes: fixes, skipped: skipped, sentences: reader.nmeaSentences)
    }

    static func expectSameTrack(_ fixes: [Fix], as reference: [Fix], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(fixes.count == reference.count, sourceLocation: sourceLocation)
        for (fix, expected) in zip(fixes, reference) {
            #expect(fix.time == expected.time, sourceLocation: sourceLocation)
            #expect(abs(fix.coordinate.latitude - expected.coordinate.latitude) < 1e-7, sourceLocation: sourceLocation)
            #expect(abs(fix.coordinate.longitude - expected.coordinate.longitude) < 1e-7, sourceLocation: sourceLocation)
        }
    }

    static let ublox = "nmea/gpsd/ublox-neo-m9n-nmea.log"
    static let trimble = "nmea/dotMorten-NmeaParser/TrimbleR2SampleData.txt"

    @Test func everySentenceIsCountedByKind() throws {
        let whole = try Self.read(Self.ublox)
        let counts = try #require(whole.sentences)
        let kinds: [Int] = [counts.rmc, counts.gga, counts.gll, counts.zda, counts.gns]
        #expect(kinds == [61, 61, 61, 61, 0])
        #expect(counts.other == 732 + 244 + 61 + 61 + 61)  // GSV, GSA, VTG, GST, GBS
        #expect(counts.withoutChecksum == 0)
        #expect(whole.fixes.count == 61)
        #expect(whole.skipped.isEmpty)
    }

    /// The bug this fixes: without RMC, every fix was skipped as "missing time".
    @Test(arguments: [["GGA", "ZDA"], ["GLL", "ZDA"], ["GGA", "GLL", "ZDA"]])
    func aLogWithoutRMCTakesItsDateFromZDA(kinds: [String]) throws {
        let reference = try Self.read(Self.ublox).fixes
        let reading = try Self.read(Self.ublox, keeping: { kinds.contains($0) })
        #expect(reading.skipped.isEmpty, "\(reading.skipped.prefix(3))")
        Self.expectSameTrack(reading.fixes, as: reference)
    }

    @Test func gnsAloneGivesTheTrackWithItsHDOPAndAltitude() throws {
        let reference = try Self.read(Self.trimble).fixes
        let reading = try Self.read(Self.trimble, keeping: { $0 == "GNS" || $0 == "ZDA" })
        #expect(try #require(reading.sentences).gns == 102)
        Self.expectSameTrack(reading.fixes, as: reference)
        #expect(reading.fixes.first?.hdop == 1.2)
        #expect(reading.fixes.first?.elevation == 403.6)
    }

    @Test func sentencesWithoutAChecksumAreReadAndCounted() throws {
        let reference = try Self.read(Self.ublox).fixes
        let stripped = try Self.read(
            Self.ublox,
            transform: { line in
                line.firstIndex(of: "*").map { String(line[..<$0]) } ?? line
            })
        Self.expectSameTrack(stripped.fixes, as: reference)
        #expect(try #require(stripped.sentences).withoutChecksum == 1403)  // every sentence of the log
        #expect(stripped.skipped.isEmpty)
    }

    /// Without a checksum, a line cut off mid-way has too few fields: malformed, not a short reading.
    @Test func aCutOffSentenceWithoutAChecksumIsStillMalformed() throws {
        let text = "$GNGGA,223745.00,3806.62964,N,12237.61382,W,2,12,0.54,83\n$GNZDA,223745.00,11,07,2020,00,00\n"
        let reader = try TrackReader(data: Data(text.utf8), name: "cut.nmea", format: .nmea)
        var items: [TrackItem] = []
        while let item = try reader.next() { items.append(item) }
        #expect(items.count == 1)
        guard case .skipped(let skipped) = items.first else {
            Issue.record("expected a skipped line, got \(items)")
            return
        }
        #expect(skipped.problem == .malformed)
        #expect(skipped.detail.hasPrefix("truncated sentence without a *hh checksum"))
        #expect(reader.nmeaSentences?.zda == 1)
    }
}
