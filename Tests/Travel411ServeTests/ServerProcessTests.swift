#if Server
    import Foundation
    import Testing
    import Travel411Core
    import Travel411TestSupport

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

        /// A start that fails says what and why as every travel411 error does, with its exit status.
        @Test func aPortInUseIsSaidPlainly() throws {
            let server = try ServerProcess(arguments: ["--log-level", "warning"])
            defer { server.stop() }
            let (status, stderr) = try ChildProcess.run(
                ServerProcess.binary, ["--port", String(server.port), "--db", TestPlaces.databasePath, "--log-level", "warning"])
            #expect(status == ExitStatus.unavailable.rawValue, "\(stderr)")
            #expect(
                stderr.contains("travel411-serve: error: cannot listen on 127.0.0.1:\(server.port): Address already in use"), "\(stderr)")
        }

        @Test func aFileThatIsNoPlacesDatabaseIsSaidPlainly() throws {
            let notes = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-notes-\(UUID().uuidString).txt")
            try Data("not a database\n".utf8).write(to: notes)
            defer { try? FileManager.default.removeItem(at: notes) }
            let (status, stderr) = try ChildProcess.run(ServerProcess.binary, ["--port", "0", "--db", notes.path])
            #expect(status == ExitStatus.dataError.rawValue, "\(stderr)")
            #expect(stderr.hasPrefix("travel411-serve: error: cannot open the places database \(notes.path)"), "\(stderr)")
        }
    }
#endif
