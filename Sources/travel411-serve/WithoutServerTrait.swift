#if !Server
    import Foundation
    import Travel411Core
    import Travel411NominatimAPI

    /// What `travel411-serve` is when the package is built without the Server trait, which keeps SwiftNIO and
    /// Hummingbird out of the core tool's build (and out of a fresh clone's package resolution). It says how to
    /// build the real server and exits 69 (unavailable), as `travel411 serve` does when the server is missing.
    @main
    enum ServerBuiltWithoutTrait {
        static func main() {
            let folder = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            let build = ServerBuildCommand(buildFolder: folder)
            let message = "travel411-serve: error: this build has no server (it was built without the Server trait): \(build.instruction)\n"
            FileHandle.standardError.write(Data(message.utf8))
            exit(ExitStatus.unavailable.rawValue)
        }
    }
#endif
