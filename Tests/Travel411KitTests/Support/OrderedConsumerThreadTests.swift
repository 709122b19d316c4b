import Foundation
import Testing

@testable import Travel411Core

/// The hand-over between two threads that the OpenStreetMap read and the street tiles use: the consumer sees
/// every item once, in the order sent, and its first error stops both sides.
@Suite struct OrderedConsumerThreadTests {
    /// The consumer's items, written on its thread and read after `finish`.
    private final class Seen: @unchecked Sendable { var items: [Int] = [] }

    @Test func theConsumerSeesEveryItemInOrder() throws {
        let seen = Seen()
        // Small batches and a short queue, so that the maker waits for the consumer many times.
        let thread = OrderedConsumerThread<Int>(name: "test", batchItems: 3, queuedBatches: 2) { seen.items.append($0) }
        for item in 0..<10_000 { #expect(thread.send(item)) }
        try thread.finish()
        #expect(seen.items == Array(0..<10_000))
    }

    @Test func theConsumersFirstErrorStopsTheMakerAndIsRethrown() throws {
        struct Broken: Error, Equatable { var item: Int }
        let seen = Seen()
        let thread = OrderedConsumerThread<Int>(name: "test", batchItems: 4, queuedBatches: 2) { item in
            if item == 100 { throw Broken(item: item) }
            seen.items.append(item)
        }
        var sent = 0
        while sent < 1_000_000, thread.send(sent) { sent += 1 }
        #expect(sent < 1_000_000, "the maker learns of the failure and stops")
        #expect(throws: Broken(item: 100)) { try thread.finish() }
        #expect(seen.items == Array(0..<100))
    }

    @Test func nothingSentFinishesAtOnce() throws {
        let thread = OrderedConsumerThread<Int>(name: "test") { _ in Issue.record("no item was sent") }
        try thread.finish()
    }
}
