/// The limits `travel411 serve` puts on what a client may send (docs/serve.md lists them).
public struct ServerLimits: Sendable {
    /// 16 MiB of CSV is about half a million points.
    public static let defaultMaxBodyBytes = 16 << 20
    /// A well-behaved client sends a request's headers in one packet; 5 s leaves room for slow links while a
    /// stalled connection is not held for long.
    public static let defaultHeaderTimeoutSeconds = 5.0
    /// Headers, and each header field on its own, as SwiftNIO's decoder counts them.
    public static let maxHeaderBytes = 16 << 10
    /// A request target (path and query) longer than this gets 414.
    public static let maxTargetBytes = 8 << 10
    /// POST /reverse batches running at once; more get 503 until one ends.
    public static let maxConcurrentBatches = 4

    public var maxBodyBytes: Int
    public var headerTimeout: Duration
    public var bodyTimeout: Duration
    public var maxConnections: Int

    public init(
        maxBodyBytes: Int = defaultMaxBodyBytes, headerTimeout: Duration = .seconds(defaultHeaderTimeoutSeconds),
        bodyTimeout: Duration = .seconds(60),
        maxConnections: Int = 1024
    ) {
        self.maxBodyBytes = maxBodyBytes
        self.headerTimeout = headerTimeout
        self.bodyTimeout = bodyTimeout
        self.maxConnections = maxConnections
    }
}
