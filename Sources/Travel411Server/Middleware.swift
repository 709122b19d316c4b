#if Server
    import Foundation
    import Hummingbird
    import Logging
    import Travel411Core
    import Travel411NominatimAPI

    /// One structured log line per request: method, path (never the query, which holds the user's
    /// location), status and milliseconds. Errors thrown further in are logged with their status.
    struct AccessLogMiddleware<Context: RequestContext>: RouterMiddleware {
        let logger: Logger

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            guard logger.logLevel <= .info else { return try await next(request, context) }
            let started = ContinuousClock.now
            do {
                let response = try await next(request, context)
                log(request, status: response.status.code, since: started)
                return response
            } catch {
                log(request, status: (error as? any HTTPResponseError)?.status.code ?? 500, since: started)
                throw error
            }
        }

        private func log(_ request: Request, status: Int, since started: ContinuousClock.Instant) {
            let elapsed = ContinuousClock.now - started
            logger.info(
                "request",
                metadata: [
                    "method": "\(request.method.rawValue)",
                    "path": "\(DisplayText.sanitized(request.uri.path, limit: 100))",
                    "status": "\(status)",
                    "ms": "\(Self.milliseconds(elapsed))",
                ])
        }

        /// Milliseconds with three decimals ("0.694"), without Foundation's `String(format:)`, which
        /// costs more than the rest of the line.
        static func milliseconds(_ elapsed: Duration) -> String {
            let (seconds, attoseconds) = elapsed.components
            let microseconds = max(0, seconds * 1_000_000 + (attoseconds + 500_000_000_000) / 1_000_000_000_000)
            let fraction = String(microseconds % 1000)
            return "\(microseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
        }
    }

    /// What the router cannot say in Nominatim's shape by itself: a request target that is too long (414), a path
    /// that no endpoint serves (404), a method a known path does not take (405, with `Allow`), and the CORS
    /// preflight (OPTIONS on a known path: 204 with the methods and headers a page may use).
    struct RequestShapeMiddleware<Context: RequestContext>: RouterMiddleware {
        static var endpoints: String { "GET /reverse, POST /reverse, GET /status, GET /metrics" }

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let target = request.uri.description.utf8.count
            if target > ServerLimits.maxTargetBytes {
                throw ServerRequestError(
                    status: 414, "The request target is \(target) bytes; at most \(ServerLimits.maxTargetBytes) are taken")
            }
            let methods = ReverseGeocodingRoutes.methods[request.uri.path]
            if request.method == .options, let methods {
                return Response(
                    status: .noContent,
                    headers: [
                        .accessControlAllowOrigin: "*", .accessControlAllowMethods: Self.names(methods),
                        .accessControlAllowHeaders: request.headers[.accessControlRequestHeaders] ?? "Accept-Language, Content-Type",
                        .accessControlMaxAge: "86400", .allow: Self.names(methods),
                    ])
            }
            do {
                return try await next(request, context)
            } catch let error as HTTPError where error.status == .notFound || error.status == .methodNotAllowed {
                let what = "\(request.method.rawValue) \(DisplayText.sanitized(request.uri.path, limit: 100))"
                if let methods {
                    throw ServerRequestError(
                        status: 405, "\(what) is not served here; \(request.uri.path) takes \(Self.names(methods))",
                        allowedMethods: methods.map(\.rawValue))
                }
                throw ServerRequestError(status: 404, "\(what) is not served here; the endpoints are \(Self.endpoints)")
            }
        }

        static func names(_ methods: [HTTPRequest.Method]) -> String { methods.map(\.rawValue).joined(separator: ", ") }
    }
#endif
