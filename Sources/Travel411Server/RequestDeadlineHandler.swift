#if Server
    import NIOCore
    import NIOHTTPTypes

    /// Cuts off clients that send too slowly (slowloris): a connection must deliver a request's headers
    /// within `headerTimeout` of opening or of its last answer, and the body within `bodyTimeout` of the
    /// headers. An idle keep-alive connection is closed the same way. The server's own time to answer
    /// is never limited: while a request is being answered no deadline runs.
    ///
    /// Requests only move the deadline (a clock read); the one timer per connection re-arms itself
    /// when it fires early, so a busy connection does not schedule and cancel a task per request.
    ///
    /// It also tells the `ConnectionRegistry` what the connection is doing (waiting for a request, answering,
    /// idle), which sheds the least useful connections when too many are open.
    final class RequestDeadlineHandler: ChannelDuplexHandler, RemovableChannelHandler {
        typealias InboundIn = HTTPRequestPart
        typealias InboundOut = HTTPRequestPart
        typealias OutboundIn = HTTPResponsePart
        typealias OutboundOut = HTTPResponsePart

        private let headerTimeout: TimeAmount
        private let bodyTimeout: TimeAmount
        /// When the connection is closed unless the client gets on; nil while the server is answering.
        private var expiry: NIODeadline?
        private var timer: Scheduled<Void>?
        /// Requests whose headers have arrived and whose answers have not ended.
        private var inFlight = 0
        private let registry: ConnectionRegistry?
        private let activity = ConnectionActivity()
        /// This connection's number in the registry, once registered.
        private var registration: UInt64?

        init(headerTimeout: Duration, bodyTimeout: Duration, registry: ConnectionRegistry? = nil) {
            self.headerTimeout = TimeAmount(headerTimeout)
            self.bodyTimeout = TimeAmount(bodyTimeout)
            self.registry = registry
        }

        func handlerAdded(context: ChannelHandlerContext) {
            if context.channel.isActive { start(context) }
        }

        func channelActive(context: ChannelHandlerContext) {
            start(context)
            context.fireChannelActive()
        }

        private func start(_ context: ChannelHandlerContext) {
            arm(context, headerTimeout)
            if registration == nil, let registry { registration = registry.register(context.channel, activity: activity) }
        }

        func channelInactive(context: ChannelHandlerContext) {
            stop()
            context.fireChannelInactive()
        }

        func handlerRemoved(context: ChannelHandlerContext) { stop() }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            switch unwrapInboundIn(data) {
            case .head:
                inFlight += 1
                if inFlight == 1 { activity.set(.answering) }
                arm(context, bodyTimeout)
            case .end:
                expiry = nil
            case .body:
                break
            }
            context.fireChannelRead(data)
        }

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            if case .end = unwrapOutboundIn(data) {
                inFlight = max(0, inFlight - 1)
                if inFlight == 0 {
                    arm(context, headerTimeout)
                    activity.set(.idle)
                }
            }
            context.write(data, promise: promise)
        }

        private func arm(_ context: ChannelHandlerContext, _ timeout: TimeAmount) {
            let deadline = NIODeadline.now() + timeout
            expiry = deadline
            if timer == nil { schedule(context, at: deadline) }
        }

        /// What the timer's task needs; the task runs on the channel's event loop, the only place these are used
        /// (NIOLoopBound checks that), so neither needs to be Sendable.
        private struct TimerTarget {
            weak var handler: RequestDeadlineHandler?
            let context: ChannelHandlerContext
        }

        private func schedule(_ context: ChannelHandlerContext, at deadline: NIODeadline) {
            let target = NIOLoopBound(TimerTarget(handler: self, context: context), eventLoop: context.eventLoop)
            timer = context.eventLoop.scheduleTask(deadline: deadline) {
                guard let handler = target.value.handler else { return }
                handler.timer = nil
                guard let expiry = handler.expiry else { return }
                if expiry <= NIODeadline.now() {
                    target.value.context.channel.close(promise: nil)
                } else {
                    handler.schedule(target.value.context, at: expiry)
                }
            }
        }

        private func stop() {
            timer?.cancel()
            timer = nil
            expiry = nil
            if let registration { registry?.remove(registration) }
            registration = nil
        }
    }
#endif
