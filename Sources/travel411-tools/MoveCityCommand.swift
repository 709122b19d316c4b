import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Geocoder
import Travel411Guide

struct MoveCityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.moveCity.rawValue,
        abstract: ToolsCommand.moveCity.abstract,
        discussion: """
            The City is renamed to the most specific place name of the new spot: its sub-locality \
            (Kensington), else its locality, else its administrative area. Where there is none (at \
            sea) it keeps its name, with a warning. Every move is kept; --undo steps back one move at \
            a time. The airport pin is fixed and cannot be moved.
            """)

    @Argument(help: ArgumentHelp("Where to drop the City: latitude and longitude in degrees.", valueName: "lat lon"))
    var position: [String] = []

    @Option(help: ArgumentHelp("The destination (default: the current one).", valueName: "name"))
    var destination: String?

    @Flag(help: "Put the City back where it was before its latest move.")
    var undo = false

    @Flag(help: "List the City's moves, oldest first.")
    var history = false

    @Option(help: "Output format.")
    var format: TravelOutputFormat = .text

    @OptionGroup var options: TravelStateOptions

    func validate() throws {
        let modes = [!position.isEmpty, undo, history].filter { $0 }.count
        guard modes == 1 else {
            throw ValidationError(modes == 0 ? "give LAT LON, --undo or --history" : "give only one of LAT LON, --undo and --history")
        }
        if !position.isEmpty { _ = try CoordinateArguments.coordinate(from: position, naming: "the new position") }
    }

    func run() throws {
        let store = try options.openStore()
        if history {
            try printHistory(try store.moveHistory(of: destination), of: try store.destination(named: destination))
        } else if undo {
            let move = try store.undoCityMove(of: destination)
            try printResult(
                heading: "Undid the move of \(move.destinationName)'s City",
                from: move.to, to: move.from, move: move)
        } else {
            let target = try CoordinateArguments.coordinate(from: position, naming: "the new position")
            // An unknown destination fails here, before the geocoder is opened.
            let before = try store.destination(named: destination)
            let placemark = try options.places().placemark(for: target)
            let newName = CityNaming.cityName(from: placemark)
            if newName == nil {
                let water = placemark.ocean ?? placemark.inlandWater
                let place = water.map { "\(target) is in the \($0)" } ?? "\(target) has no locality or administrative area (at sea?)"
                Diagnostics.warning("\(place); the City keeps its name '\(before.city.name)'")
            }
            let move = try store.moveCity(
                of: before.name, to: target, newName: newName,
                insideTransaction: { TravelTestHooks.pauseInsideMoveIfRequested() })
            try printResult(heading: "Moved \(move.destinationName)'s City", from: move.from, to: move.to, move: move)
        }
    }

    private func printResult(heading: String, from: DestinationCity, to: DestinationCity, move: CityMove) throws {
        let distance = GreatCircle.distance(from: from.coordinate, to: to.coordinate)
        let bearing = GreatCircle.initialBearing(from: from.coordinate, to: to.coordinate)
        switch format {
        case .json:
            try TravelOutput.printJSON(
                MoveResultJSON(
                    destination: move.destinationName, moveID: move.id, undone: move.undoneAt != nil,
                    from: from, to: to, renamed: from.name != to.name,
                    distanceMetres: distance.roundedToTenths, bearingDegrees: bearing.roundedToTenths,
                    compassPoint: CompassPoint(bearing: bearing).rawValue))
        case .text:
            print("\(heading):")
            let rows = [
                ["from", from.name, TravelOutput.coordinate(from.coordinate)],
                ["to", to.name, TravelOutput.coordinate(to.coordinate)],
            ]
            TravelOutput.aligned(rows, indent: "  ").forEach { print($0) }
            let moved =
                distance < 1
                ? "did not move" : "moved \(DistanceFormatter.humanReadable(metres: distance)) \(CompassPoint(bearing: bearing).rawValue)"
            print("  \(moved)")
        }
    }

    private func printHistory(_ moves: [CityMove], of destination: Destination) throws {
        switch format {
        case .json:
            try TravelOutput.printJSON(moves)
        case .text:
            guard !moves.isEmpty else {
                print(
                    "\(destination.name)'s City has not been moved; it is \(destination.city.name) at \(TravelOutput.coordinate(destination.city.coordinate))."
                )
                return
            }
            print("Moves of \(destination.name)'s City, oldest first:")
            let rows = moves.map { move in
                [
                    "#\(move.id)", move.movedAt,
                    "\(move.from.name) (\(TravelOutput.coordinate(move.from.coordinate)))",
                    "->", "\(move.to.name) (\(TravelOutput.coordinate(move.to.coordinate)))",
                    DistanceFormatter.humanReadable(metres: move.distanceMetres),
                    move.undoneAt.map { "undone \($0)" } ?? "",
                ]
            }
            TravelOutput.aligned(rows, indent: "  ").forEach { print($0) }
        }
    }
}

struct MoveResultJSON: Encodable {
    var destination: String
    var moveID: Int64
    var undone: Bool
    var from: DestinationCity
    var to: DestinationCity
    var renamed: Bool
    var distanceMetres: Double
    var bearingDegrees: Double
    var compassPoint: String
}
