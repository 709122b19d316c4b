import ArgumentParser
import Foundation
import Travel411Kit

/// `--state` and `--db`, shared by the travel commands.
struct TravelStateOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The travel state file (default: $TRAVEL411_STATE, else $XDG_DATA_HOME/travel411/travel.sqlite).",
        valueName: "file"))
    var state: String?

    @Option(name: .long, help: ArgumentHelp(
        "The places database used for place names (default: $TRAVEL411_DB, else $XDG_DATA_HOME/travel411/places.gpkg).",
        valueName: "file"))
    var db: String?

    /// Opens the state file; `$TRAVEL411_BUSY_TIMEOUT_MS` changes how long to wait for another writer.
    func openStore(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TravelStore {
        let path = try TravelStateLocation.prepare(explicitPath: state, placesDatabasePath: db, environment: environment)
        let timeout = environment["TRAVEL411_BUSY_TIMEOUT_MS"].flatMap { Int32($0) } ?? TravelStore.defaultBusyTimeoutMilliseconds
        return try TravelStore(path: path, busyTimeoutMilliseconds: max(0, timeout))
    }

    /// The places database, built from Data/ on first use with progress on stderr.
    func places() -> PlacesSource {
        let bar = ProgressBar()
        return TravelGuide.places(explicitPath: db, announce: Diagnostics.print, progress: bar.update, finished: bar.finish)
    }
}

/// `--format text|json`.
enum TravelOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

enum TravelOutput {
    static func printJSON<Value: Encodable>(_ value: Value) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = try encoder.encode(value)
        print(String(decoding: data, as: UTF8.self))
    }

    /// "travel411: warning: …" on stderr, so that stdout stays clean for scripts.
    static func warn(_ message: String) {
        FileHandle.standardError.write(Data("travel411: warning: \(message)\n".utf8))
    }

    /// Rows padded into columns separated by two spaces, without trailing spaces.
    static func aligned(_ rows: [[String]], indent: String = "") -> [String] {
        let columnCount = rows.map(\.count).max() ?? 0
        let widths = (0..<columnCount).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        return rows.map { row in
            let cells = row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            let line = indent + cells.joined(separator: "  ")
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// Degrees rounded to six decimals (about 10 cm), as text without trailing zeros.
    static func degrees(_ value: Double) -> String {
        // Fixed-point, so that 0.00001 never prints as "1e-05".
        var text = String(format: "%.6f", rounded6(value))
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func rounded6(_ value: Double) -> Double { (value * 1_000_000).rounded() / 1_000_000 }

    static func coordinate(_ coordinate: Coordinate) -> String {
        "\(degrees(coordinate.latitude)), \(degrees(coordinate.longitude))"
    }
}

/// Turns the LAT LON texts of one argument or option into a coordinate, or a usage error.
/// "LAT,LON" as one text is accepted too.
enum CoordinateArguments {
    static func coordinate(from values: [String], naming what: String) throws -> Coordinate {
        let parts = split(values)
        guard parts.count == 2 else {
            throw ValidationError("\(what) needs a latitude and a longitude, e.g. 51.5010 -0.1919; got \(values.count == 0 ? "nothing" : "'\(values.joined(separator: " "))'")")
        }
        do {
            return try Coordinate(parsingLatitude: parts[0], longitude: parts[1])
        } catch {
            throw ValidationError("\(what): \(error.localizedDescription)")
        }
    }

    /// Any number of LAT LON pairs.
    static func coordinates(from values: [String], naming what: String) throws -> [Coordinate] {
        let parts = split(values)
        guard parts.count % 2 == 0 else {
            throw ValidationError("\(what) takes pairs of latitude and longitude; '\(values.joined(separator: " "))' has an odd number of values")
        }
        return try stride(from: 0, to: parts.count, by: 2).map {
            try coordinate(from: [parts[$0], parts[$0 + 1]], naming: what)
        }
    }

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}

/// The JSON shape of one pin.
struct PinJSON: Encodable {
    var kind: String
    var colour: String
    var title: String
    var subtitle: String?
    var latitude: Double
    var longitude: Double
    var movable: Bool

    init(_ pin: MapPin) {
        kind = pin.kind.rawValue
        colour = pin.colour.rawValue
        title = pin.title
        subtitle = pin.subtitle
        latitude = pin.coordinate.latitude
        longitude = pin.coordinate.longitude
        movable = pin.kind.isMovable
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(kind, forKey: .kind)
        try container.encode(colour, forKey: .colour)
        try container.encode(title, forKey: .title)
        // Present as null rather than missing, so every pin has the same keys.
        try container.encode(subtitle, forKey: .subtitle)
        try container.encode(latitude, forKey: .latitude)
        try container.encode(longitude, forKey: .longitude)
        try container.encode(movable, forKey: .movable)
    }

    enum CodingKeys: String, CodingKey { case kind, colour, title, subtitle, latitude, longitude, movable }
}

/// The JSON shape of a named place with its position.
struct PlaceJSON: Encodable {
    var name: String
    var latitude: Double
    var longitude: Double

    init(_ city: DestinationCity) {
        name = city.name
        latitude = city.coordinate.latitude
        longitude = city.coordinate.longitude
    }

    init(name: String, coordinate: Coordinate) {
        self.name = name
        latitude = coordinate.latitude
        longitude = coordinate.longitude
    }
}

extension Double {
    /// Metres and degrees in JSON output: a tenth is finer than any of them is known.
    var roundedToTenths: Double { (self * 10).rounded() / 10 }
}
