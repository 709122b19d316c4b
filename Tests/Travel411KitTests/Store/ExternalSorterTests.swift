import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Store
@testable import Travel411StoreWriters

/// The import's external sort: records out in key order however many runs it cut, and no run file on
/// disk at any time (each is unlinked once open), so that nothing can be left behind.
struct ExternalSorterTests {
    /// A folder of its own, to see what the sorter leaves in it.
    private func folder() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-sort-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    private func contents(_ url: URL) -> [String] { (try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? [] }

    @Test(arguments: [0, 1, 1023, 1024, 50_000])
    func recordsComeOutSortedAcrossRuns(count: Int) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 1,024 records a run (the smallest buffer it takes): 50,000 records make 49 runs.
        let sorter = ExternalSorter<(key: UInt64, value: Int32)>(
            runPrefix: folder.appendingPathComponent("run-").path, bufferBytes: 1
        ) { $0.key }
        var state: UInt64 = 411
        var expected: [UInt64] = []
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = (state >> 20) << 20 | UInt64(index)  // unique, in random order
            expected.append(key)
            try sorter.append((key, Int32(index)))
        }
        #expect(sorter.count == count)
        #expect(contents(folder).isEmpty)
        var keys: [UInt64] = []
        try sorter.drain { record in
            keys.append(record.key)
            #expect(UInt64(record.value) == record.key & 0xF_FFFF)
        }
        #expect(keys == expected.sorted())
        #expect(sorter.count == 0)
        #expect(contents(folder).isEmpty)
    }

    /// Runs sorted and written on threads of their own (`spillsInBackground`) give the records in the order the
    /// sorter gives them otherwise, equal keys in the order appended, through merges (`fanIn`) and seals.
    @Test(arguments: [3_000, 70_000])
    func backgroundSpillsGiveTheSameOrder(count: Int) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        func drained(inBackground: Bool) throws -> [Int32] {
            let sorter = ExternalSorter<(key: UInt64, value: Int32)>(
                runPrefix: folder.appendingPathComponent("run-\(inBackground)-").path, bufferBytes: 1, fanIn: 4,
                spillsInBackground: inBackground
            ) { $0.key }
            var state: UInt64 = 47
            for index in 0..<count {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                try sorter.append((state >> 54, Int32(index)))  // 1,024 keys: many records share one
                if index == count / 2 { try sorter.seal() }
            }
            #expect(contents(folder).isEmpty)
            var values: [Int32] = []
            try sorter.drain { values.append($0.value) }
            return values
        }
        let inBackground = try drained(inBackground: true)
        #expect(inBackground.count == count)
        #expect(inBackground == (try drained(inBackground: false)))
        #expect(contents(folder).isEmpty)
    }

    /// A sealed sorter lets go of a buffer of a megabyte or more (written as a run) and keeps a smaller one; what it
    /// gives out is the same as without the seal, records appended after it included.
    @Test(arguments: [100, 100_000])
    func aSealedSorterGivesTheSameOrder(count: Int) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorter = ExternalSorter<(key: UInt64, value: Int32)>(
            runPrefix: folder.appendingPathComponent("run-").path, bufferBytes: 4 << 20
        ) { $0.key }
        var state: UInt64 = 35
        var expected: [UInt64] = []
        func append(_ index: Int) throws {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = (state >> 20) << 20 | UInt64(index)
            expected.append(key)
            try sorter.append((key, Int32(index)))
        }
        for index in 0..<count { try append(index) }
        try sorter.seal()
        // 65,536 records of 16 bytes fill a megabyte: the step to the whole buffer (262,144) wrote them as a run.
        #expect(sorter.runs.count == (count < 65_536 ? 0 : 2))
        #expect((sorter.buffer.capacity == 0) == (count >= 65_536))
        for index in count..<(count + 30_000) { try append(index) }
        var keys: [UInt64] = []
        try sorter.drain { keys.append($0.key) }
        #expect(keys == expected.sorted())
        #expect(contents(folder).isEmpty)
    }

    /// A sorter that grows with its count keeps its buffer at its second size (16,384 records) until it has taken 65,536
    /// records, writing runs meanwhile, and gives the same order as one that grows at once.
    @Test(arguments: [10_000, 50_000, 300_000])
    func aSorterGrowingWithItsCountGivesTheSameOrder(count: Int) throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorter = ExternalSorter<(key: UInt64, value: Int32)>(
            runPrefix: folder.appendingPathComponent("run-").path, bufferBytes: 4 << 20, growsWithCount: true
        ) { $0.key }
        var state: UInt64 = 36
        var expected: [UInt64] = []
        var largest = 0
        for index in 0..<count {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let key = (state >> 20) << 20 | UInt64(index)
            expected.append(key)
            try sorter.append((key, Int32(index)))
            largest = max(largest, sorter.buffer.capacity)
        }
        #expect((largest < 65_536) == (count < 65_536))
        var keys: [UInt64] = []
        try sorter.drain { keys.append($0.key) }
        #expect(keys == expected.sorted())
        #expect(contents(folder).isEmpty)
    }

    /// Equal keys in several runs come out run by run, as the merge always gave them: the import's output stays
    /// the same whichever way the merge finds the smallest head.
    @Test func equalKeysComeOutInTheOrderOfTheirRuns() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorter = ExternalSorter<(key: UInt64, value: Int32)>(
            runPrefix: folder.appendingPathComponent("run-").path, bufferBytes: 1
        ) { $0.key }
        // Five runs of 1,024 records, each holding every key of 0..<1024 once, in a different order.
        for run in 0..<5 {
            for index in 0..<1024 { try sorter.append((UInt64((index * 7 + run * 13) % 1024), Int32(run))) }
        }
        var out: [(key: UInt64, value: Int32)] = []
        try sorter.drain { out.append($0) }
        #expect(out.count == 5 * 1024)
        #expect(out.map(\.key) == (0..<1024).flatMap { key in [UInt64](repeating: UInt64(key), count: 5) })
        #expect(out.map(\.value) == (0..<1024).flatMap { _ in (0..<5).map(Int32.init) })
    }

    /// Runs merged four at a time as they are cut (the import's sorts merge 64): 50,000 records in 49 runs of 1,024
    /// give the same records in the same order, equal keys run by run, with never more than 12 runs open.
    @Test func runsMergedAsTheyAreCutGiveTheSameOrder() throws {
        let folder = try folder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let sorter = ExternalSorter<(key: UInt64, value: Int32)>(
            runPrefix: folder.appendingPathComponent("run-").path, bufferBytes: 1, fanIn: 4
        ) { $0.key }
        var expected: [(key: UInt64, value: Int32)] = []
        var mostRuns = 0
        for index in 0..<50_000 {
            // 1,000 keys, each in many runs: the order of equal keys is the order they came in.
            let record = (key: UInt64(index * 7_919 % 1_000), value: Int32(index))
            expected.append(record)
            try sorter.append(record)
            mostRuns = max(mostRuns, sorter.runs.count)
            #expect(contents(folder).isEmpty)
        }
        #expect(mostRuns <= 12)
        var out: [(key: UInt64, value: Int32)] = []
        try sorter.drain { out.append($0) }
        // Each run sorted its buffer by key alone: within a run, equal keys keep no order, so compare run by run.
        let runOf = { (value: Int32) in Int(value) / 1_024 }
        let sorted = expected.enumerated().sorted {
            ($0.element.key, runOf($0.element.value), $0.offset) < ($1.element.key, runOf($1.element.value), $1.offset)
        }
        #expect(out.map(\.key) == sorted.map(\.element.key))
        #expect(out.map { runOf($0.value) } == sorted.map { runOf($0.element.value) })
        #expect(Set(out.map(\.value)) == Set(expected.map(\.value)))
        #expect(contents(folder).isEmpty)
    }

    @Test func aRunThatCannotBeCreatedIsAnErrorNamingTheFile() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-no-such-\(UUID().uuidString)")
        let sorter = ExternalSorter<UInt64>(runPrefix: missing.appendingPathComponent("run-").path, bufferBytes: 1) { $0 }
        let error = #expect(throws: ImportError.self) {
            for value in 0..<5_000 { try sorter.append(UInt64(value)) }
        }
        #expect(error?.message.hasPrefix(missing.appendingPathComponent("run-0").path + ": cannot create a sort run") == true)
    }
}
