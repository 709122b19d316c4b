#if Server
    import Foundation
    import Hummingbird
    import HummingbirdCore
    import Logging
    import NIOCore
    import Prometheus
    import Travel411Batch
    import Travel411Core
    import Travel411Geocoder
    import Travel411Import
    import Travel411NominatimAPI
    import Travel411Store
    import Travel411ServeOptions

    /// What a server answers from: the places database in memory, its status, and where metrics and logs go.
    /// Loading takes about a second, so tests load it once and build many applications over it.
    public struct ServerResources: Sendable {
        public let geocoder: ReverseGeocoder
        public let status: ServerStatus
        /// Names in other languages and outlines, for what Nominatim's answers carry beyond the placemark.
        public let placeData: NominatimPlaceData
        public let registry: PrometheusCollectorRegistry
        public let logger: Logger

        public init(
            geocoder: ReverseGeocoder, status: ServerStatus, placeData: NominatimPlaceData, registry: PrometheusCollectorRegistry,
            logger: Logger
        ) {
            self.geocoder = geocoder
            self.status = status
            self.placeData = placeData
            self.registry = registry
            self.logger = logger
        }

        /// Everything but the geocoder read from the database at `path`.
        public init(geocoder: ReverseGeocoder, databasePath path: String, registry: PrometheusCollectorRegistry, logger: Logger) throws {
            self.init(
                geocoder: geocoder, status: try ServerStatus(databasePath: path), placeData: try NominatimPlaceData(databasePath: path),
                registry: registry, logger: logger)
        }

        /// Opens the database `options` names (built from Data/ when missing, as for `where`) with everything in memory.
        public static func load(options: ServeOptions, registry: PrometheusCollectorRegistry, logger: Logger) throws -> ServerResources {
            let path = PlacesDatabaseLocation.resolve(explicitPath: options.databasePath)
            let started = ContinuousClock.now
            do {
                // Nominatim's address: an answered street's municipality is the street's, where it is.
                var settings = GeocoderSettings()
                settings.addressOfTheAnswer = true
                let geocoder = try PlacesDatabase.open(at: path, announce: { logger.notice("\($0)") }) { path in
                    try ReverseGeocoder(databasePath: path, loading: .everything, settings: settings)
                }
                let resources = try ServerResources(geocoder: geocoder, databasePath: path, registry: registry, logger: logger)
                // Whole milliseconds, as the request lines give theirs ("ms"): a Duration prints "0.201113559 seconds".
                let elapsed = (ContinuousClock.now - started).components
                let milliseconds = elapsed.seconds * 1000 + elapsed.attoseconds / 1_000_000_000_000_000
                logger.info("places database loaded", metadata: ["path": "\(path)", "ms": "\(milliseconds)"])
                return resources
            } catch {
                throw ServeStartError(
                    description:
                        "cannot open the places database \(path): \((error as? any LocalizedError)?.errorDescription ?? String(describing: error))",
                    exitStatus: (error as? any Travel411Error)?.exitStatus ?? .dataError)
            }
        }
    }

    /// The server could not start; its exit status is the cause's (a file that is no places database: 65).
    public struct ServeStartError: Travel411Error {
        public let description: String
        public let exitStatus: ExitStatus
    }

    extension ServeLogLevel {
        public var level: Logger.Level { Logger.Level(rawValue: rawValue) ?? .info }
    }

    /// The server `options` describe, over `resources`: the routes, the limits and the connection handling.
    /// `onServerRunning` is called with the listening channel (the port, when `options.port` is 0).
    public func buildApplication(
        options: ServeOptions, resources: ServerResources, onServerRunning: @escaping @Sendable (any Channel) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let limits = options.limits
        let router = ReverseGeocodingRoutes(resources: resources, limits: limits).router()
        let connections = ConnectionRegistry(limit: limits.maxConnections)
        return Application(
            router: router,
            server: .http1(
                configuration: .init(
                    additionalChannelHandlers: [
                        RequestDeadlineHandler(
                            headerTimeout: limits.headerTimeout, bodyTimeout: limits.bodyTimeout, registry: connections)
                    ],
                    idleTimeout: nil,
                    httpDecoderConfiguration: .init(
                        maxHeaderFieldSize: ServerLimits.maxHeaderBytes, maxHeaderListSize: ServerLimits.maxHeaderBytes,
                        maxHeaderFieldCount: 100))),
            configuration: .init(
                address: .hostname(options.host, port: options.port), serverName: "travel411/\(Travel411.version)",
                // Past --max-connections the registry sheds connections that wait for a request; only when
                // every one is being answered do more wait in the listen backlog, at twice the limit.
                availableConnectionsDelegate: MaximumAvailableConnections(2 * limits.maxConnections)),
            onServerRunning: onServerRunning,
            logger: resources.logger)
    }

    /// The server `options` describe, with the database it names, a fresh metrics registry and `logger`.
    public func buildApplication(options: ServeOptions, logger: Logger = Logger(label: "travel411-serve")) throws
        -> some ApplicationProtocol
    {
        let resources = try ServerResources.load(options: options, registry: PrometheusCollectorRegistry(), logger: logger)
        return buildApplication(options: options, resources: resources)
    }
#endif
