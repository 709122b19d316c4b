import ArgumentParser
import Foundation
import Travel411Answers
import Travel411Core
import Travel411Guide

/// `--state` and `--db`, shared by the travel commands.
struct TravelStateOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "The travel state file (default: $TRAVEL411_STATE, else $XDG_DATA_HOME/travel411/travel.sqlite).",
            valueName: "file"))
    var state: String?

    @OptionGroup var database: PlacesDatabaseOptions

    var db: String? { database.databasePath }

    /// Opens the state file; `$TRAVEL411_BUSY_TIMEOUT_MS` changes how long to wait for another writer.
    func openStore(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> TravelStore {
        let path = try TravelStateLocation.prepare(explicitPath: state, placesDatabasePath: db, environment: environment)
        let timeout = environment["TRAVEL411_BUSY_TIMEOUT_MS"].flatMap { Int32($0) } ?? TravelStore.defaultBusyTimeoutMilliseconds
        return try TravelStore(path: path, busyTimeoutMilliseconds: max(0, timeout))
    }

    /// The places database, built from Data/ on first use with progress on stderr.
    func places() -> PlacesSource { database.places() }
}

/// `--format text|json`.
enum TravelOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
}

enum TravelOutput {
    static func printJSON<Value: Encodable>(_ value: Value) throws {
        print(try JSONDocumentFormatter<Value>().format(value))
    }

    /// Rows padded into columns separated by two spaces, without trailing spaces.
    static func aligned(_ rows: [[String]], indent: String = "") -> [String] {
        let columnCount: Int = rows.map(\.count).max() ?? 0
        let widths: [Int] = (0..<columnCount).map { (column: Int) -> Int in
            rows.map { (row: [String]) -> Int in column < row.count ? row[column].count : 0 }.max() ?? 0
        }
        return rows.map { (row: [String]) -> String in
            let cells: [String] = row.enumerated().map { (column: Int, cell: String) -> String in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }
            let line = indent + cells.joined(separator: "  ")
            return String(line.reversed().drop(while: { $0 == " " }).reversed())
        }
    }

    /// Degrees rounded to six decimals (about 10 cm), as text without trailing zeros.
    static func degrees(_ value: Double) -> String {
        // Fixed-point, so that 0.00001 never prints as "1e-05".
        var text = String(format: "%.6f", value.roundedToMicrodegrees)
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text == "-0" ? "0" : text
    }

    static func coordinate(_ coordinate: Coordinate) -> String {
        "\(degrees(coordinate.latitude)), \(degrees(coordinate.longitude))"
    }
}

/// Turns the LAT LON texts of one argument or option into a coordinate, or a usage error: the one
/// coordinate parser of every command. "LAT,LON" as one text is accepted too.
enum CoordinateArguments {
    /// `what` names the argument in messages ("--from: latitude 95 is outside [-90, 90]"); nil for a
    /// command's only coordinate.
    static func coordinate(from values: [String], naming what: String?) throws -> Coordinate {
        let parts = split(values)
        let prefix = what.map { "\($0): " } ?? ""
        guard parts.count == 2 else {
            if values.count == 1, values[0].contains(",") {
                throw ValidationError(prefix + CoordinateError.notAPair(DisplayText.sanitized(values[0], limit: 60)).description)
            }
            let got = values.isEmpty ? "nothing" : "'\(DisplayText.sanitized(values.joined(separator: " "), limit: 60))'"
            throw ValidationError("\(what ?? "the coordinate") needs a latitude and a longitude, e.g. 51.5010 -0.1919; got \(got)")
        }
        do {
            return try Coordinate(parsingLatitude: parts[0], longitude: parts[1])
        } catch let error as CoordinateError {
            throw ValidationError(prefix + error.description)
        }
    }

    /// Any number of LAT LON pairs.
    static func coordinates(from values: [String], naming what: String) throws -> [Coordinate] {
        let parts = split(values)
        guard parts.count % 2 == 0 else {
            throw ValidationError(
                "\(what) takes pairs of latitude and longitude; '\(values.joined(separator: " "))' has an odd number of values")
        }
        return try stride(from: 0, to: parts.count, by: 2).map {
            try coordinate(from: [parts[$0], parts[$0 + 1]], naming: what)
        }
    }

    private static func split(_ values: [String]) -> [String] {
        values.flatMap { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
    }
}
