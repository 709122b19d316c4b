#if Server
    import Foundation
    import Travel411Core
    import Travel411Import
    import Travel411Store
    import Travel411TestSupport

    #if canImport(FoundationNetworking)
        import FoundationNetworking
    #endif

    /// The built `travel411-serve`, started on a free loopback port over the real places database: for what only a
    /// process shows (signals, the exit status). Everything else runs in process (Harness).
    /// `@unchecked Sendable`: every property is set in `init` and only read afterwards.
    final class ServerProcess: @unchecked Sendable {
        let process: Process
        let port: Int
        let folder: URL
        let stderrURL: URL

        static var buildFolder: URL {
            if let path = ProcessInfo.processInfo.environment["TRAVEL411_BINARY"], !path.isEmpty {
                return URL(fileURLWithPath: path).deletingLastPathComponent()
            }
            #if os(macOS)
                for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                    return bundle.bundleURL.deletingLastPathComponent()
                }
            #endif
            return Bundle.main.bundleURL
        }

        static var binary: URL { buildFolder.appendingPathComponent("travel411-serve") }

        struct StartFailure: Error, CustomStringConvertible { let description: String }

        init(arguments extra: [String] = []) throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-serve-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            stderrURL = folder.appendingPathComponent("stderr")
            _ = FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
            process = Process()
            process.executableURL = Self.binary
            process.arguments = ["--port", "0", "--db", TestPlaces.databasePath, "--header-timeout", "2", "--body-timeout", "3"] + extra
            var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("TRAVEL411_") }
            environment["XDG_DATA_HOME"] = folder.path
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try FileHandle(forWritingTo: stderrURL)
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // Loading the whole database takes a few seconds on a busy machine.
            let deadline = Date().addingTimeInterval(180)
            var found: Int?
            while found == nil, Date() < deadline, process.isRunning {
                let text = (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? ""
                if let range = text.range(of: "listening on http://127.0.0.1:") {
                    found = Int(text[range.upperBound...].prefix(while: \.isNumber))
                } else {
                    Thread.sleep(forTimeInterval: 0.05)
                }
            }
            guard let found else {
                if process.isRunning { process.terminate() }
                throw StartFailure(
                    description: "travel411-serve did not start: \((try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "")")
            }
            port = found
        }

        var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

        /// SIGTERM, then waits; returns the exit status.
        @discardableResult
        func stop(signal: Int32 = SIGTERM) -> Int32 {
            if process.isRunning { kill(process.processIdentifier, signal) }
            let deadline = Date().addingTimeInterval(30)
            while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
            try? FileManager.default.removeItem(at: folder)
            return process.terminationStatus
        }

        struct Reply {
            var status: Int
            var contentType: String
            var body: String
            var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        }

        /// A request through URLSession (libcurl on Linux), so chunked answers are read as any client would.
        func request(_ pathAndQuery: String, method: String = "GET", body: Data? = nil, contentType: String? = nil) throws -> Reply {
            guard let url = URL(string: "http://127.0.0.1:\(port)\(pathAndQuery)") else {
                throw StartFailure(description: "bad URL \(pathAndQuery)")
            }
            var request = URLRequest(url: url, timeoutInterval: 60)
            request.httpMethod = method
            request.httpBody = body
            if let contentType { request.setValue(contentType, forHTTPHeaderField: "Content-Type") }
            let done = DispatchSemaphore(value: 0)
            nonisolated(unsafe) var result: Result<Reply, any Error> = .failure(StartFailure(description: "no answer"))
            let task = URLSession.shared.dataTask(with: request) { data, response, error in
                if let error {
                    result = .failure(error)
                } else if let http = response as? HTTPURLResponse {
                    result = .success(
                        Reply(
                            status: http.statusCode, contentType: http.value(forHTTPHeaderField: "Content-Type") ?? "",
                            body: String(decoding: data ?? Data(), as: UTF8.self)))
                }
                done.signal()
            }
            task.resume()
            done.wait()
            return try result.get()
        }
    }

    /// Raw TCP to the server, for what no well-behaved client sends.
    enum RawClient {
        /// Connects to 127.0.0.1:port; the socket has a receive timeout so a test can never hang.
        static func connect(port: Int, receiveTimeout: Int = 20) throws -> Int32 {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw ServerProcess.StartFailure(description: "socket: \(errno)") }
            var timeout = timeval(tv_sec: receiveTimeout, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard result == 0 else {
                close(fd)
                throw ServerProcess.StartFailure(description: "connect: \(errno)")
            }
            return fd
        }

        /// Sends as much of `bytes` as the server takes; stops quietly when it closes the connection.
        static func send(_ fd: Int32, _ bytes: [UInt8]) {
            var sent = 0
            while sent < bytes.count {
                let count = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { return }
                sent += count
            }
        }

        /// Everything until the server closes or the receive timeout passes; `closed` says which.
        static func readAll(_ fd: Int32) -> (text: String, closed: Bool) {
            var received: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65536)
            while true {
                let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress!, 65536, 0) }
                if count > 0 {
                    received += buffer[0..<count]
                    continue
                }
                // errno first: building the String may allocate, and an allocation may set errno.
                let closed = count == 0 || errno == ECONNRESET || errno == EPIPE
                return (String(decoding: received, as: UTF8.self), closed)
            }
        }

        /// One `GET path` on a new connection that the server closes after answering: the whole answer, headers
        /// included, and the seconds from connect to its last byte.
        static func get(port: Int, _ path: String) throws -> (text: String, seconds: Double) {
            let started = DispatchTime.now()
            let fd = try connect(port: port, receiveTimeout: 10)
            defer { close(fd) }
            send(fd, Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8))
            let (text, _) = readAll(fd)
            return (text, Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9)
        }

        /// `get` off the cooperative threads.
        static func getOffThread(port: Int, _ path: String) async throws -> (text: String, seconds: Double) {
            try await withCheckedThrowingContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(with: Result { try get(port: port, path) }) }
            }
        }

        /// `readAll` off the cooperative threads, which a blocking read must not hold.
        static func readAllOffThread(_ fd: Int32) async -> (text: String, closed: Bool) {
            await withCheckedContinuation { continuation in
                DispatchQueue.global().async { continuation.resume(returning: readAll(fd)) }
            }
        }

        /// The status code of the first response line, nil when the server answered nothing.
        static func status(of text: String) -> Int? {
            guard text.hasPrefix("HTTP/1.1 ") else { return nil }
            return Int(text.dropFirst(9).prefix(3))
        }
    }
#endif
