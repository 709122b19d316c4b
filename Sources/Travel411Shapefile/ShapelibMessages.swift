import CShapelib

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Collects what shapelib reports through `SAHooks.Error`, which would otherwise go to stderr.
///
/// The hook is a plain C function without a context pointer, so the sink that should receive a message is
/// found through a thread-specific slot that `collect` sets for the duration of each shapelib call.
final class ShapelibMessageSink {
    private var pending: [String] = []

    /// Hooks for `SHPOpenLL`/`DBFOpenLL`: default file I/O, errors routed to the sink of the calling thread.
    static func makeHooks() -> SAHooks {
        var hooks = SAHooks()
        SASetupDefaultHooks(&hooks)
        hooks.Error = { message in
            guard let message, let slot = pthread_getspecific(shapelibSinkSlot) else { return }
            Unmanaged<ShapelibMessageSink>.fromOpaque(slot).takeUnretainedValue()
                .pending.append(String(cString: message))
        }
        return hooks
    }

    /// Runs `body` (which calls shapelib) with this thread's shapelib messages going to this sink.
    func collect<Result>(_ body: () throws -> Result) rethrows -> Result {
        let previous = pthread_getspecific(shapelibSinkSlot)
        pthread_setspecific(shapelibSinkSlot, Unmanaged.passUnretained(self).toOpaque())
        defer { pthread_setspecific(shapelibSinkSlot, previous) }
        return try body()
    }

    /// The messages collected since the last call, oldest first.
    func take() -> [String] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }
}

/// Created once, on first use (Swift initialises globals lazily and thread-safely).
private let shapelibSinkSlot: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
