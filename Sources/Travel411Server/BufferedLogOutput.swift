#if Server
    import Foundation
    import Logging

    /// Log lines on their way to a file descriptor (stderr), written in batches by a thread of their own.
    ///
    /// swift-log's `StreamLogHandler` writes and flushes stderr under a lock for every line, and reads
    /// the local time zone for every timestamp: with one access-log line per request that was a system
    /// call or two per request, and the two event loops queued on the lock. Here a line is appended to
    /// a buffer; the writer thread wakes when the buffer gets its first line, waits `batchInterval` for
    /// more, and writes them all at once. Lines of level `notice` and above, and `flush()`, write at
    /// once (with everything queued before them, in order). The buffer is bounded: past `maxPending`
    /// bytes the caller writes it out itself, so a slow stderr slows logging down instead of growing
    /// memory.
    public final class BufferedLogOutput: @unchecked Sendable {
        static let batchInterval: useconds_t = 20_000
        static let maxPending = 1 << 20

        private let fileDescriptor: Int32
        /// Guards `pending`, `writerIsWaiting` and the timestamp cache; taken before `outputLock`.
        private let condition = NSCondition()
        /// Held while bytes go out, so that batches leave in the order they were queued.
        private let outputLock = NSLock()
        private var pending: [UInt8] = []
        private var writerIsWaiting = false
        private var timestampSecond = 0
        private var timestampText = ""

        public init(fileDescriptor: Int32 = STDERR_FILENO) {
            self.fileDescriptor = fileDescriptor
            pending.reserveCapacity(64 << 10)
            let thread = Thread { [self] in writeBatches() }
            thread.name = "log writer"
            thread.start()
        }

        /// Queues `"<timestamp> " + rest`; `urgent` writes everything queued, this line included, at once.
        func append(afterTimestamp rest: String, urgent: Bool) {
            condition.lock()
            let wasEmpty = pending.isEmpty
            appendTimestamp()
            pending.append(UInt8(ascii: " "))
            pending.append(contentsOf: rest.utf8)
            if urgent || pending.count >= Self.maxPending {
                writeOutLocked()
                return
            }
            if wasEmpty && writerIsWaiting { condition.signal() }
            condition.unlock()
        }

        /// Writes every queued line now (before the process exits, or before writing to stderr directly).
        public func flush() {
            condition.lock()
            writeOutLocked()
        }

        /// Takes the queued bytes and writes them; called with `condition` locked, returns with it unlocked.
        private func writeOutLocked() {
            let batch = pending
            pending.removeAll(keepingCapacity: true)
            outputLock.lock()
            condition.unlock()
            write(batch)
            outputLock.unlock()
        }

        private func writeBatches() {
            while true {
                condition.lock()
                while pending.isEmpty {
                    writerIsWaiting = true
                    condition.wait()
                    writerIsWaiting = false
                }
                condition.unlock()
                usleep(Self.batchInterval)
                condition.lock()
                writeOutLocked()
            }
        }

        private func write(_ bytes: [UInt8]) {
            bytes.withUnsafeBytes { buffer in
                var offset = 0
                while offset < buffer.count {
                    let count = Foundation.write(fileDescriptor, buffer.baseAddress! + offset, buffer.count - offset)
                    if count < 0 && errno == EINTR { continue }
                    // Nowhere left to report a failing stderr: drop the rest rather than spin.
                    guard count > 0 else { return }
                    offset += count
                }
            }
        }

        /// Local time as swift-log's `StreamLogHandler` writes it (2026-11-25T01:00:15+0000), made once a second.
        private func appendTimestamp() {
            var now = time(nil)
            if now != timestampSecond || timestampText.isEmpty {
                var local = tm()
                var buffer = [CChar](repeating: 0, count: 64)
                if localtime_r(&now, &local) != nil, strftime(&buffer, buffer.count, "%Y-%m-%dT%H:%M:%S%z", &local) > 0 {
                    timestampText = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                } else {
                    timestampText = "<unknown>"
                }
                timestampSecond = now
            }
            pending.append(contentsOf: timestampText.utf8)
        }
    }

    /// A swift-log handler that writes lines in `StreamLogHandler`'s shape through a `BufferedLogOutput`:
    /// `<timestamp> <level> <label>: <key=value …> [<source>] <message>`.
    public struct BufferedLogHandler: LogHandler {
        let label: String
        let output: BufferedLogOutput
        public var logLevel: Logger.Level = .info
        public var metadata: Logger.Metadata = [:]
        public var metadataProvider: Logger.MetadataProvider?

        public init(label: String, output: BufferedLogOutput, metadataProvider: Logger.MetadataProvider? = LoggingSystem.metadataProvider) {
            self.label = label
            self.output = output
            self.metadataProvider = metadataProvider
        }

        public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        public func log(event: LogEvent) {
            // The line's own metadata wins over the provider's, which wins over the handler's. Most lines
            // (the access log's) have only their own, used as it is.
            var merged = event.metadata ?? [:]
            let provided = metadataProvider?.get() ?? [:]
            if !metadata.isEmpty || !provided.isEmpty {
                merged = metadata.merging(provided) { _, new in new }.merging(event.metadata ?? [:]) { _, new in new }
            }
            if let error = event.error {
                merged["error.message"] = "\(error)"
                merged["error.type"] = "\(String(reflecting: type(of: error)))"
            }
            var line = "\(event.level) \(label):"
            for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
                line += " \(key)=\(value)"
            }
            line += " [\(event.source)] \(event.message)\n"
            output.append(afterTimestamp: line, urgent: event.level >= .notice)
        }
    }
#endif
