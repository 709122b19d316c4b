import Foundation
import Testing

@testable import Travel411Batch
@testable import Travel411Geocoder

/// A small input file is answered as a single lookup is (each page read when first touched); a large file or a
/// stream whose size is unknown reads every level first.
struct BatchLoadingTests {
    private func file(bytes: Int) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-loading-\(UUID().uuidString).csv")
        let row = Array("51.470000,-0.450000\n".utf8)
        var data = Array("lat,lon\n".utf8)
        while data.count + row.count <= bytes { data += row }
        try Data(data).write(to: url)
        return url
    }

    @Test func aSmallFileIsReadOnDemand() throws {
        let url = try file(bytes: 200)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(BatchLoading.loading(forInputPath: url.path) == .onDemand)
    }

    @Test func aFileAboveTheLimitReadsEverything() throws {
        let url = try file(bytes: BatchLoading.smallInputBytes + 100)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(BatchLoading.loading(forInputPath: url.path) == .everything)
    }

    /// A path that names no file is reported by the batch itself; the loading does not guess.
    @Test func aMissingFileOrAFolderReadsEverything() {
        #expect(BatchLoading.loading(forInputPath: "/nonexistent/points.csv") == .everything)
        #expect(BatchLoading.loading(forInputPath: FileManager.default.temporaryDirectory.path) == .everything)
    }

    /// Everything a source gives, read to its end.
    private func drain(_ source: any BatchByteSource) throws -> [UInt8] {
        var bytes: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 5000)
        while true {
            let count = try block.withUnsafeMutableBytes { try source.read(into: $0) }
            if count == 0 { return bytes }
            bytes += block[0..<count]
        }
    }

    /// A real pipe holding `bytes`, its writing end closed after them when `closesWriter`. Up to the pipe's 64 KiB
    /// buffer the bytes are written before the peek; more go from another thread while it reads.
    private func pipe(holding bytes: [UInt8], closesWriter: Bool) throws -> (read: Int32, write: Int32) {
        var ends: [Int32] = [0, 0]
        guard Foundation.pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
        let writer = ends[1]
        let writeAll: @Sendable () -> Void = {
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { write(writer, $0.baseAddress! + offset, bytes.count - offset) }
                guard written > 0 else { break }
                offset += written
            }
            if closesWriter { close(writer) }
        }
        if bytes.count < 60_000 { writeAll() } else { Thread(block: writeAll).start() }
        return (ends[0], writer)
    }

    /// A pipe closed after one row is a small input, read on demand; one holding more than `smallInputBytes` is
    /// read whole. Either way every byte comes back, the peeked ones first.
    @Test(arguments: [(rows: 1, loading: ReverseGeocoder.Loading.onDemand), (rows: 5000, loading: ReverseGeocoder.Loading.everything)])
    func aClosedPipeIsLoadedByItsSizeAndKeepsItsBytes(rows: Int, loading: ReverseGeocoder.Loading) throws {
        let bytes = Array(String(repeating: "51.470000,-0.450000\n", count: rows).utf8)
        let ends = try pipe(holding: bytes, closesWriter: true)
        defer { close(ends.read) }
        let peeked = try BatchLoading.peek(fd: ends.read)
        #expect(peeked.loading == loading)
        #expect(try drain(peeked.source) == bytes)
    }

    /// A writer that waits for its answer after one row is a stream: it may send a million more.
    @Test func aPipeWhoseWriterWaitsReadsEverything() throws {
        let row = Array("51.47,-0.45\n".utf8)
        let ends = try pipe(holding: row, closesWriter: false)
        defer { close(ends.read) }
        let peeked = try BatchLoading.peek(fd: ends.read)
        #expect(peeked.loading == .everything)
        close(ends.write)
        #expect(try drain(peeked.source) == row)
    }
}
