import Foundation
import Travel411Core

/// Where a batch reads its input: a file descriptor for the CLI, memory for the server. `read` fills
/// `buffer` from its start and returns the byte count, 0 at the end of the input.
public protocol BatchByteSource: AnyObject {
    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int
    /// Whether a `read` now would return bytes (or the end) without waiting for a writer. A pipe
    /// whose writer has paused says no, and the batch then answers the rows it holds at once.
    func hasInputWaiting() -> Bool
}

extension BatchByteSource {
    /// Bytes in memory and regular files never make the reader wait.
    public func hasInputWaiting() -> Bool { true }
}

/// Where a batch writes its output, in order, from one thread at a time (the pipeline's writer). A sink
/// that blocks holds the batch back: that is the backpressure a slow reader puts on it.
public protocol BatchByteSink: AnyObject {
    func write(_ bytes: UnsafeRawBufferPointer) throws
}

/// A file descriptor to read; `name` names it in messages.
public final class FileDescriptorSource: BatchByteSource {
    let fd: Int32
    let name: String

    /// Regular files always have their next bytes at hand; pipes, terminals and sockets may not.
    let mayWaitForAWriter: Bool

    public init(fd: Int32, name: String) {
        self.fd = fd
        self.name = name
        var status = stat()
        mayWaitForAWriter = fstat(fd, &status) != 0 || (status.st_mode & S_IFMT) != S_IFREG
    }

    /// A writer that falls silent for a millisecond has paused (an interactive program waiting for
    /// its answer); a fast stream refills the pipe far sooner, so it still goes in large chunks.
    public func hasInputWaiting() -> Bool { hasInputWaiting(withinMilliseconds: 1) }

    /// Whether bytes (or the end) arrive within `milliseconds`.
    func hasInputWaiting(withinMilliseconds milliseconds: Int32) -> Bool {
        guard mayWaitForAWriter else { return true }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let ready = poll(&descriptor, 1, milliseconds)
            if ready >= 0 { return ready > 0 }
            if errno != EINTR { return true }  // let the read report the problem
        }
    }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        while true {
            let count = Foundation.read(fd, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw BatchError("cannot read \(name): \(String(cString: strerror(errno)))") }
        }
    }
}

/// Bytes in memory, read once from the start (a request body).
public final class MemorySource: BatchByteSource {
    private let bytes: [UInt8]
    private var offset = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        let count = min(buffer.count, bytes.count - offset)
        guard count > 0, let destination = buffer.baseAddress else { return 0 }
        bytes.withUnsafeBytes { destination.copyMemory(from: $0.baseAddress! + offset, byteCount: count) }
        offset += count
        return count
    }
}

/// A file descriptor to write, every byte (short writes and EINTR retried).
public final class FileDescriptorSink: BatchByteSink {
    let fd: Int32

    public init(fd: Int32) { self.fd = fd }

    public func write(_ bytes: UnsafeRawBufferPointer) throws {
        guard var start = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let written = Foundation.write(fd, start, remaining)
            if written > 0 {
                start += written
                remaining -= written
            } else if written < 0 && errno != EINTR {
                throw BatchError("cannot write the output: \(String(cString: strerror(errno)))")
            }
        }
    }
}

/// Rows written so far, as a batch reports them while it runs.
public struct BatchProgress: Sendable, Equatable {
    public var rows: Int
    public var errors: Int
    /// Seconds since the batch started.
    public var seconds: Double
}

/// What a batch tells its caller while it runs: `progress` after each chunk written (from the writer
/// thread), `finished` once with the summary. The batch itself prints nothing.
public struct BatchEvents: Sendable {
    public var progress: (@Sendable (BatchProgress) -> Void)?
    public var finished: (@Sendable (BatchSummary) -> Void)?

    public init(progress: (@Sendable (BatchProgress) -> Void)? = nil, finished: (@Sendable (BatchSummary) -> Void)? = nil) {
        self.progress = progress
        self.finished = finished
    }

    /// The CLI's reporting: a running count on stderr when it is a terminal and `showProgress`, and the
    /// summary line when `printsSummary`.
    public static func standardError(showProgress: Bool, printsSummary: Bool) -> BatchEvents {
        let reporter: TerminalProgress? = showProgress && isatty(STDERR_FILENO) != 0 ? TerminalProgress() : nil
        var events = BatchEvents()
        if let reporter { events.progress = { @Sendable progress in reporter.show(progress) } }
        events.finished = { @Sendable summary in
            reporter?.clear()
            if printsSummary { TerminalProgress.print("travel411: \(summary)\n") }
        }
        return events
    }
}

/// A running row count on stderr, for people watching a terminal, at most four times a second.
// @unchecked Sendable: called only from the pipeline's writer thread, then once after it has ended.
final class TerminalProgress: @unchecked Sendable {
    private var lastShown = 0.0
    private var hasPrinted = false

    func show(_ progress: BatchProgress) {
        guard progress.seconds - lastShown >= 0.25 else { return }
        lastShown = progress.seconds
        let rate = Double(progress.rows) / max(progress.seconds, 1e-9)
        Self.print(
            "\r\(BatchSummary.grouped(progress.rows)) rows, \(BatchSummary.grouped(progress.errors)) errors, \(BatchSummary.grouped(Int(rate))) rows/s\u{1B}[K"
        )
        hasPrinted = true
    }

    func clear() {
        if hasPrinted { Self.print("\r\u{1B}[K") }
    }

    static func print(_ text: String) {
        var text = text
        text.withUTF8 { _ = Foundation.write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
