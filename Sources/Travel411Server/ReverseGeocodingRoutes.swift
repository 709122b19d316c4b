import Travel411Answers

#if Server
    import Foundation
    import Hummingbird
    import Logging
    import NIOConcurrencyHelpers
    import NIOCore
    import Prometheus
    import Travel411Batch
    import Travel411Geocoder
    import Travel411NominatimAPI

    /// The endpoints. Answers are written by the library (`ReverseRequest`, `NominatimFormatter`,
    /// `BatchRequest`, `ServerStatus`): this file only moves bytes between them and HTTP. A refused request
    /// is thrown as the library's `ServerRequestError`, which is an `HTTPResponseError` (below): its status
    /// and Nominatim-shaped body are decided in one place.
    struct ReverseGeocodingRoutes: Sendable {
        let resources: ServerResources
        let limits: ServerLimits
        let batches = BatchSlots(capacity: ServerLimits.maxConcurrentBatches)

        var geocoder: ReverseGeocoder { resources.geocoder }

        /// The methods each path answers (405 and the CORS preflight name them).
        static let methods: [String: [HTTPRequest.Method]] = [
            "/reverse": [.get, .post, .options], "/status": [.get, .options], "/metrics": [.get, .options],
        ]

        func router() -> Router<BasicRequestContext> {
            let router = Router(context: BasicRequestContext.self)
            // Outermost first: the access log sees every answer, the errors' shapes included.
            router.middlewares.add(AccessLogMiddleware(logger: resources.logger))
            router.middlewares.add(RequestMetricsMiddleware())
            router.middlewares.add(RequestShapeMiddleware())
            router.get("reverse") { request, _ in try reverse(request) }
            router.post("reverse") { request, _ in try await reverseMany(request) }
            router.get("status") { request, _ in try statusAnswer(request) }
            router.get("metrics") { _, _ in metrics() }
            return router
        }

        static func parameters(_ request: Request) -> [(name: String, value: String)] {
            request.uri.queryParameters.map { (String($0.key), String($0.value)) }
        }

        /// Every answer may be read by a page from any origin, as Nominatim's are.
        static func text(_ body: String, contentType: String, status: HTTPResponse.Status = .ok) -> Response {
            Response(
                status: status, headers: [.contentType: contentType, .accessControlAllowOrigin: "*"],
                body: .init(byteBuffer: ByteBuffer(string: body)))
        }

        func reverse(_ request: Request) throws -> Response {
            let query = try ReverseRequest(
                parameters: Self.parameters(request), queryString: request.uri.query ?? "",
                acceptLanguageHeader: request.headers[.acceptLanguage])
            let placemark = query.coordinate.map { point in
                let record = geocoder.record(
                    for: point, needs: query.placemarkNeeds, maximumRank: NominatimDetail.maximumRank(zoom: query.options.zoom),
                    layers: query.layers)
                var placemark = geocoder.placemark(from: record)
                if query.needsNameSources { geocoder.addNameSources(to: &placemark, from: record) }
                return placemark
            }
            // debug=1: the steps `where --explain` prints, for the request's zoom and layers.
            let explanation =
                query.debug
                ? query.coordinate.map { point in
                    geocoder.explanation(for: point, zoom: query.options.zoom, layers: query.layers)
                } ?? [] : []
            let body = query.answerBytes(
                placemark, timestamp: query.options.format == .xml ? Date() : nil, data: resources.placeData, licence: geocoder.licence,
                explanation: explanation)
            return Response(
                status: .ok, headers: [.contentType: query.contentType, .accessControlAllowOrigin: "*"],
                body: .init(byteBuffer: ByteBuffer(bytes: body)))
        }

        func statusAnswer(_ request: Request) throws -> Response {
            let format = try ServerStatus.format(parameters: Self.parameters(request))
            return Self.text(
                resources.status.body(format),
                contentType: format == .json ? "application/json; charset=utf-8" : "text/plain; charset=utf-8")
        }

        func metrics() -> Response {
            var bytes: [UInt8] = []
            resources.registry.emit(into: &bytes)
            return Response(
                status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        }

        /// POST /reverse: the body through the batch pipeline, the answer streamed as it is written.
        func reverseMany(_ request: Request) async throws -> Response {
            if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limits.maxBodyBytes {
                throw ServerRequestError(
                    status: 413, "The request body is \(declared) bytes; at most \(limits.maxBodyBytes) are taken (--max-body-bytes)")
            }
            let parameters = Self.parameters(request)
            let contentType = request.headers[.contentType]
            _ = try BatchRequest.declaredFormatCheck(contentType: contentType)
            var collected: ByteBuffer
            do {
                collected = try await request.body.collect(upTo: limits.maxBodyBytes)
            } catch let error as HTTPError where error.status == .contentTooLarge {
                throw ServerRequestError(status: 413, "The request body is larger than \(limits.maxBodyBytes) bytes (--max-body-bytes)")
            }
            let body = collected.readBytes(length: collected.readableBytes) ?? []
            let batchRequest = try BatchRequest(contentType: contentType, parameters: parameters, body: body, jobs: 1)
            guard batches.acquire() else {
                throw ServerRequestError(
                    status: 503, "\(ServerLimits.maxConcurrentBatches) batches are running; try again when one has finished")
            }
            let batch = RunningBatch(request: batchRequest, body: body, geocoder: geocoder, logger: resources.logger)
            let chunks = ChunkIterator(batch.sink.stream)
            let batches = batches
            // The first chunk (the header row, or the first rows) or the end: a body that cannot be read as
            // points at all fails before any output, and is still a 400.
            guard let first = await chunks.next() else {
                defer { batches.release() }
                do {
                    _ = try await batch.result.value
                } catch {
                    throw ServerRequestError(status: 400, BatchRequest.describe(error))
                }
                return Response(
                    status: .ok, headers: [.contentType: batchRequest.contentType, .accessControlAllowOrigin: "*"], body: ResponseBody())
            }
            let logger = resources.logger
            return Response(
                status: .ok, headers: [.contentType: batchRequest.contentType, .accessControlAllowOrigin: "*"],
                body: ResponseBody { writer in
                    defer { batches.release() }
                    do {
                        var chunk: ByteBuffer? = first
                        while let bytes = chunk {
                            try await writer.write(bytes)
                            batch.sink.written()
                            chunk = await chunks.next()
                        }
                        _ = try await batch.result.value
                    } catch {
                        // The client went away, or the batch failed part way. Headers are gone already: cutting
                        // the answer short is the only way left to say it failed. The batch stops at its next write.
                        batch.sink.stop()
                        _ = try? await batch.result.value
                        logger.error("batch failed part way", metadata: ["error": "\(error)"])
                        throw error
                    }
                    try await writer.finish(nil)
                })
        }
    }

    /// The batch's chunks in order, read by the handler (the first) and then by the response body.
    final class ChunkIterator: @unchecked Sendable {
        // @unchecked Sendable: used by one task at a time, the handler and then the body it returns.
        private var iterator: AsyncStream<ByteBuffer>.Iterator

        init(_ stream: AsyncStream<ByteBuffer>) { iterator = stream.makeAsyncIterator() }

        func next() async -> ByteBuffer? { await iterator.next() }
    }

    /// Counts the batches running, so that a burst of POSTs cannot take every core from GET /reverse.
    struct BatchSlots: Sendable {
        private let running = NIOLockedValueBox(0)
        let capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        func acquire() -> Bool {
            running.withLockedValue { running in
                guard running < capacity else { return false }
                running += 1
                return true
            }
        }

        func release() { running.withLockedValue { $0 -= 1 } }
    }

    /// A refused request answers with its own status and its Nominatim-shaped body (JSON, or XML when XML
    /// was asked for by name); a 405 names the methods the path takes.
    extension ServerRequestError: HTTPResponseError {
        public var status: HTTPResponse.Status { HTTPResponse.Status(code: code) }

        public func response(from request: Request, context: some RequestContext) throws -> Response {
            var response = ReverseGeocodingRoutes.text(body, contentType: ReverseRequest.contentType(format), status: status)
            if !allowedMethods.isEmpty { response.headers[.allow] = allowedMethods.joined(separator: ", ") }
            return response
        }
    }
#endif
