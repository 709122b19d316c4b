import ArgumentParser
import Foundation
import Travel411Kit

@main
struct Travel411Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel411",
        abstract: "Offline reverse geocoder and travel guide.",
        discussion: "No network, no API key, no quota: everything is answered from a local places database built from shapefiles.",
        version: Travel411.version,
        subcommands: [
            WhereCommand.self, ImportCommand.self,
            DestinationCommand.self, MoveCityCommand.self, RegionCommand.self, DistanceCommand.self, AirportsCommand.self,
            ServeCommand.self,
        ]
    )
}

/// Options shared by every command that reads the places database.
struct PlacesDatabaseOptions: ParsableArguments {
    @Option(name: .customLong("db"), help: ArgumentHelp("The places database (default: $TRAVEL411_DB, else $XDG_DATA_HOME/travel411/places.gpkg).", valueName: "FILE"))
    var databasePath: String?
}

/// Where diagnostics go: stderr, so stdout stays clean for results.
enum Diagnostics {
    static func print(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }

    /// Fails with a message and exit 65 (EX_DATAERR) for bad input data, 1 for anything else.
    static func fail(_ error: Error) -> ExitCode {
        let message = (error as? LocalizedError)?.errorDescription ?? String(describing: error)
        print("travel411: error: \(message)")
        switch error {
        case is ShapefileError, is ImportError, is OutdatedPlacesDatabaseError, is CoordinateError: return ExitCode(65)
        default: return .failure
        }
    }
}
