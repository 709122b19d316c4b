import Foundation
import XCTest

@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

/// The real track logs in Tests/Fixtures/tracks, read through the public `TrackReader`.
enum TrackFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tracks")

    static func path(_ relative: String) -> String { root.appendingPathComponent(relative).path }

    static let reno = path("nmea/dotMorten-NmeaParser/NmeaSampleData.txt")

    /// Every item of a file, and the error that ended it early (nil when it read to the end).
    static func read(_ relative: String, format: TrackInputFormat? = nil) throws -> (
        items: [TrackItem], error: (any Error)?, reader: TrackReader
    ) {
        let reader = try TrackReader(path: path(relative), format: format)
        var items: [TrackItem] = []
        do {
            while let item = try reader.next() { items.append(item) }
            return (items, nil, reader)
        } catch {
            return (items, error, reader)
        }
    }

    static func read(data: String, name: String, format: TrackInputFormat? = nil) throws -> (items: [TrackItem], error: (any Error)?) {
        let reader = try TrackReader(data: Data(data.utf8), name: name, format: format)
        var items: [TrackItem] = []
        do {
            while let item = try reader.next() { items.append(item) }
            return (items, nil)
        } catch {
            return (items, error)
        }
    }
}

extension Array where Element == TrackItem {
    var fixes: [Fix] { compactMap { if case .fix(let fix) = $0 { return fix } else { return nil } } }
    var skipped: [SkippedInput] { compactMap { if case .skipped(let skipped) = $0 { return skipped } else { return nil } } }
    func count(_ problem: ReadProblem) -> Int { skipped.filter { $0.problem == problem }.count }
}

/// An NMEA sentence with its checksum worked out here, for hand-made streams.
func nmea(_ body: String) -> String {
    let sum = body.utf8.reduce(UInt8(0), ^)
    return "$" + body + String(format: "*%02X", sum)
}

extension Fix {
    /// The time of a fix from a timed input (every reader but a GPX route gives one); the distant past
    /// for a route point, which no timed assertion expects.
    var recordedTime: Date { time ?? .distantPast }
}
