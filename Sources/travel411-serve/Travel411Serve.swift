#if Server
    import ArgumentParser
    import Foundation
    import Logging
    import Metrics
    import NIOCore
    import NIOPosix
    import Prometheus
    import ServiceLifecycle
    import UnixSignals
    import Travel411Core
    import Travel411ServeOptions
    import Travel411Server

    /// `travel411-serve`: Nominatim's `/reverse` API over the local places database (Travel411Server).
    /// `travel411 serve` runs this executable, so the core tool never has to compile SwiftNIO.
    @main
    struct Travel411Serve: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "travel411-serve",
            abstract: "A local reverse-geocoding server that speaks Nominatim's /reverse API.",
            discussion: """
                Endpoints: GET /reverse?lat=..&lon=.. (Nominatim's parameters and formats), POST /reverse \
                (many points as CSV, TSV, JSON Lines or GeoJSON, answered in the same format), GET /status, \
                GET /metrics (Prometheus). Listens on 127.0.0.1 unless --host says otherwise. SIGTERM and \
                SIGINT finish the requests in flight, then exit 0. See docs/serve.md.
                  travel411 serve --port 8080
                  curl 'http://127.0.0.1:8080/reverse?lat=51.47&lon=-0.45&format=jsonv2'
                """,
            version: Travel411.version)

        @OptionGroup var options: ServeOptions

        /// A start that fails (a database that cannot be opened, a port that is taken) ends as every travel411
        /// error does: `travel411-serve: error: <what and why>` and its exit status, not argument-parser's raw
        /// "Error: bind(descriptor:ptr:bytes:): Address already in use) (errno: 98)".
        func run() async throws {
            do {
                try await serve()
            } catch let error as any Travel411Error {
                Self.report(error.description)
                throw ExitCode(error.exitStatus.rawValue)
            } catch let error as IOError {
                let shown = options.host.contains(":") ? "[\(options.host)]" : options.host
                let advice = error.errnoCode == EADDRINUSE ? " (another server on that port? choose another with --port)" : ""
                Self.report("cannot listen on \(shown):\(options.port): \(String(cString: strerror(error.errnoCode)))\(advice)")
                throw ExitCode(ExitStatus.unavailable.rawValue)
            }
        }

        private static func report(_ message: String) {
            FileHandle.standardError.write(Data("travel411-serve: error: \(DisplayText.escapingControls(message))\n".utf8))
        }

        private func serve() async throws {
            // Hummingbird answers each connection in an async task. On Swift's global thread pool every
            // request crosses threads twice (the event loop wakes a pool thread; the answer's write goes
            // back to the loop), and four server threads crowd a load generator on a 2-core machine. With
            // NIO's event loops as the global executor a connection's task runs on its own loop: the same
            // CPU per GET /reverse (each await re-enqueues on the loop instead), more requests through.
            // Nothing async here blocks for long: a lookup takes microseconds, POST /reverse batches run on
            // threads of their own. (A task executor preference instead was measured slower: the runtime
            // then looks the preference up, under a lock, at every suspension point.)
            NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor()
            // A client that goes away while a batch streams must end that batch with EPIPE, not the process.
            signal(SIGPIPE, SIG_IGN)
            let logOutput = BufferedLogOutput()
            defer { logOutput.flush() }
            let level = options.logLevel.level
            LoggingSystem.bootstrap { label in
                var handler = BufferedLogHandler(label: label, output: logOutput)
                handler.logLevel = level
                return handler
            }
            var logger = Logger(label: "travel411-serve")
            logger.logLevel = level

            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(ServerMetrics.factory(registry: registry))

            let resources = try ServerResources.load(options: options, registry: registry, logger: logger)
            let host = options.host
            let app = buildApplication(options: options, resources: resources) { channel in
                let bound = channel.localAddress?.port ?? 0
                let shown = host.contains(":") ? "[\(host)]" : host
                // Scripts and tests read the port from this line when they asked for port 0.
                logOutput.flush()
                FileHandle.standardError.write(Data("travel411-serve: listening on http://\(shown):\(bound)\n".utf8))
            }
            let services = ServiceGroup(
                configuration: .init(services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await services.run()
            logger.info("stopped")
        }
    }
#endif
