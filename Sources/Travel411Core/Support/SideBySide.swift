import Foundation

/// Two jobs at once, one on the calling thread and one on another (`DispatchQueue.concurrentPerform`), both
/// finished when it returns: for a long computation that shares nothing with the work beside it, such as a
/// lookup structure built while the caller writes rows through its connection.
package enum SideBySide {
    /// The results of `first` and `second`, run side by side; the first error either threw is rethrown after both
    /// have finished. Neither may touch what the other uses, unless it is safe to share between threads.
    package static func run<First, Second>(_ first: () throws -> First, _ second: () throws -> Second) throws -> (First, Second) {
        try withoutActuallyEscaping(first) { first in
            try withoutActuallyEscaping(second) { second in
                let results = Results<First, Second>()
                let jobs = ThreadHandoff(value: (first, second))
                DispatchQueue.concurrentPerform(iterations: 2) { job in
                    if job == 0 {
                        results.first = Result { try jobs.value.0() }
                    } else {
                        results.second = Result { try jobs.value.1() }
                    }
                }
                guard let first = results.first, let second = results.second else { throw SideBySideUnfinished() }
                return (try first.get(), try second.get())
            }
        }
    }

    /// Each slot is written by one of the two jobs only, and read once both have ended (`concurrentPerform` returns
    /// after its iterations, which orders their writes before the reads).
    private final class Results<First, Second>: @unchecked Sendable {
        var first: Result<First, any Error>?
        var second: Result<Second, any Error>?
    }
}

/// `concurrentPerform` returned before running both jobs, which it does not do: a failure, not a crash.
package struct SideBySideUnfinished: Error, CustomStringConvertible {
    package var description: String { "internal error: a job run side by side did not finish" }
}
