#if Server
    import ArgumentParser
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import Metrics
    import NIOConcurrencyHelpers
    import Prometheus
    import Travel411ServeOptions
    import Travel411Server
    import Travel411TestSupport

    /// The server in this process over the real places database: `Harness.run(.router)` for the API (no
    /// sockets), `.live` where the connection matters (deadlines, limits, floods).
    enum Harness {
        /// The log lines the servers wrote, for the access-log test.
        static let logLines = NIOLockedValueBox<[String]>([])

        /// Metrics go to one registry for the whole test process (swift-metrics is bootstrapped once per process).
        static let registry: PrometheusCollectorRegistry = {
            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(ServerMetrics.factory(registry: registry))
            return registry
        }()

        static let resources: ServerResources = {
            let registry = Harness.registry
            var logger = Logger(label: "travel411-serve") { label in CapturingLogHandler(label: label) }
            logger.logLevel = .info
            do {
                return try ServerResources(
                    geocoder: TestPlaces.geocoder, databasePath: TestPlaces.databasePath, registry: registry, logger: logger)
            } catch {
                fatalError("cannot read the test places database's status: \(error)")
            }
        }()

        /// Options as a test server uses them: a free port, and deadlines long enough that a test client's
        /// connection, opened before the test's first request, is not cut while a flood test in the same process
        /// keeps both cores busy ("I/O on closed channel" in three suites at once, with 2 s). The deadline tests
        /// give their own.
        static func options(_ arguments: [String] = []) throws -> ServeOptions {
            try ServeOptions.parse(["--port", "0", "--header-timeout", "30", "--body-timeout", "30"] + arguments)
        }

        static func run<Value: Sendable>(
            _ setup: TestingSetup, arguments: [String] = [], _ test: @Sendable (any TestClientProtocol) async throws -> Value
        ) async throws -> Value {
            let app = buildApplication(options: try options(arguments), resources: resources)
            return try await app.test(setup, test)
        }
    }

    /// An answer, read as text.
    struct Reply: Sendable {
        var status: Int
        var headers: HTTPFields
        var body: String

        var contentType: String { headers[.contentType] ?? "" }
        var json: Any? { try? JSONSerialization.jsonObject(with: Data(body.utf8)) }
        var object: [String: Any] { json as? [String: Any] ?? [:] }
    }

    extension TestClientProtocol {
        func request(
            _ uri: String, method: HTTPRequest.Method = .get, headers: HTTPFields = [:], body: String? = nil, contentType: String? = nil
        ) async throws -> Reply {
            var headers = headers
            if let contentType { headers[.contentType] = contentType }
            let response = try await executeRequest(uri: uri, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) })
            return Reply(status: response.status.code, headers: response.headers, body: String(buffer: response.body))
        }
    }

    /// Keeps every log line in `Harness.logLines`.
    struct CapturingLogHandler: LogHandler {
        let label: String
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
            let line =
                "\(event.level) \(label): " + merged.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
                + " \(event.message)"
            Harness.logLines.withLockedValue { $0.append(line) }
        }
    }
#endif
