import ArgumentParser
import Foundation
import Travel411Kit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Build the places database from shapefiles.",
        discussion: """
            PATH may be shapefiles or folders of them; with none, the embedded Data/ is imported. \
            Known layouts (Natural Earth, GeoNames, Geofabrik/OSM, time zones, water, Code-Point Open, …) \
            are recognised; map any other with --level and --name-field. The database is built beside \
            the target and moved into place only when the whole import succeeded.
            """)

    @Argument(help: "Shapefiles or folders of shapefiles (default: the embedded Data/).")
    var paths: [String] = []

    @OptionGroup var database: PlacesDatabaseOptions

    @Option(help: ArgumentHelp("What an unrecognised layout holds.", valueName: "level"))
    var level: PlaceLevel?

    @Option(help: ArgumentHelp("The field that names each feature of an unrecognised layout.", valueName: "field"))
    var nameField: String?

    func validate() throws {
        if nameField != nil, level == nil {
            throw ValidationError("--name-field goes with --level: say what the layout holds, e.g. --level thoroughfare --name-field NAME")
        }
    }

    func run() throws {
        let targets = paths.isEmpty ? [try EmbeddedData.locate()] : paths.map { URL(fileURLWithPath: $0) }
        let output = PlacesDatabaseLocation.resolve(explicitPath: database.databasePath)
        let options = ImportOptions(paths: targets, databasePath: output, level: level, nameField: nameField)
        let bar = ProgressBar()
        defer { bar.finish() }
        let summary = try Importer(options: options, progress: bar.update).run()
        bar.finish()
        print(ImportSummaryFormatter.text(summary))
        summary.warnings.forEach(Diagnostics.warning)
    }
}

enum ImportSummaryFormatter {
    static func text(_ summary: ImportSummary) -> String {
        let counts =
            "\(count(summary.layers.count, "layer")), \(count(summary.featureCount, "feature")) (\(count(summary.skippedCount, "record")) skipped)"
        var lines = ["Imported \(counts) into \(summary.databasePath) in \(String(format: "%.1f", summary.seconds)) s"]
        let width = summary.layers.map(\.table.count).max() ?? 0
        for layer in summary.layers {
            var line =
                "  \(layer.table.padding(toLength: width, withPad: " ", startingAt: 0))  \(layer.level.rawValue.padding(toLength: 13, withPad: " ", startingAt: 0)) \(String(format: "%7d", layer.features)) features"
            line += String(format: " %6.2f s", layer.seconds)
            if layer.skipped > 0 { line += ", \(layer.skipped) skipped" }
            lines.append(line)
            for (reason, count) in layer.skipReasons.sorted(by: { $0.key < $1.key }) {
                lines.append("      \(count) × \(reason)")
            }
        }
        if !summary.territories.isEmpty {
            lines.append("Overseas territories with their own ISO code (from the time zones' zone.tab):")
            lines += summary.territories.map { "  \($0)" }
        }
        if !summary.contradictedLabels.isEmpty {
            lines.append("Admin-1 labels their localities contradict (answered with the localities' name):")
            lines += summary.contradictedLabels.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// "1 layer", "19 layers".
    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
