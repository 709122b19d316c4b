import Foundation
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

// In-process measurements of single parts, which Scripts/bench's whole-process figures cannot separate:
// the batch pipeline without a geocoder, lookups on one core, and GeoPackage inserts. Each prints one
// line per figure and asserts nothing (machines differ). `Scripts/bench --parts` builds it in release
// and runs all three.

let usage = """
    Usage: travel411-bench pipeline INPUT.csv [--geocode minimal|realistic|shared] [--format FORMAT] [--jobs N]
           travel411-bench lookups --db PLACES.gpkg [--points N]
           travel411-bench geopackage [--folder DIR]

      pipeline    the batch pipeline on a real file with a trivial geocoder (the I/O and threads alone);
                  "minimal" fills one field, "realistic" (default) five, "shared" hands every thread
                  the same heap strings, as a real geocoder's tables would
      lookups     single lookups per second on one core, at points within 20 km of every 13th locality
      geopackage  inserts of 400,000 points and 2.5 million polygon vertices, their R-trees and commit
    """

struct BenchError: Error, CustomStringConvertible {
    var description: String
}

func option(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

func seconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
}

func peakMegabytes() -> Int {
    var usage = rusage()
    #if os(Linux)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return usage.ru_maxrss / 1024
    #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss / 1_048_576
    #endif
}

func runPipeline(_ arguments: [String]) throws {
    guard let inputPath = arguments.first, !inputPath.hasPrefix("--") else { throw BenchError(description: usage) }
    let format =
        try option("--format", in: arguments).map {
            guard let format = BatchFormat(rawValue: $0) else { throw BenchError(description: "unknown --format \($0)") }
            return format
        } ?? .csv
    let jobs = option("--jobs", in: arguments).flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount
    let names = (0..<8).map { String(repeating: "Place name number \($0) ", count: 2) }
    let geocode: @Sendable (Coordinate) -> Placemark
    switch option("--geocode", in: arguments) ?? "realistic" {
    case "minimal":
        geocode = { coordinate in
            var placemark = Placemark(location: coordinate)
            placemark.country = coordinate.latitude >= 0 ? "N" : "S"
            return placemark
        }
    case "realistic":
        geocode = { coordinate in
            var placemark = Placemark(location: coordinate)
            placemark.country = coordinate.latitude >= 0 ? "Northland" : "Southland"
            placemark.isoCountryCode = coordinate.latitude >= 0 ? "NL" : "SL"
            placemark.timeZone = "Etc/UTC"
            placemark.nearestLocality = NearbyPlace(
                name: "Cranford", coordinate: coordinate, distanceMetres: abs(coordinate.longitude) * 1000, bearingDegrees: 45)
            return placemark
        }
    case "shared":
        geocode = { coordinate in
            var placemark = Placemark(location: coordinate)
            let index = Int(abs(coordinate.longitude)) & 7
            placemark.country = names[index]
            placemark.administrativeArea = names[(index + 1) & 7]
            placemark.locality = names[(index + 2) & 7]
            placemark.timeZone = names[(index + 3) & 7]
            placemark.nearestLocality = NearbyPlace(
                name: names[(index + 4) & 7], coordinate: coordinate, distanceMetres: abs(coordinate.longitude) * 1000,
                bearingDegrees: 45)
            return placemark
        }
    case let other:
        throw BenchError(description: "unknown --geocode \(other): minimal, realistic or shared")
    }
    let inputFD = open(inputPath, O_RDONLY)
    guard inputFD >= 0 else { throw BenchError(description: "\(inputPath): cannot open it") }
    let outputFD = open("/dev/null", O_WRONLY)
    defer {
        close(inputFD)
        close(outputFD)
    }
    let options = BatchOptions(outputFormat: format, jobs: jobs, showProgress: false, printsSummary: false)
    let summary = try BatchGeocoder(options: options, geocode: geocode).run(inputFD: inputFD, inputName: inputPath, outputFD: outputFD)
    print(
        "pipeline: \(Int(summary.rowsPerSecond)) rows/s (\(summary.rows) rows, \(summary.errors) errors, "
            + "\(String(format: "%.2f", summary.seconds)) s, \(jobs) jobs, peak \(peakMegabytes()) MB)")
}

/// A fixed sequence, so that runs are comparable (SplitMix64).
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

func runLookups(_ arguments: [String]) throws {
    guard let path = option("--db", in: arguments) else { throw BenchError(description: usage) }
    let count = option("--points", in: arguments).flatMap(Int.init) ?? 600_000
    let geocoder = try ReverseGeocoder(databasePath: path, loading: .everything)
    let database = try SQLiteDatabase(path: path, mode: .readOnly)
    let anchors = try database.query("SELECT latitude, longitude FROM travel411_localities WHERE id % 13 = 0").compactMap {
        row -> Coordinate? in
        guard let latitude = row[0].doubleValue, let longitude = row[1].doubleValue else { return nil }
        return Coordinate(latitude: latitude, longitude: longitude)
    }
    guard !anchors.isEmpty else { throw BenchError(description: "\(path): no localities") }
    var generator = SeededGenerator(state: 42)
    let points = (0..<count).map { _ -> Coordinate in
        let anchor = anchors[Int(generator.next() % UInt64(anchors.count))]
        return GreatCircle.destination(from: anchor, distance: Double(generator.next() % 20_000), bearing: Double(generator.next() % 360))
    }
    var onLand = 0
    let elapsed = seconds {
        for point in points where geocoder.placemark(for: point).country != nil { onLand += 1 }
    }
    print("lookups: \(Int(Double(points.count) / elapsed)) per second on one core (\(onLand) of \(points.count) on land)")
}

func runGeoPackage(_ arguments: [String]) throws {
    let folder = URL(fileURLWithPath: option("--folder", in: arguments) ?? FileManager.default.temporaryDirectory.path)
        .appendingPathComponent("travel411-bench-\(getpid())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Double(state >> 11) / Double(1 << 53)
    }
    let points: [Shape] = (0..<400_000).map { _ in .point(Point2D(x: next() * 360 - 180, y: next() * 170 - 85)) }
    // Small circles of 200 vertices on a grid, closed like shapefile rings: 2.5 million vertices.
    let polygons: [Shape] = (0..<12_500).map { index in
        let center = Point2D(x: Double(index % 180) * 2 - 179, y: Double(index / 180 % 85) * 2 - 84)
        var ring: Ring = (0..<199).map { step in
            let angle = Double(step) / 199 * 2 * .pi
            return Point2D(x: center.x + 0.9 * cos(angle), y: center.y + 0.9 * sin(angle))
        }
        ring.append(ring[0])
        return .polygon(Polygon(exterior: ring))
    }
    var report: [String] = []
    let file = folder.appendingPathComponent("all.gpkg")
    let whole = try seconds {
        try AtomicFileReplacement.replace(file) { url in
            let writer = try GeoPackageWriter(database: SQLiteDatabase(path: url.path))
            let pointTable = try writer.createFeatureTable(
                "places", geometryType: .point, columns: [.text("name"), .integer("population"), .text("country")], description: "")
            let pointSeconds = try seconds {
                for (index, point) in points.enumerated() {
                    try pointTable.insert(point, values: [.text("Place \(index)"), .integer(Int64(index)), .text("CH")])
                }
            }
            report.append("geopackage: insert 400k points \(String(format: "%.3f", pointSeconds)) s")
            let pointTree = try seconds { try pointTable.finish() }
            report.append("geopackage: R-tree of 400k points \(String(format: "%.3f", pointTree)) s")
            let polygonTable = try writer.createFeatureTable(
                "areas", geometryType: .multiPolygon, columns: [.text("name")], description: "")
            let polygonSeconds = try seconds {
                for (index, polygon) in polygons.enumerated() { try polygonTable.insert(polygon, values: [.text("Area \(index)")]) }
            }
            report.append("geopackage: insert 2.5M polygon vertices (12,500 polygons) \(String(format: "%.3f", polygonSeconds)) s")
            let finish = try seconds { try writer.finish() }
            report.append("geopackage: R-tree of 12,500 polygons, commit \(String(format: "%.3f", finish)) s")
        }
    }
    let size = (try? FileManager.default.attributesOfItem(atPath: file.path)[.size] as? Int) ?? 0
    report.append("geopackage: whole, with sync and rename \(String(format: "%.3f", whole)) s; file \(size / 1_000_000) MB")
    print(report.joined(separator: "\n"))
}

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "pipeline": try runPipeline(Array(arguments.dropFirst()))
    case "lookups": try runLookups(Array(arguments.dropFirst()))
    case "geopackage": try runGeoPackage(Array(arguments.dropFirst()))
    case "-h", "--help": print(usage)
    default:
        FileHandle.standardError.write(Data((usage + "\n").utf8))
        exit(64)
    }
} catch {
    FileHandle.standardError.write(Data("travel411-bench: \(error)\n".utf8))
    exit(1)
}
