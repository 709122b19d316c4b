import Foundation
import ServiceLifecycle

/// SIGTERM and SIGINT start the ServiceGroup's graceful shutdown (stop accepting, finish the requests
/// in flight, exit 0).
///
/// The signals are caught with a plain sigaction handler that writes a byte into a pipe, rather than
/// with ServiceGroup's own `gracefulShutdownSignals`: on Linux those are libdispatch signal sources,
/// which read a signalfd and so see only signals blocked in every thread. A signal that lands on a
/// thread that had not blocked it (NIO's and the cooperative pool's threads start before any code of
/// ours could block it) was then lost, or killed the process with status 143, depending on timing.
enum ShutdownSignals {
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    static func install(onSignal: @escaping @Sendable (Int32) -> Void) {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return }
        writeEnd = ends[1]
        let readEnd = ends[0]
        for signalNumber in [SIGTERM, SIGINT] {
            var action = sigaction()
            #if canImport(Glibc)
            action.__sigaction_handler.sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(ShutdownSignals.writeEnd, &byte, 1)
            }
            #else
            action.__sigaction_u.__sa_handler = { number in
                var byte = UInt8(truncatingIfNeeded: number)
                _ = write(ShutdownSignals.writeEnd, &byte, 1)
            }
            #endif
            action.sa_flags = SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(signalNumber, &action, nil)
        }
        let thread = Thread {
            var byte: UInt8 = 0
            while true {
                let count = read(readEnd, &byte, 1)
                if count < 0 && errno == EINTR { continue }
                guard count == 1 else { return }
                onSignal(Int32(byte))
            }
        }
        thread.name = "travel411-serve signals"
        thread.start()
    }
}
