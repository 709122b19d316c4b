import ArgumentParser
import Travel411CLI
import Travel411OSMReader

/// `travel411 import`, OpenStreetMap extracts included.
struct ImportCommand: ParsableCommand {
    static let configuration = ImportArguments.configuration

    @OptionGroup var arguments: ImportArguments

    func run() throws {
        try arguments.run(extractReader: .libosmium)
    }
}
