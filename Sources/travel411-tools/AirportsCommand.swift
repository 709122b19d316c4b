import ArgumentParser
import Foundation
import Travel411CLI
import Travel411Core
import Travel411Geocoder
import Travel411Guide

struct AirportsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: ToolsCommand.airports.rawValue,
        abstract: ToolsCommand.airports.abstract,
        subcommands: [Show.self, Near.self]
    )
}

extension AirportsCommand {
    struct Show: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "An airport's details by IATA or ICAO code, with our own placemark of its spot.")

        @Argument(help: "IATA or ICAO code, e.g. LHR or EGLL.")
        var code: String

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        @OptionGroup var database: PlacesDatabaseOptions

        func run() throws {
            let airport = try AirportCatalogue.loadEmbedded().requireAirport(withCode: code)
            let places = database.places()
            let placemark = try places.placemark(for: airport.coordinate)
            switch format {
            case .json:
                try TravelOutput.printJSON(AirportDetailJSON(airport: airport, placemark: placemark))
            case .text:
                print("\(airport.codes)  \(airport.name)")
                let elevation =
                    airport.elevationFeet.map {
                        "\(TravelOutput.degrees($0)) ft (\(Int(($0 * 0.3048).rounded())) m)"
                    } ?? "unknown"
                var rows = [
                    ["city", airport.city],
                    ["subdivision", airport.subdivision],
                    ["country", airport.countryCode],
                    ["elevation", elevation],
                    ["time zone", airport.timeZone],
                    ["position", TravelOutput.coordinate(airport.coordinate)],
                    ["placemark", CityNaming.subtitle(from: placemark) ?? "(no place name known here)"],
                ]
                if let nearest = placemark.nearestLocality { rows.append(["nearest", nearest.phrase]) }
                if let lid = airport.localIdentifier { rows.insert(["local code", lid], at: 0) }
                TravelOutput.aligned(rows, indent: "  ").forEach { print($0) }
            }
        }
    }

    struct Near: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "The airports nearest to a point, nearest first, with distance and bearing from the point.")

        @Argument(help: ArgumentHelp("The point: latitude and longitude in degrees.", valueName: "lat lon"))
        var position: [String] = []

        @Option(help: "How many airports to list.")
        var limit = 5

        @Option(help: "Output format.")
        var format: TravelOutputFormat = .text

        func validate() throws {
            _ = try CoordinateArguments.coordinate(from: position, naming: "the point")
            guard (1...1000).contains(limit) else { throw ValidationError("--limit must be between 1 and 1000") }
        }

        func run() throws {
            let point = try CoordinateArguments.coordinate(from: position, naming: "the point")
            let nearest = try AirportCatalogue.loadEmbedded().nearest(to: point, limit: limit)
            switch format {
            case .json:
                try TravelOutput.printJSON(nearest)
            case .text:
                let rows =
                    [["CODE", "ICAO", "AIRPORT", "DISTANCE", "BEARING"]]
                    + nearest.map {
                        [
                            $0.airport.iata ?? "-", $0.airport.icao, "\($0.airport.name), \($0.airport.countryCode)",
                            DistanceFormatter.humanReadable(metres: $0.distanceMetres),
                            "\($0.compassPoint.rawValue) (\(Int($0.bearingDegrees.rounded()) % 360)°)",
                        ]
                    }
                TravelOutput.aligned(rows).forEach { print($0) }
            }
        }
    }
}

/// `airports show --format json`: the airport, and our placemark of its spot in the one placemark shape.
struct AirportDetailJSON: Encodable {
    var airport: Airport
    var placemark: Placemark
}
