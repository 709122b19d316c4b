import Foundation

/// Collects a pipe's lines on a background thread, so a test can wait for them with a deadline.
public final class LineCollector: @unchecked Sendable {
    private let condition = NSCondition()
    private var lines: [String] = []

    public init(_ handle: FileHandle) {
        Thread.detachNewThread { [self] in
            var pending = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                pending.append(chunk)
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[pending.startIndex..<newline], as: UTF8.self)
                    pending = Data(pending[(newline + 1)...])
                    condition.lock()
                    lines.append(line)
                    condition.broadcast()
                    condition.unlock()
                }
            }
        }
    }

    public var count: Int {
        condition.lock()
        defer { condition.unlock() }
        return lines.count
    }
    public var all: [String] {
        condition.lock()
        defer { condition.unlock() }
        return lines
    }

    public func wait(forCount wanted: Int, seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        condition.lock()
        defer { condition.unlock() }
        while lines.count < wanted {
            if !condition.wait(until: deadline) { return lines.count >= wanted }
        }
        return true
    }
}
