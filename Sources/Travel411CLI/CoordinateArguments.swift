import ArgumentParser
import Foundation
import Travel411Core

/// Turns the LAT LON texts of one argument or option into a coordinate, or a usage error: the one
/// coordinate parser of every command. "LAT,LON" as one text is accepted too.
package enum CoordinateArguments {
    /// `what` names the argument in messages ("--from: latitude 95 is outside [-90, 90]"); nil for a
    /// command's only coordinate.
    package static func coordinate(from values: [String], naming what: String?) throws -> Coordinate {
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
    package static func coordinates(from values: [String], naming what: String) throws -> [Coordinate] {
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
