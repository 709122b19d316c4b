import Foundation
import XCTest

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// A deterministic stand-in for the real geocoder: the country says which hemisphere, and the
/// nearest "locality" is a fixed point, so computed fields (distance, bearing, description) vary.
let hemisphereGeocode: @Sendable (Coordinate) -> Placemark = { coordinate in
    var placemark = Placemark(location: coordinate)
    placemark.country = coordinate.latitude >= 0 ? "N" : "S"
    placemark.isoCountryCode = coordinate.longitude >= 0 ? "E" : "W"
    if abs(coordinate.latitude) < 60 {
        let origin = Coordinate(latitude: 51.47, longitude: -0.45)
        placemark.nearestLocality = NearbyPlace(
            name: "Cranford, \"Middlesex\"", coordinate: origin,
            distanceMetres: GreatCircle.distance(from: origin, to: coordinate),
            bearingDegrees: GreatCircle.initialBearing(from: origin, to: coordinate))
    }
    return placemark
}

struct BatchRun {
    var output: Data
    var summary: BatchSummary

    var text: String { String(decoding: output, as: UTF8.self) }
    var lines: [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init).dropLast(text.hasSuffix("\n") ? 1 : 0)
    }
}

/// Runs a batch from bytes in a temporary file named `name` (its extension picks the format).
func runBatch(
    _ input: Data, name: String = "input.csv", options: BatchOptions = BatchOptions(),
    blockSize: Int? = nil, geocode: @escaping @Sendable (Coordinate) -> Placemark = hemisphereGeocode
) throws -> BatchRun {
    try runBatch(input, name: name, options: options, blockSize: blockSize, printer: ClosurePlacemarkPrinter(geocode))
}

/// The same with any printer, such as the real geocoder.
func runBatch(
    _ input: Data, name: String = "input.csv", options: BatchOptions = BatchOptions(),
    blockSize: Int? = nil, printer: any PlacemarkPrinter
) throws -> BatchRun {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-batch-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let inputURL = directory.appendingPathComponent(name)
    let outputURL = directory.appendingPathComponent("output")
    try input.write(to: inputURL)
    _ = FileManager.default.createFile(atPath: outputURL.path, contents: nil)
    let inputFD = open(inputURL.path, O_RDONLY)
    let outputFD = open(outputURL.path, O_WRONLY | O_TRUNC)
    defer { close(inputFD) }
    var options = options
    options.printsSummary = false
    options.showProgress = false
    var geocoder = BatchGeocoder(options: options, printer: printer)
    if let blockSize { geocoder.blockSize = blockSize }
    let summary = try geocoder.run(inputFD: inputFD, inputName: name, outputFD: outputFD)
    close(outputFD)
    return BatchRun(output: try Data(contentsOf: outputURL), summary: summary)
}

func runBatch(_ input: String, name: String = "input.csv", options: BatchOptions = BatchOptions(), blockSize: Int? = nil) throws -> BatchRun
{
    try runBatch(Data(input.utf8), name: name, options: options, blockSize: blockSize)
}

/// Parses CSV the simple, slow, obviously-correct way, to check the fast writer's output.
func parseCSV(_ text: String, delimiter: Character = ",") -> [[String]] {
    var rows: [[String]] = []
    var row: [String] = []
    var field = ""
    var inQuotes = false
    var characters = Array(text)
    if characters.last != "\n" { characters.append("\n") }
    var index = 0
    while index < characters.count {
        let character = characters[index]
        if inQuotes {
            if character == "\"" {
                if index + 1 < characters.count && characters[index + 1] == "\"" {
                    field.append("\"")
                    index += 1
                } else {
                    inQuotes = false
                }
            } else {
                field.append(character)
            }
        } else if character == "\"" {
            inQuotes = true
        } else if character == delimiter {
            row.append(field)
            field = ""
        } else if character == "\n" || character == "\r\n" {
            row.append(field)
            rows.append(row)
            row = []
            field = ""
        } else {
            field.append(character)
        }
        index += 1
    }
    return rows
}

/// Runs python3 on a script with `path` as its argument; nil when python3 is absent.
func runPython(_ script: String, path: String) throws -> (status: Int32, output: String)? {
    guard let python = ["/usr/bin/python3", "/usr/local/bin/python3"].first(where: FileManager.default.isExecutableFile) else { return nil }
    return try runTool(python, ["-c", script, path])
}

func runTool(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: data, as: UTF8.self))
}

func writeTemporary(_ data: Data, name: String) throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-\(UUID().uuidString)-\(name)")
    try data.write(to: url)
    return url
}
