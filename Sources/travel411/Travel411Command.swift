import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core

/// `travel411`: runs `where`, `import` (of shapefiles and Data/) and `serve` (which runs `travel411-serve`), and hands
/// every other command to `travel411-tools` (`ToolsExecutable`), so that a fresh clone's first `where` compiles
/// only what it uses (docs/architecture.md, "Executables"). Its help lists every command, as before.
@main
struct Travel411Command: AsyncParsableCommand {
    static let configuration = Travel411Root.configuration(subcommands: [
        WhereCommand.self, ImportCommand.self,
        HandedOver.Destination.self, HandedOver.MoveCity.self, HandedOver.Region.self, HandedOver.Distance.self,
        HandedOver.Airports.self, HandedOver.Track.self, HandedOver.Regions.self, HandedOver.Quakes.self,
        HandedOver.Map.self,
        ServeCommand.self,
    ])

    static func main() async {
        let arguments = Array(CommandLine.arguments.dropFirst())
        if ToolsCommand.handles(arguments) {
            do {
                try ToolsExecutable.handOver(arguments)
            } catch let error as any Travel411Error {
                Diagnostics.error(error.description)
                Foundation.exit(error.exitStatus.rawValue)
            } catch {
                Diagnostics.error("\(error)")
                Foundation.exit(ExitStatus.failure.rawValue)
            }
        }
        await Travel411Root.main(Self.self, arguments: arguments)
    }
}

/// The commands `travel411-tools` runs, as `travel411 --help` lists them. `main` hands them over before parsing,
/// so they are never run here.
enum HandedOver {
    struct Destination: ParsableCommand { static let configuration = ToolsCommand.destination.listing }
    struct MoveCity: ParsableCommand { static let configuration = ToolsCommand.moveCity.listing }
    struct Region: ParsableCommand { static let configuration = ToolsCommand.region.listing }
    struct Distance: ParsableCommand { static let configuration = ToolsCommand.distance.listing }
    struct Airports: ParsableCommand { static let configuration = ToolsCommand.airports.listing }
    struct Track: ParsableCommand { static let configuration = ToolsCommand.track.listing }
    struct Regions: ParsableCommand { static let configuration = ToolsCommand.regions.listing }
    struct Quakes: ParsableCommand { static let configuration = ToolsCommand.quakes.listing }
    struct Map: ParsableCommand { static let configuration = ToolsCommand.map.listing }
}

extension ToolsCommand {
    /// Its name and abstract, as the root's help lists a command.
    fileprivate var listing: CommandConfiguration { CommandConfiguration(commandName: rawValue, abstract: abstract) }
}
