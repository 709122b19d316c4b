#if Server
    import NIOConcurrencyHelpers
    import NIOCore

    /// The server's open connections and what each is doing, so that past `--max-connections` the least useful
    /// ones make room for a new one: first the oldest still waiting for a request's headers (a half-open
    /// connection: a slow or stalled client, or a flood of them), then the oldest idle keep-alive one; never one
    /// whose request is being answered. Without this a flood of half-open connections fills the limit and a good
    /// client waits in the listen backlog until the header deadline cuts the flood down (7.2 s was measured).
    ///
    /// The registry's lock is taken when a connection opens or closes; what a connection is doing is its own
    /// `ConnectionActivity`, so requests on different connections never contend for one lock.
    final class ConnectionRegistry: Sendable {
        private struct State {
            var connections: [UInt64: (channel: any Channel, activity: ConnectionActivity)] = [:]
            var nextNumber: UInt64 = 0
        }

        private let state = NIOLockedValueBox(State())
        let limit: Int

        init(limit: Int) { self.limit = limit }

        var count: Int { state.withLockedValue { $0.connections.count } }

        /// A new connection, numbered in order of arrival; closes the connections shed to make room for it.
        func register(_ channel: any Channel, activity: ConnectionActivity) -> UInt64 {
            let (number, shed) = state.withLockedValue { state -> (UInt64, [any Channel]) in
                let number = state.nextNumber
                state.nextNumber += 1
                state.connections[number] = (channel, activity)
                var shed: [any Channel] = []
                while state.connections.count > limit, let victim = Self.victim(in: state, besides: number) {
                    shed.append(state.connections.removeValue(forKey: victim)!.channel)
                }
                return (number, shed)
            }
            for channel in shed { channel.close(promise: nil) }
            return number
        }

        /// The oldest connection waiting for a request, else the oldest idle one; nil when every other one is answering.
        private static func victim(in state: State, besides newcomer: UInt64) -> UInt64? {
            var oldestAwaiting: UInt64?
            var oldestIdle: UInt64?
            for (number, entry) in state.connections where number != newcomer {
                switch entry.activity.current {
                case .awaitingRequest: if number < oldestAwaiting ?? .max { oldestAwaiting = number }
                case .idle: if number < oldestIdle ?? .max { oldestIdle = number }
                case .answering: break
                }
            }
            return oldestAwaiting ?? oldestIdle
        }

        func remove(_ number: UInt64) {
            _ = state.withLockedValue { $0.connections.removeValue(forKey: number) }
        }
    }

    /// What one connection is doing; set on its event loop, read by the registry when it sheds.
    final class ConnectionActivity: Sendable {
        enum Kind: Sendable { case awaitingRequest, answering, idle }

        private let kind = NIOLockedValueBox(Kind.awaitingRequest)

        var current: Kind { kind.withLockedValue { $0 } }

        func set(_ new: Kind) { kind.withLockedValue { $0 = new } }
    }
#endif
