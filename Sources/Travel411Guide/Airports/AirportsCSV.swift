import Foundation
import Travel411Core
import Travel411Store

/// Reads the airportsdata CSV layout: a header row naming the columns, then one airport a line.
/// Fields may be quoted, and quoted fields may hold commas and doubled quotes.
enum AirportsCSV {
    struct Malformed: Travel411Error {
        let file: String
        let line: Int
        let reason: String
        var description: String { "\(file), line \(line): \(reason)" }
        var exitStatus: ExitStatus { .dataError }
    }

    static func parse(_ text: String, file: String) throws -> [Airport] {
        var records = self.records(in: Array(text.utf8)).makeIterator()
        guard let header = records.next() else { throw Malformed(file: file, line: 1, reason: "the file is empty") }
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
        while let row = records.next() {
            lineNumber += 1
            guard row.count == header.count else {
                throw Malformed(file: file, line: lineNumber, reason: "expected \(header.count) fields, found \(row.count)")
            }
            guard let lat = Double(row[latitude]), let lon = Double(row[longitude]),
                let coordinate = try? Coordinate(validatingLatitude: lat, longitude: lon)
            else {
                throw Malformed(file: file, line: lineNumber, reason: "bad coordinates '\(row[latitude])', '\(row[longitude])'")
            }
            airports.append(
                Airport(
                    icao: row[icao], iata: row[iata].isEmpty ? nil : row[iata], name: row[name], city: row[city],
                    subdivision: row[subdivision], countryCode: row[country], elevationFeet: Double(row[elevation]),
                    coordinate: coordinate, timeZone: row[timeZone],
                    localIdentifier: localIdentifier.flatMap { row[$0].isEmpty ? nil : row[$0] }))
        }
        return airports
    }

    /// Splits CSV bytes into records of unquoted fields, skipping blank lines. Works on bytes
    /// because the catalogue is parsed on every run and Character iteration is slow; the
    /// delimiters are ASCII, so UTF-8 text inside fields passes through untouched.
    static func records(in bytes: [UInt8]) -> [[String]] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), newline = UInt8(ascii: "\n"), cr = UInt8(ascii: "\r")
        var records: [[String]] = []
        var fields: [String] = []
        var field: [UInt8] = []
        var inQuotes = false
        var index = 0
        func endRecord() {
            fields.append(String(decoding: field, as: UTF8.self))
            field.removeAll(keepingCapacity: true)
            if !(fields.count == 1 && fields[0].isEmpty) { records.append(fields) }
            fields.removeAll(keepingCapacity: true)
        }
        while index < bytes.count {
            let byte = bytes[index]
            index += 1
            if inQuotes {
                if byte == quote {
                    if index < bytes.count && bytes[index] == quote {
                        field.append(quote)
                        index += 1
                    } else {
                        inQuotes = false
                    }
                } else {
                    field.append(byte)
                }
            } else if byte == quote {
                inQuotes = true
            } else if byte == comma {
                fields.append(String(decoding: field, as: UTF8.self))
                field.removeAll(keepingCapacity: true)
            } else if byte == newline {
                endRecord()
            } else if byte != cr {
                field.append(byte)
            }
        }
        if !field.isEmpty || !fields.isEmpty { endRecord() }
        return records
    }
}
