#if Server
    import Hummingbird
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import NIOPosix
    import Travel411Batch
    import Travel411Geocoder
    import Travel411NominatimAPI

    /// One POST /reverse batch, run on NIO's blocking-work thread pool from the request body in memory straight
    /// into the response: no temporary file, no pipe. The batch's writer hands each chunk of output to the
    /// response and waits until the response has written it, so a slow client holds the batch back instead
    /// of its output piling up in memory.
    final class BatchResponseSink: BatchByteSink, Sendable {
        private let chunks: AsyncStream<ByteBuffer>.Continuation
        let stream: AsyncStream<ByteBuffer>
        /// 1 while a chunk is handed over and not yet written; the batch waits for 0 before the next.
        private let handedOver = ConditionLock(value: 0)
        private let stopped = NIOLockedValueBox(false)

        struct Stopped: Error, CustomStringConvertible {
            var description: String { "the client stopped reading the answer" }
        }

        init() {
            (stream, chunks) = AsyncStream.makeStream(of: ByteBuffer.self, bufferingPolicy: .unbounded)
        }

        /// On the batch's writer thread: blocks until the previous chunk has been written to the client.
        func write(_ bytes: UnsafeRawBufferPointer) throws {
            handedOver.lock(whenValue: 0)
            guard !stopped.withLockedValue({ $0 }) else {
                handedOver.unlock(withValue: 0)
                throw Stopped()
            }
            chunks.yield(ByteBuffer(bytes: bytes))
            handedOver.unlock(withValue: 1)
        }

        /// The response wrote the chunk it took: the batch may hand over the next.
        func written() {
            handedOver.lock()
            handedOver.unlock(withValue: 0)
        }

        /// The batch has ended (its result is elsewhere): the stream ends after what was handed over.
        func finish() { chunks.finish() }

        /// The client has gone: the batch's next write fails, which ends it.
        func stop() {
            stopped.withLockedValue { $0 = true }
            written()
        }
    }

    /// A batch running on the thread pool, its answer as an async stream of chunks.
    struct RunningBatch: Sendable {
        let sink: BatchResponseSink
        let result: Task<BatchSummary, any Error>

        init(request: BatchRequest, body: [UInt8], geocoder: ReverseGeocoder, logger: Logger) {
            let sink = BatchResponseSink()
            self.sink = sink
            let options = request.options
            result = Task {
                defer { sink.finish() }
                return try await NIOThreadPool.singleton.runIfActive {
                    let batch = BatchGeocoder(options: options, geocoder: geocoder)
                    let events = BatchEvents(finished: { summary in
                        logger.info(
                            "batch", metadata: ["rows": "\(summary.rows)", "errors": "\(summary.errors)", "seconds": "\(summary.seconds)"])
                    })
                    return try batch.run(source: MemorySource(body), inputName: "request body", sink: sink, events: events)
                }
            }
        }
    }
#endif
