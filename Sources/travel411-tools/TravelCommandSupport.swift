import ArgumentParser
import Foundation
import Travel411Answers
import Travel411CLI
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
