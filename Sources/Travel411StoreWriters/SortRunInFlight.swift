import Foundation

/// A run of an `ExternalSorter` being sorted and written on a thread of its own while the sorter's caller fills its
/// next buffer (`ExternalSorter(spillsInBackground:)`). After the read, the import places its addresses and objects
/// on one thread, and sorting and writing the runs of what it collects took about half of that step with the other
/// core idle (docs/import.md, session 47).
@usableFromInline final class SortRunInFlight: @unchecked Sendable {
    private let finished = DispatchSemaphore(value: 0)
    /// Written by the run's thread before it signals `finished`, read after `wait` has seen the signal.
    private var failure: (any Error)?
    private let job: () throws -> Void

    /// Starts `job` on a new thread: a run is tens of megabytes, so a thread of its own costs nothing measurable, and
    /// unlike Dispatch's pool it is never left waiting behind a `concurrentPerform` that the caller is running.
    @usableFromInline init(_ job: @escaping () throws -> Void) {
        self.job = job
        let thread = Thread { [self] in
            do { try self.job() } catch { failure = error }
            finished.signal()
        }
        thread.start()
    }

    /// Returns once the run is written, throwing what failed writing it.
    @usableFromInline func wait() throws {
        finished.wait()
        if let failure { throw failure }
    }
}
