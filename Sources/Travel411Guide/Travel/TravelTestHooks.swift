import Foundation
import Travel411Core

/// Hooks that let the CLI tests stop a process at an exact moment. Harmless in normal use: each
/// does nothing unless its environment variable is set.
public enum TravelTestHooks {
    /// `TRAVEL411_TEST_PAUSE_IN_MOVE=SECONDS` makes `move-city` announce "paused inside the move
    /// transaction" on stderr and sleep that long after writing the move but before COMMIT, so a
    /// test can SIGKILL it there and check that nothing of the move survives.
    public static func pauseInsideMoveIfRequested(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let text = environment["TRAVEL411_TEST_PAUSE_IN_MOVE"], let seconds = Double(text), seconds > 0 else { return }
        FileHandle.standardError.write(Data("travel411: test hook: paused inside the move transaction\n".utf8))
        Thread.sleep(forTimeInterval: seconds)
    }

    /// `TRAVEL411_TEST_PAUSE_IN_REGIONS_ADD=SECONDS`: the same for `regions add`, after the insert and
    /// before COMMIT.
    public static func pauseInsideRegionsAddIfRequested(environment: [String: String] = ProcessInfo.processInfo.environment) {
        guard let text = environment["TRAVEL411_TEST_PAUSE_IN_REGIONS_ADD"], let seconds = Double(text), seconds > 0 else { return }
        FileHandle.standardError.write(Data("travel411: test hook: paused inside the regions add transaction\n".utf8))
        Thread.sleep(forTimeInterval: seconds)
    }
}
