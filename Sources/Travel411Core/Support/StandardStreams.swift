import Foundation

/// The C standard streams. C's `stdout` is a global variable that the Swift 6 language mode will not let
/// Swift code name (it cannot prove one thread uses it), so this flushes every C output stream instead
/// (`fflush(NULL)`), which reaches `print`'s buffer without naming it.
public enum StandardStreams {
    /// Sends what `print` has buffered to its reader now: a live stream's events must not wait in a buffer,
    /// and an event's line must be out before an `--exec` command for it runs.
    public static func flushStandardOutput() {
        fflush(nil)
    }
}
