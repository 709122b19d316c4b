import ArgumentParser
import Travel411Kit

@main
struct Travel411Command: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "travel411",
        abstract: "Offline reverse geocoder and travel guide.",
        version: Travel411.version,
        subcommands: [DestinationCommand.self, MoveCityCommand.self, RegionCommand.self, DistanceCommand.self, AirportsCommand.self]
    )
}
