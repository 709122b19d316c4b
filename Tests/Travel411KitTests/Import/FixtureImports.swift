import Foundation
import Synchronization
import Travel411Import

/// The fixture databases of a test process, one import per fixture however many suites keep it: suites run at once,
/// and two importing the same extract into the same path left one of them reading the other's half-written file.
final class FixtureImports: Sendable {
    typealias Outcome = Result<(path: String, summary: ImportSummary), any Error>

    /// One fixture's import: the first suite to ask runs it while the others wait on its lock.
    private final class Entry: Sendable {
        let outcome = Mutex<Outcome?>(nil)
    }

    static let shared = FixtureImports()
    private let entries = Mutex<[String: Entry]>([:])

    func outcome(of name: String, importing: () -> Outcome) -> Outcome {
        let entry = entries.withLock { entries in
            if let entry = entries[name] { return entry }
            let entry = Entry()
            entries[name] = entry
            return entry
        }
        return entry.outcome.withLock { outcome in
            if let outcome { return outcome }
            let made = importing()
            outcome = made
            return made
        }
    }
}
