import ArgumentParser
import Foundation
import Travel411Core
import Travel411NominatimAPI
import Travel411ServeOptions

/// `travel411 serve`: runs the `travel411-serve` executable that sits beside this one. The server is
/// its own executable so that building the core tool never compiles SwiftNIO and Hummingbird.
package struct ServeCommand: ParsableCommand {
    package static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve Nominatim's /reverse API from the local places database (runs travel411-serve).",
        discussion: """
            Endpoints: GET /reverse?lat=..&lon=.. with Nominatim's parameters (format=xml|json|jsonv2|geojson|geocodejson, \
            zoom, addressdetails, namedetails, extratags, accept-language, layer); POST /reverse with CSV, TSV, JSON Lines \
            or GeoJSON points, answered in the same format; GET /status; GET /metrics (Prometheus). Only 127.0.0.1 \
            listens unless --host says otherwise. SIGTERM and SIGINT finish the requests in flight, then exit 0.
            The server is a separate executable; build it once with `swift build --product travel411-serve --traits Server`.
              travel411 serve --port 8080
              curl 'http://127.0.0.1:8080/reverse?lat=51.47&lon=-0.45&format=jsonv2'
            """)

    @OptionGroup var options: ServeOptions

    package init() {}

    package func run() throws {
        try ExecutableHandOver.exec(try ServerExecutable.locate(), options.arguments)
    }
}

/// Finds `travel411-serve` in the folder of the running `travel411`, where SwiftPM builds both.
enum ServerExecutable {
    static let name = ServerBuildCommand.executableName

    static func locate() throws -> URL {
        let folder = ExecutableHandOver.ownFolder
        let server = folder.appendingPathComponent(name)
        guard FileManager.default.isExecutableFile(atPath: server.path) else {
            throw UserFacingError(notBuiltMessage(folder: folder), exitStatus: .unavailable)
        }
        return server
    }

    static func notBuiltMessage(folder: URL) -> String {
        let build = ServerBuildCommand(buildFolder: folder)
        return
            "the server is a separate executable, and \(folder.appendingPathComponent(name).path) has not been built: \(build.instruction), then `travel411 serve` again"
    }
}
