import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Guide

struct DestinationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.destination.rawValue,
        abstract: ToolsCommand.destination.abstract,
        discussion: """
            The travel state lives in its own SQLite file (--state, else $TRAVEL411_STATE, else \
            $XDG_DATA_HOME/travel411/travel.sqlite). On first use it holds the book's trip: London, \
            with Heathrow (LHR) as its airport.
            """,
        subcommands: [Create.self, List.self, Show.self, Use.self, Rename.self, Delete.self]
    )
}

extension DestinationCommand {
    struct Create: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a destination and make it current.",
            discussion: """
                The airport comes from the airport catalogue by IATA or ICAO code. With --city, the City \
                is the most populous locality of that name within 100 km of the airport, else in the \
                airport's country, else the nearest of that name across the border. With --city-at, it \
                is that spot, named from its reverse geocode. With neither, it is the airport's own city.
                """)

        @Argument(help: "The destination's name.")
        var name: String

        @Option(help: ArgumentHelp("IATA or ICAO code of the airport, e.g. LHR or EGLL.", valueName: "code"))
        var airport: String

        @Option(help: ArgumentHelp("Name of the city to visit.", valueName: "name"))
        var city: String?

        @Option(
            name: .customLong("city-at"), parsing: .upToNextOption,
            help: ArgumentHelp("Put the City at this spot instead, named from the geocode.", valueName: "lat lon"))
        var cityAt: [String] = []

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        @OptionGroup var options: TravelStateOptions

        func validate() throws {
            do { _ = try TravelStore.validatedName(name) } catch { throw ValidationError(error.localizedDescription) }
            if city != nil && !cityAt.isEmpty { throw ValidationError("give either --city or --city-at, not both") }
            if !cityAt.isEmpty { _ = try CoordinateArguments.coordinate(from: cityAt, naming: "--city-at") }
            if airport.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--airport needs a code") }
        }

        func run() throws {
            let store = try options.openStore()
            // Fail before any slow lookup when the name is taken.
            if let existing = try store.destinations().first(where: {
                $0.name.caseInsensitiveCompare(name.trimmingCharacters(in: .whitespaces)) == .orderedSame
            }) {
                throw TravelStoreError.destinationExists(existing.name)
            }
            let airport = try AirportCatalogue.loadEmbedded().requireAirport(withCode: self.airport)
            let request: CityRequest
            if let city {
                request = .named(city)
            } else if !cityAt.isEmpty {
                request = .at(try CoordinateArguments.coordinate(from: cityAt, naming: "--city-at"))
            } else {
                request = .airportsCity
            }
            let places = options.places()
            let resolved = try CityResolver.resolve(request, for: airport, places: places)
            if let warning = resolved.warning { Diagnostics.warning(warning) }
            let destination = try store.createDestination(named: name, airport: airport, city: resolved.city)
            try DestinationPresenter.present(
                destination, isCurrent: true, places: places, format: format,
                heading: "Created \(destination.name) (now current)")
        }
    }

    struct List: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List the destinations; * marks the current one.")

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let store = try options.openStore()
            let destinations = try store.destinations()
            let currentID = try store.currentDestination()?.id
            switch format {
            case .json:
                try TravelOutput.printJSON(destinations.map { DestinationSummaryJSON($0, isCurrent: $0.id == currentID) })
            case .text:
                guard !destinations.isEmpty else {
                    print("No destinations. Create one with `travel411 destination create NAME --airport CODE`.")
                    return
                }
                let rows =
                    [["", "DESTINATION", "AIRPORT", "CITY", "CITY AT"]]
                    + destinations.map {
                        [
                            $0.id == currentID ? "*" : " ", $0.name, $0.airport.code, $0.city.name,
                            TravelOutput.coordinate($0.city.coordinate),
                        ]
                    }
                TravelOutput.aligned(rows).forEach { print($0) }
            }
        }
    }

    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Show a destination's pins: kind, colour, title, subtitle (from the reverse geocode) and coordinates.")

        @Argument(help: "The destination (default: the current one).")
        var name: String?

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let store = try options.openStore()
            let destination = try store.destination(named: name)
            let isCurrent = try store.currentDestination()?.id == destination.id
            try DestinationPresenter.present(destination, isCurrent: isCurrent, places: options.places(), format: format)
        }
    }

    struct Use: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Make a destination the current one.")

        @Argument(help: "The destination.")
        var name: String

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let destination = try options.openStore().useDestination(named: name)
            print("\(destination.name) is now the current destination.")
        }
    }

    struct Rename: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Rename a destination (not its City: move-city names that).")

        @Argument(help: "The destination's name now.")
        var oldName: String

        @Argument(help: "Its new name.")
        var newName: String

        func validate() throws {
            do { _ = try TravelStore.validatedName(newName) } catch { throw ValidationError(error.localizedDescription) }
        }

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let store = try options.openStore()
            let before = try store.destination(named: oldName)
            let after = try store.renameDestination(oldName, to: newName)
            print("Renamed \(before.name) to \(after.name).")
        }
    }

    struct Delete: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Delete a destination and its City's move history.")

        @Argument(help: "The destination.")
        var name: String

        @OptionGroup var options: TravelStateOptions

        func run() throws {
            let (deleted, newCurrent) = try options.openStore().deleteDestination(named: name)
            print("Deleted \(deleted.name).")
            if let newCurrent { print("\(newCurrent.name) is now the current destination.") }
        }
    }
}

/// Prints a destination with its pins, as `show` and `create` do.
enum DestinationPresenter {
    static func present(
        _ destination: Destination, isCurrent: Bool, places: PlacesSource, format: TravelOutputFormat,
        heading: String? = nil
    ) throws {
        let pins = try destination.pins.map { pin -> MapPin in
            var pin = pin
            pin.subtitle = CityNaming.subtitle(from: try places.placemark(for: pin.coordinate))
            return pin
        }
        switch format {
        case .json:
            try TravelOutput.printJSON(DestinationJSON(destination: destination, isCurrent: isCurrent, pins: pins))
        case .text:
            print(heading ?? (isCurrent ? "\(destination.name) (current)" : destination.name))
            let rows = pins.map { pin in
                [
                    pin.kind.rawValue, pin.colour.rawValue,
                    pin.kind == .airport ? "\(pin.title) (\(destination.airport.code))" : pin.title,
                    TravelOutput.coordinate(pin.coordinate), pin.kind.isMovable ? "movable" : "fixed",
                ]
            }
            // Each subtitle goes on its own line under its pin's title.
            let titleIndent = String(
                repeating: " ",
                count: 2 + (rows.map { $0[0].count }.max() ?? 0) + 2
                    + (rows.map { $0[1].count }.max() ?? 0) + 2)
            for (line, pin) in zip(TravelOutput.aligned(rows, indent: "  "), pins) {
                print(line)
                print(titleIndent + (pin.subtitle ?? "(no place name known here)"))
            }
        }
    }
}

struct DestinationJSON: Encodable {
    var name: String
    var current: Bool
    var airport: Airport
    var pins: [MapPin]

    init(destination: Destination, isCurrent: Bool, pins: [MapPin]) {
        name = destination.name
        current = isCurrent
        airport = destination.airport
        self.pins = pins
    }
}

struct DestinationSummaryJSON: Encodable {
    var name: String
    var current: Bool
    var airport: String
    var city: DestinationCity

    init(_ destination: Destination, isCurrent: Bool) {
        name = destination.name
        current = isCurrent
        airport = destination.airport.code
        city = destination.city
    }
}
