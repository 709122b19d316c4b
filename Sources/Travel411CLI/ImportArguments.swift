import ArgumentParser
import Foundation
import Travel411Geocoder
import Travel411Import
import Travel411OSM
import Travel411Store

/// `travel411 import`'s arguments and what it does with them. Both executables have an `import`: `travel411`'s reads
/// shapefiles only (the first use's import of Data/ compiles no OpenStreetMap reader) and hands extracts to
/// `travel411-tools`, whose `import` reads them (`run(extractReader:)`).
package struct ImportArguments: ParsableArguments {
    package static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Build the places database from shapefiles and OpenStreetMap extracts.",
        discussion: """
            PATH may be shapefiles, folders of them, or OpenStreetMap extracts (.osm.pbf, .osm, .osm.bz2, .osm.gz); with none, \
            the embedded Data/ is imported. Known layouts (Natural Earth, GeoNames, Geofabrik and GDAL's \
            OpenStreetMap layers, time zones, water, Code-Point Open, ...) are recognised; map any other with \
            --level and --name-field. The database is built beside the target and moved into place only \
            when the whole import succeeded.
            """)

    @Argument(help: "Shapefiles, folders of shapefiles, or OpenStreetMap extracts (default: the embedded Data/).")
    var paths: [String] = []

    @OptionGroup var database: PlacesDatabaseOptions

    @Option(
        help: ArgumentHelp(
            "What an unrecognised layout holds (\(PlaceLevel.userMappable.map(\.rawValue).joined(separator: ", "))); FILE=LEVEL for one file only (repeatable).",
            valueName: "[file=]level"))
    var level: [String] = []

    @Option(
        help: ArgumentHelp(
            "The field that names each feature of an unrecognised layout; FILE=FIELD for one file only (repeatable).",
            valueName: "[file=]field"))
    var nameField: [String] = []

    @Flag(
        help: ArgumentHelp(
            "Add PATH to what the database at --db was imported from, and rebuild it from all of them (its other sources must still be where they were). Without --db, the default database, built from Data/ first when there is none yet."
        ))
    var append = false

    @Option(
        help: ArgumentHelp(
            "A new file for the OpenStreetMap node locations while extracts are read, e.g. on another disk (as osm2pgsql's --flat-nodes); it is removed as soon as it is made, so nothing stays behind (default: a temporary file in TMPDIR).",
            valueName: "path"))
    var nodesFile: String?

    @Option(
        help: ArgumentHelp(
            "Which of an OpenStreetMap extract's feature layers the GeoPackage keeps: all (for GIS tools and `map`), or lookups, only those the lookups read (places, boundaries, postcode areas); the streets, addresses and POIs are then in the lookup tables only, and the file is about half as big (default: all; with --append, what the database kept).",
            valueName: "layers"))
    var layers: FeatureLayers?

    package init() {}

    package func validate() throws {
        _ = try parsedOptions(paths: [], output: "")
    }

    /// The options, with `--level` and `--name-field` split into the one for every file and those for one file.
    private func parsedOptions(paths: [URL], output: String) throws -> ImportOptions {
        var options = ImportOptions(paths: paths, databasePath: output)
        options.append = append
        options.nodesFile = nodesFile
        options.featureLayers = layers
        for argument in level {
            if let (file, value) = FileOption<PlaceLevel>.split(argument) {
                guard let mapped = PlaceLevel(argument: value) else { throw ValidationError(Self.unknownLevel(value)) }
                options.fileLevels.append(FileOption(file: file, value: mapped))
            } else {
                guard let mapped = PlaceLevel(argument: argument) else { throw ValidationError(Self.unknownLevel(argument)) }
                guard options.level == nil else {
                    throw ValidationError("--level \(argument): give one level for every file, or FILE=LEVEL for each file")
                }
                options.level = mapped
            }
        }
        for argument in nameField {
            if let (file, value) = FileOption<String>.split(argument) {
                options.fileNameFields.append(FileOption(file: file, value: value))
            } else {
                guard options.nameField == nil else {
                    throw ValidationError("--name-field \(argument): give one field for every file, or FILE=FIELD for each file")
                }
                options.nameField = argument
            }
        }
        if options.nameField != nil, options.level == nil {
            throw ValidationError("--name-field goes with --level: say what the layout holds, e.g. --level thoroughfare --name-field NAME")
        }
        if append, paths.isEmpty, self.paths.isEmpty {
            throw ValidationError("--append needs the files to add: travel411 import --append FILE --db EXISTING")
        }
        return options
    }

    private static func unknownLevel(_ value: String) -> String {
        "--level: '\(value)' is not a level; choose one of \(PlaceLevel.userMappable.map(\.rawValue).joined(separator: ", "))"
    }

    /// Imports; `extractReader` nil: OpenStreetMap extracts are refused with `ExtractReaderMissing` before
    /// anything is written.
    package func run(extractReader: (any OSMExtractReading)?) throws {
        let targets = paths.isEmpty ? [try EmbeddedData.locate()] : paths.map { URL(fileURLWithPath: $0) }
        let output = PlacesDatabaseLocation.resolve(explicitPath: database.databasePath)
        var options = try parsedOptions(paths: targets, output: output)
        options.extractReader = extractReader
        let bar = ProgressBar()
        defer { bar.finish() }
        // The default database is the one `where` builds from Data/ on first use: adding an extract to it before
        // that adds it to Data/, not to nothing.
        if append, database.databasePath == nil {
            try PlacesDatabase.buildIfMissing(at: output, announce: Diagnostics.print, progress: bar.update)
            bar.finish()
        }
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
        // The same territories come with every import that holds the time zones (an OSM --append rebuilds the
        // lookup tables too): one line with their count and codes, not ten lines each time; docs/fields.md lists them.
        if !summary.territories.isEmpty {
            let codes = summary.territories.compactMap { territory in
                territory.firstRange(of: /\(([A-Z]{2})\)/).map { String(territory[$0].dropFirst().dropLast()) }
            }
            lines.append(
                "\(count(summary.territories.count, "overseas territory")) answered with their own ISO code (from the time zones' zone.tab): \(codes.joined(separator: ", "))"
            )
        }
        if !summary.contradictedLabels.isEmpty {
            lines.append("Admin-1 labels their localities contradict (answered with the localities' name):")
            lines += summary.contradictedLabels.map { "  \($0)" }
        }
        return lines.joined(separator: "\n")
    }

    /// "1 layer", "19 layers".
    private static func count(_ number: Int, _ noun: String) -> String {
        if noun.hasSuffix("y"), number != 1 { return "\(number) \(noun.dropLast())ies" }
        return "\(number) \(noun)\(number == 1 ? "" : "s")"
    }
}
