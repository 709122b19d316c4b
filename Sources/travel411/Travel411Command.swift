import ArgumentParser
import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Guide
import Travel411Import
import Travel411Store

@main
struct Travel411Command: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel411",
        abstract: "Offline reverse geocoder and travel guide.",
        discussion: """
            No network, no API key, no quota: everything is answered from a local places database built from shapefiles.

            Exit status: 0 success, 1 failure, 64 usage error, 65 bad input data, 66 missing input file, \
            69 a needed part is unavailable, 73 an output cannot be created, 74 I/O error, 75 try again \
            (the state file stayed locked).
            """,
        version: Travel411.version,
        subcommands: [
            WhereCommand.self, ImportCommand.self,
            DestinationCommand.self, MoveCityCommand.self, RegionCommand.self, DistanceCommand.self, AirportsCommand.self,
            TrackCommand.self, RegionsCommand.self,
            QuakesCommand.self,
            MapCommand.self,
            ServeCommand.self,
        ]
    )

    /// The one place where every command's errors end: each `Travel411Error` says its exit status;
    /// usage errors (64), help and `--version` are left to swift-argument-parser, with our prefix.
    static func main() async {
        do {
            // ArgumentParser would read a negative longitude such as "-0.1919" as an unknown option; protect
            // such arguments first so `move-city 51.5010 -0.1919` and `--from 51.47 -0.45` work.
            var command = try parseAsRoot(NegativeNumberArguments.protect(Array(CommandLine.arguments.dropFirst())))
            do {
                // `quakes` waits for a feed from the network; every other command runs straight through.
                if var asynchronous = command as? any AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
            } catch let error as ValidationError {
                // A usage error found only while running (a size that depends on --out): the same message and
                // exit 64 as from validate(), with the usage of the command that was run, not the root's.
                Diagnostics.error(error.message)
                Diagnostics.print(usageMessage(for: type(of: command)))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
        } catch let error as any Travel411Error {
            Diagnostics.error(error.description)
            Foundation.exit(error.exitStatus.rawValue)
        } catch {
            let code = exitCode(for: error)
            guard code != .success else { exit(withError: error) }  // --help, --version
            let message = fullMessage(for: error)
            if !message.isEmpty {
                let body = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
                Diagnostics.error(body)
            }
            Foundation.exit(code.rawValue)
        }
    }
}

extension Travel411Command {
    /// "Usage: travel411 map [...]" and where to read more, as swift-argument-parser prints them after a usage error.
    static func usageMessage(for command: any ParsableCommand.Type) -> String {
        let usage = usageString(for: command)
        // The command's words come first ("travel411 destination create"), then its arguments.
        let path = usage.split(separator: " ").prefix { !"[<-".contains($0.first ?? "[") }.joined(separator: " ")
        return "Usage: \(usage)\n  See '\(path) --help' for more information."
    }
}

/// Options shared by every command that reads the places database.
struct PlacesDatabaseOptions: ParsableArguments {
    @Option(
        name: .customLong("db"),
        help: ArgumentHelp("The places database (default: $TRAVEL411_DB, else $XDG_DATA_HOME/travel411/places.gpkg).", valueName: "file"))
    var databasePath: String?

    /// The places database for the travel commands, built from Data/ on first use (and rebuilt from it after
    /// an upgrade) with progress on stderr.
    func places() -> PlacesSource {
        let bar = ProgressBar()
        return PlacesSource(path: PlacesDatabaseLocation.resolve(explicitPath: databasePath)) { path, open in
            defer { bar.finish() }
            try PlacesDatabase.open(at: path, announce: Diagnostics.print, progress: bar.update, with: open)
        }
    }
}

/// Where diagnostics go: stderr, so stdout stays clean for results. Every line starts with
/// "travel411: error: " or "travel411: warning: " when it is one of those, and text from input files is
/// escaped before it gets here (`DisplayText`).
enum Diagnostics {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static func error(_ message: String) {
        print("travel411: error: " + DisplayText.escapingControls(message))
    }

    static func warning(_ message: String) {
        print("travel411: warning: " + DisplayText.escapingControls(message))
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
