import Foundation

/// The C standard streams, touched from the library (Swift 5 mode): C's `stdout` is a global
/// variable that Swift 6 cannot prove is used from one thread, and these calls happen once at start-up.
public enum StandardStreams {
    /// Each line reaches the reader as soon as it is printed, as a live stream's events must.
    public static func lineBufferStandardOutput() {
        setvbuf(stdout, nil, _IOLBF, 0)
    }
}
