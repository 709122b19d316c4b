import Foundation
import Travel411Geocoder
import Travel411TestSupport
import XCTest

@testable import Travel411Batch
@testable import Travel411Core

/// A batch over real pipes: a program that writes one row and waits for its answer gets it at once,
/// while a stream that keeps the pipe full still goes in large chunks.
final class InteractivePipeTests: XCTestCase {
    /// A batch running on its own thread between two pipes.
    private final class PipedBatch: @unchecked Sendable {
        let input = Pipe()
        let output = Pipe()
        let lines: LineCollector
        private let finished = DispatchSemaphore(value: 0)
        private(set) var summary: BatchSummary?
        private(set) var error: (any Error)?
        private(set) var chunksWritten = 0

        init(options: BatchOptions) {
            lines = LineCollector(output.fileHandleForReading)
            let events = BatchEvents(progress: { [self] _ in chunksWritten += 1 })
            Thread.detachNewThread { [self] in
                do {
                    summary = try BatchGeocoder(options: options, geocode: hemisphereGeocode).run(
                        source: FileDescriptorSource(fd: input.fileHandleForReading.fileDescriptor, name: "standard input"),
                        inputName: "-", sink: FileDescriptorSink(fd: output.fileHandleForWriting.fileDescriptor), events: events)
                } catch {
                    self.error = error
                }
                try? output.fileHandleForWriting.close()
                finished.signal()
            }
        }

        func write(_ text: String) { input.fileHandleForWriting.write(Data(text.utf8)) }

        func finish() throws -> BatchSummary {
            try input.fileHandleForWriting.close()
            finished.wait()
            if let error { throw error }
            return try XCTUnwrap(summary)
        }
    }

    private static let options = BatchOptions(fields: [.country], jobs: 2, showProgress: false, printsSummary: false)

    /// Writes `rows` one at a time after `first` (the header and first row), waiting for each answer;
    /// returns the slowest answer's wait in seconds.
    private func slowestAnswer(_ batch: PipedBatch, first: String, linesForFirst: Int, rows: [String]) -> TimeInterval {
        batch.write(first)
        XCTAssertTrue(batch.lines.wait(forCount: linesForFirst, seconds: 10), "no answer to the first row: \(batch.lines.all)")
        var slowest = 0.0
        for (index, row) in rows.enumerated() {
            let started = Date()
            batch.write(row)
            XCTAssertTrue(batch.lines.wait(forCount: linesForFirst + index + 1, seconds: 10), "no answer to \(row)")
            slowest = max(slowest, Date().timeIntervalSince(started))
        }
        return slowest
    }

    func testEachCSVRowWrittenToAWaitingPipeIsAnsweredAtOnce() throws {
        let batch = PipedBatch(options: Self.options)
        let slowest = slowestAnswer(
            batch, first: "lat,lon,id\n51.47,-0.45,0\n", linesForFirst: 2, rows: (1...5).map { "-33.9,151.2,\($0)\n" })
        XCTAssertLessThanOrEqual(slowest, 0.1, "an answer took \(Int(slowest * 1000)) ms")
        let summary = try batch.finish()
        XCTAssertEqual(summary.rows, 6)
        XCTAssertEqual(batch.lines.all, ["lat,lon,id,country,error", "51.47,-0.45,0,N,"] + (1...5).map { "-33.9,151.2,\($0),S," })
    }

    /// JSON Lines written as CSV reads the first object's keys first: from that line alone.
    func testEachJSONLineWrittenToAWaitingPipeIsAnsweredAtOnce() throws {
        var options = Self.options
        options.outputFormat = .csv
        let batch = PipedBatch(options: options)
        let slowest = slowestAnswer(
            batch, first: "{\"lat\":51.47,\"lon\":-0.45}\n", linesForFirst: 2, rows: (1...3).map { _ in "{\"lat\":-33.9,\"lon\":151.2}\n" })
        XCTAssertLessThanOrEqual(slowest, 0.1, "an answer took \(Int(slowest * 1000)) ms")
        XCTAssertEqual(try batch.finish().rows, 4)
        XCTAssertEqual(batch.lines.all.first, "lat,lon,country,error")
    }

    /// A writer that keeps the pipe full is not answered row by row.
    func testAStreamThatKeepsThePipeFullGoesInLargeChunks() throws {
        let batch = PipedBatch(options: Self.options)
        var csv = "lat,lon\n"
        for id in 0..<50_000 { csv += "\(Double(id % 180) - 89.5),\(Double(id % 360) - 179.5)\n" }
        batch.write(csv)
        XCTAssertEqual(try batch.finish().rows, 50_000)
        XCTAssertTrue(batch.lines.wait(forCount: 50_001, seconds: 10))
        // 1.1 MB in 256 KiB blocks is 5 chunks; a loaded machine that pauses the writer makes more, never thousands.
        XCTAssertLessThan(batch.chunksWritten, 200)
    }

    /// The CLI's default: the output speaks the input's format, even when only the content tells it.
    func testTSVOnAPipeComesBackAsTSV() throws {
        var options = Self.options
        options.outputFormatFollowsInput = true
        let batch = PipedBatch(options: options)
        batch.write("lat\tlon\tname\n51.47\t-0.45\tHeathrow, T5\n")
        XCTAssertEqual(try batch.finish().rows, 1)
        XCTAssertTrue(batch.lines.wait(forCount: 2, seconds: 10))
        XCTAssertEqual(batch.lines.all, ["lat\tlon\tname\tcountry\terror", "51.47\t-0.45\tHeathrow, T5\tN\t"])
    }

    func testTSVInATextFileComesBackAsTSV() throws {
        var options = Self.options
        options.outputFormatFollowsInput = true
        let run = try runBatch("lat\tlon\n51.47\t-0.45\n", name: "points.txt", options: options)
        XCTAssertEqual(run.text, "lat\tlon\tcountry\terror\n51.47\t-0.45\tN\t\n")
    }

    /// The summary counts from the start it is given (the CLI's process start), not from the first read.
    func testTheSummaryCountsFromTheRunsStart() throws {
        var options = Self.options
        options.startedAt = ProcessInfo.processInfo.systemUptime - 5
        let run = try runBatch("lat,lon\n51.47,-0.45\n", options: options)
        XCTAssertGreaterThanOrEqual(run.summary.seconds, 5)
        XCTAssertLessThan(run.summary.rowsPerSecond, 0.2)
    }

    func testTheProcessStartIsBeforeNowAndNotLongAgo() {
        let now = ProcessInfo.processInfo.systemUptime
        let start = ProcessClock.processStartUptime()
        XCTAssertLessThanOrEqual(start, now + 0.001)
        XCTAssertGreaterThan(start, now - 24 * 3600)
    }
}
