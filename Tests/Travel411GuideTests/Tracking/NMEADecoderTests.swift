import Travel411Core
import XCTest

@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

final class NMEADecoderTests: XCTestCase {
    /// The Reno drive: 4,469 RMC+GGA epochs, each one fix; the four "*** program startup/ENDED ***"
    /// banner lines are the only lines skipped (blank lines are not counted), and it crosses midnight UTC.
    func testRenoDriveGivesOneFixPerEpochAcrossMidnight() throws {
        let (items, error, reader) = try TrackFixtures.read("nmea/dotMorten-NmeaParser/NmeaSampleData.txt")
        XCTAssertNil(error)
        XCTAssertEqual(reader.format, .nmea, "a .txt whose first line is a banner is still recognised as NMEA")
        let fixes = items.fixes
        XCTAssertEqual(fixes.count, 4469)
        XCTAssertEqual(items.count(.badChecksum), 0)
        XCTAssertEqual(items.count(.malformed), 4)
        XCTAssertEqual(items.skipped.map(\.line), [1, 31552, 31553, 58100])
        XCTAssertEqual(TrackTime.format(fixes[0].recordedTime), "2005-09-25T23:52:34Z")
        XCTAssertEqual(TrackTime.format(fixes[fixes.count - 1].recordedTime), "2005-09-26T02:56:32Z")
        XCTAssertTrue(zip(fixes, fixes.dropFirst()).allSatisfy { $0.recordedTime < $1.recordedTime }, "the rollover keeps time increasing")
        // RMC and GGA of the first epoch merged: RMC's speed and course, GGA's HDOP and altitude.
        let first = fixes[0]
        XCTAssertEqual(first.coordinate.latitude, 39 + 25.9702 / 60, accuracy: 1e-9)
        XCTAssertEqual(first.coordinate.longitude, -(119 + 45.9354 / 60), accuracy: 1e-9)
        XCTAssertEqual(first.speed ?? 0, 45.1 * 1852 / 3600, accuracy: 1e-9)
        XCTAssertEqual(first.course, 153.1)
        XCTAssertEqual(first.hdop, 0.8)
        XCTAssertEqual(first.elevation, 1378.6)
        XCTAssertEqual(first.estimatedAccuracy, 4.0)
        XCTAssertEqual(first.line, 4, "the fix is complete at its GGA line")
    }

    func testGPSDForwarderLogHas46BadChecksums() throws {
        let (items, error, _) = try TrackFixtures.read("nmea/gpsd/gpsdf.log")
        XCTAssertNil(error)
        XCTAssertEqual(items.count(.badChecksum), 46)
        XCTAssertEqual(items.fixes.count, 51)
        XCTAssertEqual(items.count(.malformed), 0, "# comments and blank CRLF lines are not problems")
    }

    func testRennesLogHasOneBadChecksum() throws {
        let (items, _, _) = try TrackFixtures.read("nmea/gpsd/com-1289.log")
        XCTAssertEqual(items.count(.badChecksum), 1)
        XCTAssertEqual(items.fixes.count, 14)
        XCTAssertEqual(items.skipped.count, 1)
    }

    /// The cold-boot log: SOURCES.md counts 46 broken `$` lines (35 bad checksums, 11 truncated). A `$`
    /// inside a line starts a new sentence here, as receivers resynchronise, so the five lines that run
    /// two sentences together give 7 good sentences back and the per-sentence tally is: 36 bad checksums,
    /// an RMC cut off by NUL bytes, a `$PLCS` with no checksum, a bare `$GP` and 2 lines of garbage (5
    /// malformed), 18 epochs without a fix, and 1 GGA before any RMC gave a date. The other cut-off
    /// sentences (GSV, VTG) have no checksum and are of types read past, so they are read past, as gpsd
    /// does. One fix survives, with the 2019-04-07 date the simulator spoofed.
    func testColdBootLogCountsEveryBrokenSentence() throws {
        let (items, error, _) = try TrackFixtures.read("nmea/gpsd/gp-320fw-2019-04-07-coldboot.log")
        XCTAssertNil(error)
        XCTAssertEqual(items.count(.badChecksum), 36)
        XCTAssertEqual(items.count(.malformed), 5)
        XCTAssertEqual(items.count(.noFix), 18)
        XCTAssertEqual(items.count(.missingTime), 1)
        XCTAssertEqual(items.fixes.map { TrackTime.format($0.recordedTime) }, ["2019-04-07T00:03:45.030Z"])
        XCTAssertTrue(items.skipped.allSatisfy { !$0.detail.contains("\u{0}") }, "NUL bytes are escaped in messages")
    }

    func testTalkersGNAndGPAndEmptyNoFixSentences() throws {
        XCTAssertEqual(try TrackFixtures.read("nmea/gpsd/nmea-rtk.log").items.fixes.count, 122)
        XCTAssertEqual(try TrackFixtures.read("nmea/dotMorten-NmeaParser/TrimbleR2SampleData.txt").items.fixes.count, 34)
        let telit = try TrackFixtures.read("nmea/gpsd/telit-he910.log").items
        XCTAssertEqual(telit.fixes.count, 187)
        // 37 epochs before the first fix, each with an RMC, a GGA and a GLL that say so.
        XCTAssertEqual(telit.count(.noFix), 111, "'$GPRMC,,V,,,,,,,,,,N' before the first fix is no fix, not garbage")
        XCTAssertEqual(telit.count(.malformed), 0)
        let haicom = try TrackFixtures.read("nmea/gpsd/haicom-305N.log").items
        XCTAssertEqual(haicom.fixes.count, 68, "status V to A: only the A epochs are fixes")
    }

    func testGGAOnlyEpochsRollOverMidnightFromTheLastRMCDate() {
        var decoder = NMEADecoder()
        let lines = [
            nmea("GPRMC,235958,A,5130.0000,N,00007.0000,W,0.0,0.0,311224,,"),
            nmea("GPGGA,235959,5130.0000,N,00007.0000,W,1,08,1.0,10.0,M,,,,"),
            nmea("GPGGA,000001,5130.0000,N,00007.0000,W,1,08,1.0,10.0,M,,,,"),
        ]
        var items: [TrackItem] = []
        for (index, line) in lines.enumerated() { items += decoder.decode(line: Array(line.utf8)[...], number: index + 1) }
        items += decoder.finish()
        XCTAssertEqual(
            items.fixes.map { TrackTime.format($0.recordedTime) },
            ["2024-12-31T23:59:58Z", "2024-12-31T23:59:59Z", "2025-01-01T00:00:01Z"])
    }

    func testAnRMCWhoseDateLagsBehindMidnightIsMovedOnADay() {
        var decoder = NMEADecoder()
        var items: [TrackItem] = []
        for (index, body) in [
            "GNRMC,235959.00,A,5130.0,N,00007.0,W,1.0,90.0,150624,,,A", "GNRMC,000000.00,A,5130.0,N,00007.0,W,1.0,90.0,150624,,,A",
        ].enumerated() {
            items += decoder.decode(line: Array(nmea(body).utf8)[...], number: index + 1)
        }
        items += decoder.finish()
        XCTAssertEqual(items.fixes.map { TrackTime.format($0.recordedTime) }, ["2024-06-15T23:59:59Z", "2024-06-16T00:00:00Z"])
    }

    /// Live answering: an RMC+GGA stream gives each fix at its GGA; an RMC-only stream gives each fix at
    /// its RMC once the first epoch has shown that no GGA follows.
    func testEpochsAreEmittedAsSoonAsTheyAreComplete() {
        var decoder = NMEADecoder()
        XCTAssertTrue(decoder.decode(line: Array(nmea("BDRMC,120000,A,4000.0,N,00300.0,E,0,0,010124,,").utf8)[...], number: 1).isEmpty)
        XCTAssertEqual(
            decoder.decode(line: Array(nmea("BDGGA,120000,4000.0,N,00300.0,E,1,5,0.9,5,M,,,,").utf8)[...], number: 2).fixes.count, 1)
        XCTAssertTrue(decoder.decode(line: Array(nmea("BDRMC,120001,A,4000.0,N,00300.0,E,0,0,010124,,").utf8)[...], number: 3).isEmpty)
        XCTAssertEqual(
            decoder.decode(line: Array(nmea("BDGGA,120001,4000.0,N,00300.0,E,1,5,0.9,5,M,,,,").utf8)[...], number: 4).fixes.count, 1)

        var rmcOnly = NMEADecoder()
        XCTAssertTrue(rmcOnly.decode(line: Array(nmea("GARMC,120000,A,4000.0,N,00300.0,E,0,0,010124,,").utf8)[...], number: 1).isEmpty)
        XCTAssertEqual(
            rmcOnly.decode(line: Array(nmea("GARMC,120001,A,4000.0,N,00300.0,E,0,0,010124,,").utf8)[...], number: 2).fixes.count, 2)
        XCTAssertEqual(
            rmcOnly.decode(line: Array(nmea("GARMC,120002,A,4000.0,N,00300.0,E,0,0,010124,,").utf8)[...], number: 3).fixes.count, 1)
    }

    func testGarbageNeverCrashes() {
        var decoder = NMEADecoder()
        var generator = SystemRandomNumberGenerator()
        for number in 1...2000 {
            let length = Int.random(in: 0...120, using: &generator)
            var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            if number % 3 == 0 { bytes = Array("$GPRMC,".utf8) + bytes }
            _ = decoder.decode(line: bytes[...], number: number)
        }
        _ = decoder.finish()
    }
}
