#if Server
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing
    import Travel411Import
    import Travel411NominatimAPI
    import Travel411Store

    /// What only a real connection shows: the parser's limits and the deadlines, on a live server in process.
    @Suite struct ConnectionLimitTests {
        @Test func hugeQueryStringIsRefusedOrCutOff() async throws {
            // A long header deadline: the test client's own connection waits idle while the raw one works.
            try await Harness.run(.live, arguments: ["--header-timeout", "60"]) { client in
                let port = try #require(client.port)
                // The client waits past the server's header deadline: on a machine loaded by the whole suite the
                // refusal can take longer than the default 20 s (seen in CI), and a server that waited for more of
                // the head would have cut the connection off by then.
                let fd = try RawClient.connect(port: port, receiveTimeout: 90)
                defer { close(fd) }
                let query = "/reverse?lat=51.47&lon=-0.45&pad=" + String(repeating: "x", count: 1 << 20)
                RawClient.send(fd, Array("GET \(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
                let (text, closed) = await RawClient.readAllOffThread(fd)
                let status = RawClient.status(of: text)
                #expect(status.map { [400, 414, 431].contains($0) } ?? closed, "got \(text.prefix(200))")
                try await ServeTests.expectStillServing(client)
                // Just over the limit, the server itself answers 414 in JSON.
                let reply = try await client.request(
                    "/reverse?lat=51.47&lon=-0.45&pad=" + String(repeating: "x", count: ServerLimits.maxTargetBytes))
                #expect(reply.status == 414)
                #expect(reply.body.contains("request target"), "\(reply.body)")
            }
        }

        /// Half a request line, then a byte now and then: the server closes within its header timeout (2 s here).
        @Test func slowlorisIsCutOff() async throws {
            try await Harness.run(.live, arguments: ["--header-timeout", "2"]) { client in
                let port = try #require(client.port)
                let fd = try RawClient.connect(port: port, receiveTimeout: 15)
                defer { close(fd) }
                RawClient.send(fd, Array("GET /reverse?lat=51.47&lon=-0.45 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow:".utf8))
                for _ in 0..<4 {
                    try await Task.sleep(for: .milliseconds(500))
                    RawClient.send(fd, Array("a".utf8))
                }
                // `closed` is the server's doing: a read that reaches the client's own 15 s receive timeout
                // returns EAGAIN, which `readAll` does not count as closed. No bound on the seconds: the whole
                // suite's imports delay the sends above by several seconds (3 s alone, 12-20 s seen in the suite).
                let (text, closed) = await RawClient.readAllOffThread(fd)
                #expect(closed, "the server kept a slow client's connection open past the client's 15 s timeout")
                #expect(text == "")
                // On a new connection: the test client's own has been idle past the deadline too.
                let good = try await RawClient.getOffThread(port: port, "/reverse?lat=51.5174&lon=-0.12&format=jsonv2")
                #expect(RawClient.status(of: good.text) == 200 && good.text.contains("Kingsway"), "\(good.text.prefix(300))")
            }
        }

        /// Clients that hang up while their batch streams: each batch stops and gives its slot back, so batches
        /// after them are answered (not 503), and a large one streams in full.
        @Test func abandonedBatchesGiveTheirSlotsBack() async throws {
            try await Harness.run(.live, arguments: ["--header-timeout", "60"]) { client in
                let port = try #require(client.port)
                let rows = 100_000
                let body = "lat,lon\n" + String(repeating: "51.47,-0.45\n", count: rows)
                let request = Array(
                    "POST /reverse?fields=country HTTP/1.1\r\nHost: x\r\nContent-Type: text/csv\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        .utf8)
                for _ in 0..<(ServerLimits.maxConcurrentBatches + 2) {
                    let fd = try RawClient.connect(port: port)
                    RawClient.send(fd, request)
                    var buffer = [UInt8](repeating: 0, count: 4096)
                    _ = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 4096, 0) }
                    close(fd)
                }
                let reply = try await client.request("/reverse?fields=country", method: .post, body: body, contentType: "text/csv")
                #expect(reply.status == 200)
                #expect(reply.body.split(separator: "\n").count == rows + 1)
            }
        }
    }
#endif
