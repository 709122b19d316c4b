#if Server
    import ArgumentParser
    import Foundation
    import Hummingbird
    import HummingbirdCore
    import Logging
    import Metrics
    import NIOCore
    import NIOPosix
    import Prometheus
    import ServiceLifecycle
    import Travel411Kit

    /// `travel411-serve`: Nominatim's `/reverse` API over the local places database. `travel411 serve`
    /// runs this executable, so the core tool never has to compile SwiftNIO.
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

        @Option(
            help: ArgumentHelp(
                "The address to listen on; another interface than loopback must be asked for by name (0.0.0.0 for all).",
                valueName: "address"))
        var host = "127.0.0.1"

        @Option(help: ArgumentHelp("The TCP port (0 picks a free one, printed on stderr).", valueName: "port"))
        var port = 8080

        @Option(
            name: .customLong("db"),
            help: ArgumentHelp(
                "The places database (default: $TRAVEL411_DB, else $XDG_DATA_HOME/travel411/places.gpkg).", valueName: "file"))
        var databasePath: String?

        @Option(help: ArgumentHelp("Most connections open at once; more wait in the listen backlog.", valueName: "n"))
        var maxConnections = 1024

        @Option(help: ArgumentHelp("Largest POST /reverse body, in bytes; larger ones get 413.", valueName: "bytes"))
        var maxBodyBytes = ServerLimits.defaultMaxBodyBytes

        @Option(
            help: ArgumentHelp(
                "Seconds a client may take to send a request's headers (and an idle connection stays open); slower ones are cut off.",
                valueName: "seconds"))
        var headerTimeout = 10.0

        @Option(help: ArgumentHelp("Seconds a client may take to send a request body.", valueName: "seconds"))
        var bodyTimeout = 60.0

        @Option(
            help: ArgumentHelp(
                "Log level: \(ServeLogLevel.allCases.map(\.rawValue).joined(separator: "|")); access logs are info.", valueName: "level"))
        var logLevel: ServeLogLevel = .info

        func validate() throws {
            guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535; got \(port)") }
            guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1; got \(maxConnections)") }
            guard maxBodyBytes >= 1 else { throw ValidationError("--max-body-bytes must be at least 1; got \(maxBodyBytes)") }
            for (name, value) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout)] where !(value > 0 && value <= 3600)
            {
                throw ValidationError("\(name) must be between 0 and 3600 seconds; got \(value)")
            }
        }

        func run() async throws {
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
            LoggingSystem.bootstrap { label in
                var handler = BufferedLogHandler(label: label, output: logOutput)
                handler.logLevel = logLevel.level
                return handler
            }
            var logger = Logger(label: "travel411-serve")
            logger.logLevel = logLevel.level

            let registry = PrometheusCollectorRegistry()
            MetricsSystem.bootstrap(ServerMetrics.factory(registry: registry))

            let path = PlacesDatabaseLocation.resolve(explicitPath: databasePath)
            let started = Date()
            let geocoder: ReverseGeocoder
            let status: ServerStatus
            do {
                geocoder = try PlacesDatabase.open(at: path, announce: { logger.notice("\($0)") }) { path in
                    try ReverseGeocoder(databasePath: path, loading: .everything)
                }
                status = try ServerStatus(databasePath: path)
            } catch {
                throw ServeStartError(
                    description:
                        "cannot open the places database \(path): \((error as? LocalizedError)?.errorDescription ?? String(describing: error))"
                )
            }
            logger.info(
                "places database loaded",
                metadata: ["path": "\(path)", "seconds": "\(String(format: "%.2f", Date().timeIntervalSince(started)))"])

            let limits = ServerLimits(
                maxBodyBytes: maxBodyBytes, headerTimeout: .nanoseconds(Int64(headerTimeout * 1e9)),
                bodyTimeout: .nanoseconds(Int64(bodyTimeout * 1e9)))
            let router = ReverseGeocodingRoutes(geocoder: geocoder, status: status, registry: registry, limits: limits, logger: logger)
                .router()
            let host = host
            let app = Application(
                router: router,
                server: .http1(
                    configuration: .init(
                        additionalChannelHandlers: [
                            RequestDeadlineHandler(headerTimeout: limits.headerTimeout, bodyTimeout: limits.bodyTimeout)
                        ],
                        idleTimeout: nil,
                        httpDecoderConfiguration: .init(
                            maxHeaderFieldSize: ServerLimits.maxHeaderBytes, maxHeaderListSize: ServerLimits.maxHeaderBytes,
                            maxHeaderFieldCount: 100))),
                configuration: .init(
                    address: .hostname(host, port: port), serverName: "travel411/\(Travel411.version)",
                    availableConnectionsDelegate: MaximumAvailableConnections(maxConnections)),
                onServerRunning: { channel in
                    let bound = channel.localAddress?.port ?? 0
                    let shown = host.contains(":") ? "[\(host)]" : host
                    // Scripts and tests read the port from this line when they asked for port 0.
                    logOutput.flush()
                    FileHandle.standardError.write(Data("travel411-serve: listening on http://\(shown):\(bound)\n".utf8))
                },
                logger: logger)
            let services = ServiceGroup(
                configuration: .init(
                    services: [app], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
            try await services.run()
            logger.info("stopped")
        }
    }

    struct ServeStartError: Error, CustomStringConvertible, LocalizedError {
        let description: String
        var errorDescription: String? { description }
    }

    enum ServeLogLevel: String, ExpressibleByArgument, CaseIterable {
        case trace, debug, info, notice, warning, error, critical

        var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
    }
#endif
