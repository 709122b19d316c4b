import ArgumentParser
import Foundation
import Travel411Kit

struct WhereCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "where",
        abstract: "Turn a coordinate into a placemark: country, area, locality, street, time zone, water.",
        discussion: """
            Give LAT LON or "LAT,LON". Examples:
              travel411 where 51.47 -0.45
              travel411 where "51.5174,-0.1200" --format json
            """)

    @Argument(help: ArgumentHelp("Latitude and longitude in degrees, as two arguments or one \"LAT,LON\".", valueName: "coordinate"))
    var coordinate: [String] = []

    @OptionGroup var database: PlacesDatabaseOptions

    @Option(help: ArgumentHelp("Output: \(PlacemarkFormat.allCases.map(\.rawValue).joined(separator: "|")).", valueName: "FORMAT"))
    var format: String = "text"

    func parsedCoordinate() throws -> Coordinate {
        do {
            switch coordinate.count {
            case 1: return try Coordinate(parsingPair: coordinate[0])
            case 2: return try Coordinate(parsingLatitude: coordinate[0], longitude: coordinate[1])
            default: throw ValidationError("give one coordinate as LAT LON or \"LAT,LON\"")
            }
        } catch let error as CoordinateError {
            throw ValidationError(error.description)
        }
    }

    func validate() throws {
        guard PlacemarkFormat(rawValue: format) != nil else {
            throw ValidationError("--format must be one of \(PlacemarkFormat.allCases.map(\.rawValue).joined(separator: ", ")); got '\(format)'")
        }
        _ = try parsedCoordinate()
    }

    func run() throws {
        let point = try parsedCoordinate()
        let bar = ProgressBar()
        let geocoder: ReverseGeocoder
        do {
            geocoder = try PlacesDatabase.openGeocoder(explicitPath: database.databasePath, announce: Diagnostics.print, progress: bar.update)
            bar.finish()
        } catch {
            bar.finish()
            throw Diagnostics.fail(error)
        }
        let placemark = geocoder.placemark(for: point)
        print(PlacemarkFormatter.format(placemark, as: PlacemarkFormat(rawValue: format) ?? .text))
    }
}
