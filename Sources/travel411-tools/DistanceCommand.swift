import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Geocoder
import Travel411Guide

struct DistanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.distance.rawValue,
        abstract: ToolsCommand.distance.abstract,
        discussion: "From --from LAT LON, or from the airport (the default); great-circle distance.")

    enum Target: String, ExpressibleByArgument, CaseIterable { case city, airport }

    @Option(parsing: .upToNextOption, help: ArgumentHelp("Where you are.", valueName: "lat lon"))
    var from: [String] = []

    @Flag(help: "Measure from the destination's airport (the default when --from is not given).")
    var fromAirport = false

    @Option(help: "Which pin to measure to.")
    var to: Target = .city

    @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
    var destination: String?

    @Option(help: "Output format.")
    var format: TravelOutputFormat = .text

    @OptionGroup var options: TravelStateOptions

    func validate() throws {
        if !from.isEmpty && fromAirport { throw ValidationError("give either --from or --from-airport, not both") }
        if !from.isEmpty { _ = try CoordinateArguments.coordinate(from: from, naming: "--from") }
        if from.isEmpty && to == .airport { throw ValidationError("--to airport measures from the airport to itself; give --from LAT LON") }
    }

    func run() throws {
        let destination = try options.openStore().destination(named: self.destination)
        let origin: DestinationCity
        if from.isEmpty {
            origin = DestinationCity(name: destination.airport.name, coordinate: destination.airport.coordinate)
        } else {
            let point = try CoordinateArguments.coordinate(from: from, naming: "--from")
            origin = DestinationCity(name: TravelOutput.coordinate(point), coordinate: point)
        }
        let target =
            to == .city
            ? destination.city
            : DestinationCity(name: destination.airport.name, coordinate: destination.airport.coordinate)
        let start = origin.coordinate
        let end = target.coordinate
        let metres = GreatCircle.distance(from: start, to: end)
        // The app's sentence: "You are now 12.3 km from London".
        let sentence = "You are now \(DistanceFormatter.humanReadable(metres: metres)) from \(target.name)"
        switch format {
        case .text:
            print(sentence)
        case .json:
            let bearing = GreatCircle.initialBearing(from: start, to: end)
            try TravelOutput.printJSON(
                DistanceJSON(
                    destination: destination.name, from: origin, to: target, toKind: to.rawValue,
                    distanceMetres: metres.roundedToTenths, distanceKilometres: (metres).rounded() / 1000,
                    bearingDegrees: bearing.roundedToTenths, compassPoint: CompassPoint(bearing: bearing).rawValue,
                    sentence: sentence))
        }
    }
}

struct DistanceJSON: Encodable {
    var destination: String
    var from: DestinationCity
    var to: DestinationCity
    var toKind: String
    var distanceMetres: Double
    var distanceKilometres: Double
    /// Initial bearing from `from` towards `to`.
    var bearingDegrees: Double
    var compassPoint: String
    var sentence: String
}
