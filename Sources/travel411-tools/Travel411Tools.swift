import ArgumentParser
import Travel411CLI

/// `travel411-tools`: every command of travel411, run with the arguments `travel411` was given when it hands one over
/// (the travel guide, the map, quakes, an extract's import, the completion scripts and the manual's help dump).
/// Apart so that the first `travel411 where …` of a fresh clone compiles neither the Guide nor libosmium
/// (docs/architecture.md, "Executables").
@main
struct Travel411Tools: AsyncParsableCommand {
    static let configuration = Travel411Root.configuration(subcommands: [
        WhereCommand.self, ImportCommand.self,
        DestinationCommand.self, MoveCityCommand.self, RegionCommand.self, DistanceCommand.self, AirportsCommand.self,
        TrackCommand.self, RegionsCommand.self,
        QuakesCommand.self,
        MapCommand.self,
        ServeCommand.self,
    ])

    static func main() async {
        await Travel411Root.main(Self.self, arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
