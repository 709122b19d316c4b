import ArgumentParser
import Travel411NominatimAPI

/// The options of `travel411 serve` and `travel411-serve`, declared once: `travel411` parses and checks them,
/// then hands them on (`arguments`) to the server executable, which parses them again.
public struct ServeOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The address to listen on; another interface than loopback must be asked for by name (0.0.0.0 for all).",
            valueName: "address"))
    public var host = "127.0.0.1"

    @Option(help: ArgumentHelp("The TCP port (0 picks a free one, printed on stderr).", valueName: "port"))
    public var port = 8080

    @Option(
        name: .customLong("db"),
        help: ArgumentHelp(
            "The places database (default: $TRAVEL411_DB, else $XDG_DATA_HOME/travel411/places.gpkg).", valueName: "file"))
    public var databasePath: String?

    @Option(
        help: ArgumentHelp(
            "Most connections open at once; past it the oldest ones waiting for a request are closed to make room.", valueName: "n"))
    public var maxConnections = 1024

    @Option(help: ArgumentHelp("Largest POST /reverse body, in bytes; larger ones get 413.", valueName: "bytes"))
    public var maxBodyBytes = ServerLimits.defaultMaxBodyBytes

    @Option(
        help: ArgumentHelp(
            "Seconds a client may take to send a request's headers (and an idle connection stays open); slower ones are cut off.",
            valueName: "seconds"))
    public var headerTimeout = ServerLimits.defaultHeaderTimeoutSeconds

    @Option(help: ArgumentHelp("Seconds a client may take to send a request body.", valueName: "seconds"))
    public var bodyTimeout = 60.0

    @Option(help: ArgumentHelp("Log level; the access log (one line per request) is info.", valueName: "level"))
    public var logLevel: ServeLogLevel = .info

    public init() {}

    public func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535; got \(port)") }
        guard maxConnections >= 1 else { throw ValidationError("--max-connections must be at least 1; got \(maxConnections)") }
        guard maxBodyBytes >= 1 else { throw ValidationError("--max-body-bytes must be at least 1; got \(maxBodyBytes)") }
        for (name, value) in [("--header-timeout", headerTimeout), ("--body-timeout", bodyTimeout)] where !(value > 0 && value <= 3600) {
            throw ValidationError("\(name) must be between 0 and 3600 seconds; got \(value)")
        }
    }

    /// The same options as command-line arguments, for handing them on to `travel411-serve`.
    public var arguments: [String] {
        var arguments = ["--host", host, "--port", String(port)]
        if let databasePath { arguments += ["--db", databasePath] }
        arguments += [
            "--max-connections", String(maxConnections), "--max-body-bytes", String(maxBodyBytes), "--header-timeout",
            String(headerTimeout), "--body-timeout", String(bodyTimeout), "--log-level", logLevel.rawValue,
        ]
        return arguments
    }

    public var limits: ServerLimits {
        ServerLimits(
            maxBodyBytes: maxBodyBytes, headerTimeout: .nanoseconds(Int64(headerTimeout * 1e9)),
            bodyTimeout: .nanoseconds(Int64(bodyTimeout * 1e9)), maxConnections: maxConnections)
    }
}

/// swift-log's levels by name.
public enum ServeLogLevel: String, ExpressibleByArgument, CaseIterable, Sendable {
    case trace, debug, info, notice, warning, error, critical
}
