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
}
