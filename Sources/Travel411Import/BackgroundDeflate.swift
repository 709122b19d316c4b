import Foundation
import Travel411Core
import Travel411Store

/// Deflates lookup pages (`PageCompression`) on a thread of its own while the caller's thread builds the next
/// ones, and stores each through the caller's thread, in the order they were given: the same rows as deflating
/// them in place, with the second core doing the deflating. The database connection is used by the caller's
/// thread only.
///
/// At most `queuedPages` pages wait, so memory stays bounded. `flush` stores every page given so far: call it
/// before reading pages back, and before the database is committed.
final class BackgroundDeflate {
    /// How a page is coded before it is deflated.
    enum Coding {
        case none
        /// A page of records (`RecordPageCoding`).
        case records
        /// An extract's area tile (`AreaTileCoding`).
        case areaTile

        /// The blob to store for `page`.
        func stored(_ page: [UInt8]) -> [UInt8] {
            switch self {
            case .none: return PageCompression.compressed(page)
            case .records: return PageCompression.compressed(RecordPageCoding.encode(page))
            case .areaTile: return PageCompression.compressed(areaTile: page)
            }
        }
    }

    private final class Job {
        let page: [UInt8]?
        let coding: Coding
        let store: ([UInt8]?) throws -> Void
        /// Set by the deflating thread, under the shared lock.
        var blob: [UInt8]?
        var isDone = false

        init(page: [UInt8]?, coding: Coding, store: @escaping ([UInt8]?) throws -> Void) {
            self.page = page
            self.coding = coding
            self.store = store
        }
    }

    /// What the two threads share, under `condition`.
    private final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        var waiting: [Job] = []
        var stopped = false

        /// The deflating thread's loop: until stopped, the oldest waiting page, deflated.
        func run() {
            while let job = next() {
                let blob = job.page.map(job.coding.stored)
                condition.lock()
                job.blob = blob
                job.isDone = true
                condition.broadcast()
                condition.unlock()
            }
        }

        private func next() -> Job? {
            condition.lock()
            defer { condition.unlock() }
            while waiting.isEmpty, !stopped { condition.wait() }
            guard !stopped else { return nil }
            return waiting.removeFirst()
        }
    }

    private let shared = Shared()
    /// The pages given and not yet stored, oldest first (the caller's thread only).
    private var inOrder: [Job] = []
    private let queuedPages: Int

    init(queuedPages: Int = 16) {
        self.queuedPages = max(1, queuedPages)
        let thread = Thread { [shared] in shared.run() }
        thread.name = "travel411 deflate"
        thread.start()
    }

    deinit {
        shared.condition.lock()
        shared.stopped = true
        shared.waiting = []
        shared.condition.broadcast()
        shared.condition.unlock()
    }

    /// Deflates `page` on the other thread; `store` gets the blob to store on this thread, in order, during this
    /// call or a later one (or `flush`). A nil page (a row without a blob) is stored in its turn as nil.
    func store(_ page: [UInt8]?, coding: Coding = .none, _ store: @escaping ([UInt8]?) throws -> Void) throws {
        let job = Job(page: page, coding: coding, store: store)
        shared.condition.lock()
        shared.waiting.append(job)
        shared.condition.broadcast()
        shared.condition.unlock()
        inOrder.append(job)
        try storeDeflated(leaving: queuedPages)
    }

    /// Stores every page given so far.
    func flush() throws { try storeDeflated(leaving: 0) }

    /// Stores the deflated pages at the head of the queue, waiting for them while more than `limit` wait.
    private func storeDeflated(leaving limit: Int) throws {
        while let head = inOrder.first {
            shared.condition.lock()
            while !head.isDone, inOrder.count > limit { shared.condition.wait() }
            let (isDone, blob) = (head.isDone, head.blob)
            shared.condition.unlock()
            guard isDone else { return }
            inOrder.removeFirst()
            try head.store(blob)
        }
    }
}
