import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Guide

struct RegionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.region.rawValue,
        abstract: ToolsCommand.region.abstract,
        discussion: """
            The span is the pins' extent padded by \(MapRegion.padding) degrees, and never less than \
            \(MapRegion.minimumSpan) degrees, as in the app. Longitudes are fitted on the circle, so pins \
            either side of the antimeridian give a narrow region centred near longitude 180 or -180.
            """)

    @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
    var destination: String?

    @Option(
        parsing: .upToNextOption,
        help: ArgumentHelp("Also show these points: one or more latitude/longitude pairs.", valueName: "lat lon"))
    var include: [String] = []

    @Option(help: "Output format.")
    var format: TravelOutputFormat = .text

    @OptionGroup var options: TravelStateOptions

    func validate() throws {
        _ = try CoordinateArguments.coordinates(from: include, naming: "--include")
    }

    func run() throws {
        let destination = try options.openStore().destination(named: self.destination)
        let extras = try CoordinateArguments.coordinates(from: include, naming: "--include")
        let pins = destination.pins
        guard let region = MapRegion.fitting(pins.map(\.coordinate) + extras) else { return }
        switch format {
        case .json:
            try TravelOutput.printJSON(RegionJSON(destination: destination.name, region: region, pins: pins, included: extras))
        case .text:
            print("Region for \(destination.name):")
            var rows = [
                ["centre", TravelOutput.coordinate(region.center)],
                [
                    "span",
                    "\(TravelOutput.degrees(region.latitudeDelta))° latitude × \(TravelOutput.degrees(region.longitudeDelta))° longitude",
                ],
                [
                    "bounds",
                    "south \(TravelOutput.degrees(region.south)), north \(TravelOutput.degrees(region.north)), west \(TravelOutput.degrees(region.west)), east \(TravelOutput.degrees(region.east))"
                        + (region.crossesAntimeridian ? " (crosses the antimeridian)" : ""),
                ],
            ]
            for pin in pins {
                rows.append([
                    "\(pin.kind.rawValue) pin", "\(pin.title) (\(pin.colour.rawValue)) at \(TravelOutput.coordinate(pin.coordinate))",
                ])
            }
            for point in extras { rows.append(["included", TravelOutput.coordinate(point)]) }
            TravelOutput.aligned(rows, indent: "  ").forEach { print($0) }
        }
    }
}

struct RegionJSON: Encodable {
    struct Center: Encodable {
        var latitude: Double
        var longitude: Double
    }
    struct Span: Encodable {
        var latitudeDelta: Double
        var longitudeDelta: Double
    }
    struct Bounds: Encodable {
        var south: Double
        var north: Double
        var west: Double
        var east: Double
    }
    struct Rule: Encodable {
        var padding: Double
        var minimumSpan: Double
    }

    var destination: String
    var center: Center
    var span: Span
    var bounds: Bounds
    var crossesAntimeridian: Bool
    var rule: Rule
    var pins: [MapPin]
    var included: [Center]

    init(destination: String, region: MapRegion, pins: [MapPin], included: [Coordinate]) {
        let r = { (value: Double) in value.roundedToMicrodegrees }
        self.destination = destination
        center = Center(latitude: r(region.center.latitude), longitude: r(region.center.longitude))
        span = Span(latitudeDelta: r(region.latitudeDelta), longitudeDelta: r(region.longitudeDelta))
        bounds = Bounds(south: r(region.south), north: r(region.north), west: r(region.west), east: r(region.east))
        crossesAntimeridian = region.crossesAntimeridian
        rule = Rule(padding: MapRegion.padding, minimumSpan: MapRegion.minimumSpan)
        self.pins = pins
        self.included = included.map { Center(latitude: $0.latitude, longitude: $0.longitude) }
    }
}
