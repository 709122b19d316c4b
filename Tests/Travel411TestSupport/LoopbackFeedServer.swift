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
    private var pid: pid_t = 0
    private var stopped = false
    private let lock = NSLock()

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
        let arguments: [String]
        switch answer {
        case .file(let path): arguments = ["python3", "-c", script, "file", path]
        case .status(let code): arguments = ["python3", "-c", script, "status", String(code)]
        }
        // posix_spawn, not Foundation's Process: this process reaps the child itself. Process.waitUntilExit()
        // waits on the run loop of the thread that started it, which an async test may have left.
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw ServerDidNotStart(output: "no pipe: \(String(cString: strerror(errno)))") }
        var actions: posix_spawn_file_actions_t = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, ends[1], STDOUT_FILENO)
        posix_spawn_file_actions_addclose(&actions, ends[0])
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0)
        var pid: pid_t = 0
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let spawned = posix_spawnp(&pid, "python3", &actions, nil, argv, environ)
        close(ends[1])
        guard spawned == 0 else {
            close(ends[0])
            throw ServerDidNotStart(output: "python3 did not start: \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
        // The first line is the port; wait for it (python starts in well under a second).
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 64)
        while !text.contains("\n") {
            let count = read(ends[0], &buffer, buffer.count)
            guard count > 0 else { break }
            text += String(decoding: buffer[0..<count], as: UTF8.self)
        }
        close(ends[0])
        guard let port = Int(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            throw ServerDidNotStart(output: text)
        }
        self.port = port
    }

    public func url(_ path: String = "/feed") -> String { "http://127.0.0.1:\(port)\(path)" }

    public func stop() {
        lock.lock()
        defer { lock.unlock() }
        guard !stopped else { return }
        stopped = true
        // SIGKILL: the child inherits the signal mask of the thread that spawned it, and the test runner's
        // worker threads block SIGTERM.
        kill(pid, SIGKILL)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1, errno == EINTR {}
    }

    deinit { stop() }

    public struct ServerDidNotStart: Error, CustomStringConvertible {
        public let output: String
        public var description: String { "the loopback HTTP server (python3) did not start; it printed '\(output)'" }
    }
}
