import Foundation

/// Reads the airportsdata CSV layout: a header row naming the columns, then one airport a line.
/// Fields may be quoted, and quoted fields may hold commas and doubled quotes.
enum AirportsCSV {
    struct Malformed: Error, LocalizedError {
        let file: String
        let line: Int
        let reason: String
        var errorDescription: String? { "\(file), line \(line): \(reason)" }
    }

    static func parse(_ text: String, file: String) throws -> [Airport] {
        var lines = text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" }).makeIterator()
        guard let headerLine = lines.next() else { throw Malformed(file: file, line: 1, reason: "the file is empty") }
        let header = fields(of: headerLine)
        func column(_ name: String) throws -> Int {
            guard let index = header.firstIndex(of: name) else {
                throw Malformed(file: file, line: 1, reason: "no '\(name)' column")
            }
            return index
        }
        let icao = try column("icao"), iata = try column("iata"), name = try column("name")
        let city = try column("city"), subdivision = try column("subd"), country = try column("country")
        let elevation = try column("elevation"), latitude = try column("lat"), longitude = try column("lon")
        let timeZone = try column("tz")
        let localIdentifier = header.firstIndex(of: "lid")

        var airports: [Airport] = []
        airports.reserveCapacity(30_000)
        var lineNumber = 1
        while let line = lines.next() {
            lineNumber += 1
            let row = fields(of: line)
            guard row.count == header.count else {
                throw Malformed(file: file, line: lineNumber, reason: "expected \(header.count) fields, found \(row.count)")
            }
            guard let lat = Double(row[latitude]), let lon = Double(row[longitude]),
                  let coordinate = try? Coordinate(validatingLatitude: lat, longitude: lon) else {
                throw Malformed(file: file, line: lineNumber, reason: "bad coordinates '\(row[latitude])', '\(row[longitude])'")
            }
            airports.append(Airport(
                icao: row[icao], iata: row[iata].isEmpty ? nil : row[iata], name: row[name], city: row[city],
                subdivision: row[subdivision], countryCode: row[country], elevationFeet: Double(row[elevation]),
                coordinate: coordinate, timeZone: row[timeZone],
                localIdentifier: localIdentifier.flatMap { row[$0].isEmpty ? nil : row[$0] }))
        }
        return airports
    }

    /// Splits one CSV line into its fields, unquoting as it goes.
    static func fields(of line: Substring) -> [String] {
        var fields: [String] = []
        var field = ""
        var inQuotes = false
        var iterator = line.makeIterator()
        var pending = iterator.next()
        while let character = pending {
            pending = iterator.next()
            if inQuotes {
                if character == "\"" {
                    if pending == "\"" { field.append("\""); pending = iterator.next() } else { inQuotes = false }
                } else {
                    field.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == "," {
                fields.append(field)
                field = ""
            } else if character != "\r" {
                field.append(character)
            }
        }
        fields.append(field)
        return fields
    }
}
