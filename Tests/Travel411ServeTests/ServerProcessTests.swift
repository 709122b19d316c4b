#if Server
    import Foundation
    import Testing
    import Travel411Kit

    /// The real `travel411-serve` process: what a signal does to it.
    @Suite(.serialized) struct ServerProcessTests {
        @Test(arguments: [SIGTERM, SIGINT])
        func signalsExitZero(signal: Int32) throws {
            let server = try ServerProcess(arguments: ["--log-level", "warning"])
            #expect(try server.request("/status").body == "OK")
            #expect(server.stop(signal: signal) == 0, "signal \(signal): \(server.stderr)")
        }

        /// A batch still streaming when SIGTERM comes is finished in full before the server exits 0.
        @Test func sigtermFinishesTheRequestInFlight() throws {
            let server = try ServerProcess(arguments: ["--log-level", "warning"])
            let rows = 100_000
            let body = "lat,lon\n" + String(repeating: "51.47,-0.45\n", count: rows)
            nonisolated(unsafe) var reply: Result<ServerProcess.Reply, any Error>?
            let done = DispatchSemaphore(value: 0)
            Thread {
                reply = Result {
                    try server.request("/reverse?fields=country", method: "POST", body: Data(body.utf8), contentType: "text/csv")
                }
                done.signal()
            }.start()
            Thread.sleep(forTimeInterval: 0.3)
            kill(server.process.processIdentifier, SIGTERM)
            done.wait()
            let answer = try #require(reply).get()
            #expect(answer.status == 200)
            #expect(answer.body.split(separator: "\n").count == rows + 1)
            #expect(server.stop() == 0, "\(server.stderr)")
        }
    }
#endif
