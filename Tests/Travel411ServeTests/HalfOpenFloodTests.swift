#if Server
    import Foundation
    import HummingbirdTesting
    import Testing
    import Travel411Core
    import Travel411Import
    import Travel411Store

    /// A flood of half-open connections (each sent half a request line, then nothing) must not starve a good
    /// request: past --max-connections the oldest half-open ones are shed, so the good one is answered at once.
    @Suite(.serialized) struct HalfOpenFloodTests {
        /// 1,300 half-open connections against a limit of 1,024 (the default); then five good requests, each on a
        /// new connection, timed from connect to the last byte. Bounded: at most 1,300 sockets and 30 s.
        @Test func goodRequestsAnswerWithin100msUnderAFlood() async throws {
            let flood = 1_300
            let timings = try await Harness.run(.live, arguments: ["--max-connections", "1024", "--header-timeout", "30"]) { client in
                let port = try #require(client.port)
                let sockets = try await Self.offThread { try (0..<flood).map { _ in try RawClient.connect(port: port, receiveTimeout: 5) } }
                defer { sockets.forEach { close($0) } }
                for fd in sockets { RawClient.send(fd, Array("GET /reverse?lat=51.47&lo".utf8)) }
                try await Task.sleep(for: .milliseconds(300))
                var timings: [Double] = []
                for _ in 0..<5 {
                    timings.append(try await Self.offThread { try Self.timedGoodRequest(port: port) })
                }
                return timings
            }
            let sorted = timings.sorted()
            #expect(sorted[sorted.count / 2] < 0.100, "good requests took \(timings.map { String(format: "%.1f ms", $0 * 1000) })")
            #expect(sorted.last! < 1.0, "good requests took \(timings.map { String(format: "%.1f ms", $0 * 1000) })")
        }

        /// Seconds from connect to the whole answer of one GET /reverse (the server closes after it).
        static func timedGoodRequest(port: Int) throws -> Double {
            let started = DispatchTime.now()
            let fd = try RawClient.connect(port: port, receiveTimeout: 10)
            defer { close(fd) }
            RawClient.send(fd, Array("GET /reverse?lat=51.47&lon=-0.45&format=json HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".utf8))
            let (text, _) = RawClient.readAll(fd)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
            guard RawClient.status(of: text) == 200, text.contains("London") else {
                throw ServerProcess.StartFailure(description: "the good request got: \(text.prefix(300))")
            }
            return seconds
        }

        static func offThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
            }
        }
    }
#endif
