import ArgumentParser
import Travel411CLI
import Travel411Import

/// `travel411 import`: shapefiles and Data/ here; OpenStreetMap extracts, whose reader this executable does not
/// link, in `travel411-tools` (`import x.osm.pbf`, or `--append` to a database built from one).
struct ImportCommand: ParsableCommand {
    static let configuration = ImportArguments.configuration

    @OptionGroup var arguments: ImportArguments

    func run() throws {
        do {
            try arguments.run(extractReader: nil)
        } catch is ExtractReaderMissing {
            // Refused before anything was written: travel411-tools runs the same command from the start.
            try ToolsExecutable.handOver(Array(CommandLine.arguments.dropFirst()))
        }
    }
}
