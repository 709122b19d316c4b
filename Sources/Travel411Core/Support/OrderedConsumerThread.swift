import Foundation

/// Runs the second half of a sequential job on a thread of its own, so that two cores share it: the caller's
/// thread makes the items (reads a file, merges sorted runs), this thread consumes them (stores them), one at a
/// time and in the order they were sent, exactly as one thread doing both would.
///
/// Items go over in batches (the lock's cost spread over many) through a queue of a few batches, so memory
/// stays bounded whatever the job's size. The first error `consume` throws stops it: `send` returns false from
/// then on, so that the maker can stop, and `finish` rethrows it. The consumer holds no item and no reference to
/// `consume` once `finish` has returned.
package final class OrderedConsumerThread<Item>: @unchecked Sendable {
    private let batchItems: Int
    private let queuedBatches: Int
    private let condition = NSCondition()
    private var queue: [[Item]] = []
    private var pending: [Item] = []
    private var producing = true
    private var consuming = true
    private var consume: ((Item) throws -> Void)?
    /// Written by the consuming thread only until it stops, read after `finish`.
    private var failure: (any Error)?

    /// `name`: the thread's, for debuggers; `batchItems` and `queuedBatches` bound what waits between the two.
    package init(name: String, batchItems: Int = 256, queuedBatches: Int = 16, consume: @escaping (Item) throws -> Void) {
        self.batchItems = max(1, batchItems)
        self.queuedBatches = max(1, queuedBatches)
        self.consume = consume
        let thread = Thread { [self] in run() }
        thread.name = name
        thread.stackSize = 8 << 20
        thread.start()
    }

    /// Queues an item; false once `consume` has failed (the maker should stop and call `finish`).
    package func send(_ item: Item) -> Bool {
        pending.append(item)
        guard pending.count >= batchItems else { return true }
        return flush()
    }

    /// Hands over what is left and waits until every item sent has been consumed; rethrows `consume`'s error.
    package func finish() throws {
        _ = flush()
        condition.lock()
        producing = false
        condition.broadcast()
        while consuming { condition.wait() }
        condition.unlock()
        if let failure { throw failure }
    }

    private func flush() -> Bool {
        let batch = pending
        pending = []
        condition.lock()
        defer { condition.unlock() }
        while consuming, queue.count >= queuedBatches { condition.wait() }
        guard consuming else { return false }
        if !batch.isEmpty {
            queue.append(batch)
            condition.broadcast()
        }
        return true
    }

    private func run() {
        consumeBatches: while let batch = nextBatch() {
            for item in batch {
                do {
                    try consume?(item)
                } catch {
                    failure = error
                    break consumeBatches
                }
            }
        }
        condition.lock()
        consume = nil
        queue = []
        consuming = false
        condition.broadcast()
        condition.unlock()
    }

    /// The next batch, waiting for one; nil once the maker has finished and the queue is empty.
    private func nextBatch() -> [Item]? {
        condition.lock()
        defer { condition.unlock() }
        while queue.isEmpty, producing { condition.wait() }
        guard !queue.isEmpty else { return nil }
        let batch = queue.removeFirst()
        condition.broadcast()
        return batch
    }
}
