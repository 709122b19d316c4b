import Foundation
import Testing

@testable import Travel411Kit

/// The import's external sort: records out in key order however many runs it cut, and no run left behind.
struct ExternalSorterTests {
    private func runDirectory() -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("travel411-sort-\(UUID().uuidString)")
    }

    @Test(arguments: [0, 1, 1023, 1024, 50_000])
    func recordsComeOutSortedAcrossRuns(count: Int) throws {
        let directory = runDirectory()
        // 1,024 records a run (the smallest buffer it takes): 50,000 records make 49 runs.
        let sorter = ExternalSorter<(key: UInt64, value: Int32)>(runDirectory: directory, bufferBytes: 1) { $0.key }
        var state: UInt64 = 411
        var expected: [UInt64] = []
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = (state >> 20) << 20 | UInt64(index)  // unique, in random order
            expected.append(key)
            try sorter.append((key, Int32(truncatingIfNeeded: index)))
        }
        #expect(sorter.count == count)
        var keys: [UInt64] = []
        try sorter.drain { record in
            keys.append(record.key)
            #expect(Int32(truncatingIfNeeded: Int(record.key & 0xFFFFF)) == record.value || count > 0xFFFFF)
        }
        #expect(keys == expected.sorted())
        #expect(!FileManager.default.fileExists(atPath: directory.path))
        #expect(sorter.count == 0)
    }

    @Test func anAbandonedSortRemovesItsRuns() throws {
        let directory = runDirectory()
        do {
            let sorter = ExternalSorter<UInt64>(runDirectory: directory, bufferBytes: 1) { $0 }
            for value in 0..<5_000 { try sorter.append(UInt64(5_000 - value)) }
            #expect(FileManager.default.fileExists(atPath: directory.path))
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test func aRunThatCannotBeWrittenIsAnErrorNamingTheFile() throws {
        // A file where the run directory should be: creating the directory fails.
        let blocker = runDirectory()
        try Data("not a directory".utf8).write(to: blocker)
        defer { try? FileManager.default.removeItem(at: blocker) }
        let sorter = ExternalSorter<UInt64>(runDirectory: blocker.appendingPathComponent("runs"), bufferBytes: 1) { $0 }
        #expect(throws: (any Error).self) {
            for value in 0..<5_000 { try sorter.append(UInt64(value)) }
        }
    }
}
