import Foundation
import Travel411Kit
import XCTest

/// Measures the batch pipeline alone (trivial geocoder) on a real file. Skipped unless
/// TRAVEL411_BENCH_INPUT names a CSV file; meant for release builds:
/// `TRAVEL411_BENCH_INPUT=pts.csv swift test -c release -Xswiftc -enable-testing --filter BatchThroughputTests`
final class BatchThroughputTests: XCTestCase {
    func testCSVToCSVThroughput() throws {
        let environment = ProcessInfo.processInfo.environment
        guard let inputPath = environment["TRAVEL411_BENCH_INPUT"] else {
            throw XCTSkip("set TRAVEL411_BENCH_INPUT to a CSV file to measure throughput")
        }
        let outputPath = environment["TRAVEL411_BENCH_OUTPUT"] ?? "/dev/null"
        let format = environment["TRAVEL411_BENCH_FORMAT"].flatMap(BatchFormat.init(rawValue:)) ?? .csv
        let jobs = environment["TRAVEL411_BENCH_JOBS"].flatMap(Int.init) ?? ProcessInfo.processInfo.activeProcessorCount
        // "minimal" fills one field (the I/O alone); the default fills five, as a real answer would.
        let minimal: @Sendable (Coordinate) -> Placemark = { coordinate in
            var placemark = Placemark(location: coordinate)
            placemark.country = coordinate.latitude >= 0 ? "N" : "S"
            return placemark
        }
        let realistic: @Sendable (Coordinate) -> Placemark = { coordinate in
            var placemark = Placemark(location: coordinate)
            placemark.country = coordinate.latitude >= 0 ? "Northland" : "Southland"
            placemark.isoCountryCode = coordinate.latitude >= 0 ? "NL" : "SL"
            placemark.timeZone = "Etc/UTC"
            placemark.nearestLocality = NearbyPlace(
                name: "Cranford", coordinate: coordinate, distanceMetres: abs(coordinate.longitude) * 1000, bearingDegrees: 45)
            return placemark
        }
        // "shared" answers with heap strings that every thread shares, as a real geocoder's tables
        // would: it shows whether borrowing them costs contended reference counting.
        let names = (0..<8).map { String(repeating: "Place name number \($0) ", count: 2) }
        let shared: @Sendable (Coordinate) -> Placemark = { coordinate in
            var placemark = Placemark(location: coordinate)
            let index = Int(abs(coordinate.longitude)) & 7
            placemark.country = names[index]
            placemark.administrativeArea = names[(index + 1) & 7]
            placemark.locality = names[(index + 2) & 7]
            placemark.timeZone = names[(index + 3) & 7]
            placemark.nearestLocality = NearbyPlace(
                name: names[(index + 4) & 7], coordinate: coordinate, distanceMetres: abs(coordinate.longitude) * 1000, bearingDegrees: 45)
            return placemark
        }
        let geocode: @Sendable (Coordinate) -> Placemark
        switch environment["TRAVEL411_BENCH_GEOCODE"] {
        case "minimal": geocode = minimal
        case "shared": geocode = shared
        default: geocode = realistic
        }
        let inputFD = open(inputPath, O_RDONLY)
        let outputFD = open(outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        XCTAssertGreaterThanOrEqual(inputFD, 0)
        XCTAssertGreaterThanOrEqual(outputFD, 0)
        defer {
            close(inputFD)
            close(outputFD)
        }
        let options = BatchOptions(outputFormat: format, jobs: jobs, showProgress: false, printsSummary: true)
        let summary = try BatchGeocoder(options: options, geocode: geocode).run(inputFD: inputFD, inputName: inputPath, outputFD: outputFD)
        var usage = rusage()
        #if os(Linux)
            getrusage(RUSAGE_SELF.rawValue, &usage)
            let peakKilobytes = usage.ru_maxrss
        #else
            getrusage(RUSAGE_SELF, &usage)
            let peakKilobytes = usage.ru_maxrss / 1024
        #endif
        print(
            "BENCH rows=\(summary.rows) errors=\(summary.errors) seconds=\(summary.seconds) rows_per_second=\(Int(summary.rowsPerSecond)) peak_rss_mb=\(peakKilobytes / 1024) jobs=\(jobs)"
        )
    }
}
