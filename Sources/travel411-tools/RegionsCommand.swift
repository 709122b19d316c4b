import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Geocoder
import Travel411Guide

struct RegionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.regions.rawValue,
        abstract: ToolsCommand.regions.abstract,
        discussion: "A destination has at most \(MonitoredRegion.maximumCount) regions, as a device monitors at most that many.",
        subcommands: [Add.self, List.self, Remove.self],
        defaultSubcommand: List.self)

    struct Add: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Add a region: a name, a centre and a radius.")

        @Argument(help: ArgumentHelp("The region's name, unique within the destination.", valueName: "name"))
        var name: String

        @Argument(help: ArgumentHelp("The centre: latitude and longitude in degrees.", valueName: "lat lon"))
        var position: [String] = []

        @Option(help: ArgumentHelp("The radius, more than 0 and at most 400 km.", valueName: "metres"))
        var radius: Double

        @Option(help: ArgumentHelp("Said on enter and exit (default: \"Entered NAME\" / \"Left NAME\").", valueName: "text"))
        var message: String?

        @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
        var destination: String?

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        @OptionGroup var options: TravelStateOptions

        func validate() throws { _ = try region() }

        private func region() throws -> MonitoredRegion {
            let center = try CoordinateArguments.coordinate(from: position, naming: "the centre")
            do {
                return try MonitoredRegion.validated(name: name, center: center, radiusMetres: radius, message: message)
            } catch {
                throw ValidationError(error.localizedDescription)
            }
        }

        func run() throws {
            let region = try region()
            let store = try options.openStore()
            let destination = try store.addRegion(
                region, to: self.destination,
                insideTransaction: { TravelTestHooks.pauseInsideRegionsAddIfRequested() })
            switch format {
            case .json:
                try TravelOutput.printJSON(MonitoredRegionsJSON(destination: destination.name, regions: [MonitoredRegionJSON(region)]))
            case .text: print("Added region \(region.name) to \(destination.name): \(RegionsCommand.describe(region))")
            }
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List a destination's regions, oldest first.")

        @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
        var destination: String?

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let (destination, regions) = try options.openStore().regions(of: self.destination)
            switch format {
            case .json:
                try TravelOutput.printJSON(
                    MonitoredRegionsJSON(destination: destination.name, regions: regions.map(MonitoredRegionJSON.init)))
            case .text:
                guard !regions.isEmpty else {
                    print("\(destination.name) has no regions; add one with `travel411 regions add NAME LAT LON --radius METRES`")
                    return
                }
                print("Regions of \(destination.name) (\(regions.count) of \(MonitoredRegion.maximumCount)):")
                let rows = regions.map {
                    [
                        $0.name, TravelOutput.coordinate($0.center), "radius \(DistanceFormatter.humanReadable(metres: $0.radiusMetres))",
                        $0.message.map { "\"\($0)\"" } ?? "",
                    ]
                }
                TravelOutput.aligned(rows, indent: "  ").forEach { print($0) }
            }
        }
    }

    struct Remove: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Remove a region by name.")

        @Argument(help: ArgumentHelp("The region's name (any case).", valueName: "name"))
        var name: String

        @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
        var destination: String?

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let (destination, region) = try options.openStore().removeRegion(named: name, from: self.destination)
            print("Removed region \(region.name) from \(destination.name)")
        }
    }

    static func describe(_ region: MonitoredRegion) -> String {
        "\(TravelOutput.coordinate(region.center)), radius \(DistanceFormatter.humanReadable(metres: region.radiusMetres))"
            + (region.message.map { ", message \"\($0)\"" } ?? "")
    }
}

struct MonitoredRegionsJSON: Encodable {
    var destination: String
    var regions: [MonitoredRegionJSON]
}

struct MonitoredRegionJSON: Encodable {
    var name: String
    var latitude: Double
    var longitude: Double
    var radiusMetres: Double
    var message: String?

    init(_ region: MonitoredRegion) {
        name = region.name
        latitude = region.center.latitude
        longitude = region.center.longitude
        radiusMetres = region.radiusMetres.roundedToTenths
        message = region.message
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(radiusMetres, forKey: .radiusMetres)
        try container.encode(message, forKey: .message)
    }

    enum CodingKeys: String, CodingKey { case name, latitude, longitude, radiusMetres, message }
}
