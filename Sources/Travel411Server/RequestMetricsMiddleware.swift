#if Server
    import Hummingbird
    import Metrics
    import NIOConcurrencyHelpers

    /// Requests by route, method and status, a latency histogram and errors, under the names Hummingbird's
    /// own `MetricsMiddleware` uses (`hb_requests`, `http_server_request_duration`, `hb_request_errors`,
    /// `http_server_active_requests`).
    ///
    /// Hummingbird's middleware wraps every answer's body in a closure to time its writing, which turns
    /// a one-buffer answer into three separate writes and flushes on the socket. Here an answer that is
    /// one buffer is timed when the handler returns it, and is written in one go; only a streamed answer
    /// (POST /reverse) is timed to its last byte, as before.
    struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
        let handles = RequestMetricHandles()

        func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
            let started = ContinuousClock.now
            let active = handles.active(request.method)
            active.increment()
            do {
                var response = try await next(request, context)
                let metrics = handles.endpoint(route: context.endpointPath ?? "Unknown", method: request.method, status: response.status)
                if response.body.contentLength != nil {
                    metrics.record(since: started)
                    active.decrement()
                } else {
                    let body = response.body
                    response.body = ResponseBody { writer in
                        defer {
                            metrics.record(since: started)
                            active.decrement()
                        }
                        try await body.write(writer)
                    }
                }
                return response
            } catch {
                let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
                let metrics = handles.endpoint(route: context.endpointPath ?? "NotFound", method: request.method, status: status)
                metrics.requests.increment()
                metrics.errors.increment()
                active.decrement()
                throw error
            }
        }
    }

    /// The metric objects, made once per route, method and status: swift-metrics' factory looks its
    /// handlers up by name and labels, which is too slow to do for every request.
    final class RequestMetricHandles: Sendable {
        struct Endpoint: Sendable {
            let requests: Counter
            let duration: Timer
            let errors: Counter

            func record(since started: ContinuousClock.Instant) {
                requests.increment()
                let elapsed = ContinuousClock.now - started
                duration.recordNanoseconds(elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000)
            }
        }

        private struct EndpointKey: Hashable {
            let route: String
            let method: HTTPRequest.Method
            let status: HTTPResponse.Status
        }

        private let activeMeters = NIOLockedValueBox<[HTTPRequest.Method: Meter]>([:])
        private let endpoints = NIOLockedValueBox<[EndpointKey: Endpoint]>([:])

        func active(_ method: HTTPRequest.Method) -> Meter {
            activeMeters.withLockedValue { meters in
                if let meter = meters[method] { return meter }
                let meter = Meter(label: "http.server.active_requests", dimensions: [("http.request.method", method.rawValue)])
                meters[method] = meter
                return meter
            }
        }

        func endpoint(route: String, method: HTTPRequest.Method, status: HTTPResponse.Status) -> Endpoint {
            let key = EndpointKey(route: route, method: method, status: status)
            return endpoints.withLockedValue { endpoints in
                if let endpoint = endpoints[key] { return endpoint }
                let labels = [
                    ("http.route", route), ("http.request.method", method.rawValue), ("http.response.status_code", String(status.code)),
                ]
                let endpoint = Endpoint(
                    requests: Counter(label: "hb.requests", dimensions: labels),
                    duration: Timer(label: "http.server.request.duration", dimensions: labels, preferredDisplayUnit: .seconds),
                    errors: Counter(
                        label: "hb.request.errors",
                        dimensions: [("http.route", route), ("http.request.method", method.rawValue), ("error.type", String(status.code))]))
                endpoints[key] = endpoint
                return endpoint
            }
        }
    }
#endif
