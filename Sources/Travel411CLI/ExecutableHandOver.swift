import Foundation
import Travel411Core

/// Replaces this process with a sibling executable (`travel411-serve`, `travel411-tools`): it takes over the
/// process, its signals, its streams and its exit status.
package enum ExecutableHandOver {
    /// The folder of the running `travel411`, where SwiftPM builds (and an installation puts) its siblings.
    package static var ownFolder: URL {
        URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            .resolvingSymlinksInPath()
            .deletingLastPathComponent()
    }

    /// Runs `executable` with `arguments` in place of this process; returns only by throwing.
    package static func exec(_ executable: URL, _ arguments: [String]) throws -> Never {
        var cArguments = ([executable.path] + arguments).map { strdup($0) } + [nil]
        // On success execv does not return.
        execv(executable.path, &cArguments)
        let reason = String(cString: strerror(errno))
        cArguments.forEach { free($0) }
        throw UserFacingError("cannot run \(executable.path): \(reason)", exitStatus: .unavailable)
    }
}
