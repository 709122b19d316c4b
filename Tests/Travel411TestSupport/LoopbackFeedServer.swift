import Foundation

/// A small HTTP server on 127.0.0.1 (python3's http.server), for testing URL sources without the
/// internet: it serves one file for every GET, or answers every GET with a given HTTP status.
/// It listens on a port the system picks, and is stopped by `stop()` (or when the test process ends).
public final class LoopbackFeedServer {
    public enum Answer {
        case file(String)
        case status(Int)
    }

    public let port: Int
    private let process: Process

    public init(_ answer: Answer) throws {
        let script = """
            import http.server, sys
            mode, value = sys.argv[1], sys.argv[2]
            class Handler(http.server.BaseHTTPRequestHandler):
                def do_GET(self):
                    if mode == "file":
                        status, body = 200, open(value, "rb").read()
                    else:
                        status, body = int(value), b"simulated failure\\n"
                    self.send_response(status)
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *args):
                    pass
            server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        switch answer {
        case .file(let path): process.arguments = ["python3", "-c", script, "file", path]
        case .status(let code): process.arguments = ["python3", "-c", script, "status", String(code)]
        }
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // The first line is the port; wait for it (python starts in well under a second).
        var text = ""
        let deadline = Date().addingTimeInterval(20)
        while !text.contains("\n"), Date() < deadline, process.isRunning {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { usleep(20_000) } else { text += String(decoding: chunk, as: UTF8.self) }
        }
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.terminate()
            throw ServerDidNotStart(output: text)
        }
        self.port = port
    }

    public func url(_ path: String = "/feed") -> String { "http://127.0.0.1:\(port)\(path)" }

    public func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }

    deinit { stop() }

    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "the loopback HTTP server (python3) did not start; it printed '\(output)'" }
    }
}
