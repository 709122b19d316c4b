import Foundation
import Travel411Core
import Travel411Import

/// A one-line progress bar on stderr, drawn only when stderr is a terminal and at most 10 times a second.
/// Steps of an import that run side by side may report from their own threads: each update and the finish are drawn
/// whole, one at a time.
package final class ProgressBar: @unchecked Sendable {
    package init() {}

    private let enabled = Diagnostics.stderrIsTerminal
    /// Guards what follows and the line drawn.
    private let lock = NSLock()
    private var lastDraw = Date.distantPast
    private var lastStage = ""
    private var drawn = false

    package func update(_ progress: ImportProgress) {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        let finished = progress.completed >= progress.total
        guard finished || progress.stage != lastStage || now.timeIntervalSince(lastDraw) >= 0.1 else { return }
        lastDraw = now
        lastStage = progress.stage
        let fraction = progress.total > 0 ? min(1, Double(progress.completed) / Double(progress.total)) : 1
        let width = 30
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = "\r\(bar) \(String(format: "%3d", Int(fraction * 100)))%  \(progress.stage)\u{1B}[K"
        FileHandle.standardError.write(Data(line.utf8))
        drawn = true
    }

    package func finish() {
        guard enabled else { return }
        lock.lock()
        defer { lock.unlock() }
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
