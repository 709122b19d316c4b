import Foundation
import Travel411Kit
import XCTest

/// Insert timings, printed rather than asserted (machines differ). Run in release:
/// `TRAVEL411_BENCHMARK=1 swift test -c release --filter Travel411KitTests.GeoPackageWriterBenchmarkTests`
final class GeoPackageWriterBenchmarkTests: XCTestCase {
    override func setUpWithError() throws {
        guard ProcessInfo.processInfo.environment["TRAVEL411_BENCHMARK"] == "1" else {
            throw XCTSkip("set TRAVEL411_BENCHMARK=1 to run the insert benchmark")
        }
    }

    func testInsertSpeed() throws {
        let directory = try makeTemporaryDirectory(self)
        var report: [String] = []
        func measure(_ label: String, _ body: () throws -> Void) rethrows {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            report.append("\(label): \(String(format: "%.3f", seconds)) s")
        }

        let points = syntheticPoints(count: 400_000)
        let polygons = syntheticPolygons(count: 12_500, verticesEach: 200)  // 2.5 M vertices

        try measure("whole import: 400k points + 2.5M polygon vertices, finish, sync, rename") {
            try AtomicFileReplacement.replace(directory.appendingPathComponent("all.gpkg")) { url in
                let writer = try GeoPackageWriter(database: SQLiteDatabase(path: url.path))
                let pointTable = try writer.createFeatureTable(
                    "places", geometryType: .point,
                    columns: [.text("name"), .integer("population"), .text("country")], description: "")
                try measure("  insert 200k points") {
                    for (index, point) in points.prefix(200_000).enumerated() {
                        try pointTable.insert(point, values: [.text("Place \(index)"), .integer(Int64(index)), .text("CH")])
                    }
                }
                try measure("  insert 200k more points") {
                    for (index, point) in points.dropFirst(200_000).enumerated() {
                        try pointTable.insert(point, values: [.text("Place \(index)"), .integer(Int64(index)), .text("CH")])
                    }
                }
                try measure("  R-tree for 400k points") { try pointTable.finish() }

                let polygonTable = try writer.createFeatureTable(
                    "areas", geometryType: .multiPolygon, columns: [.text("name")], description: "")
                try measure("  insert 1M polygon vertices (5,000 polygons)") {
                    for (index, polygon) in polygons.prefix(5_000).enumerated() {
                        try polygonTable.insert(polygon, values: [.text("Area \(index)")])
                    }
                }
                try measure("  insert 1.5M more polygon vertices") {
                    for (index, polygon) in polygons.dropFirst(5_000).enumerated() {
                        try polygonTable.insert(polygon, values: [.text("Area \(index)")])
                    }
                }
                try measure("  R-tree for 12,500 polygons, commit") { try writer.finish() }
            }
        }
        let size =
            (try? FileManager.default.attributesOfItem(atPath: directory.appendingPathComponent("all.gpkg").path)[.size] as? Int) ?? 0
        report.append("file size: \(size / 1_000_000) MB")
        print(report.map { "[benchmark] " + $0 }.joined(separator: "\n"))
    }

    /// Scattered over the globe by a fixed linear congruential sequence, so runs are comparable.
    private func syntheticPoints(count: Int) -> [Shape] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next() -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(state >> 11) / Double(1 << 53)
        }
        return (0..<count).map { _ in .point(Point2D(x: next() * 360 - 180, y: next() * 170 - 85)) }
    }

    /// Small circles on a grid, closed like shapefile rings.
    private func syntheticPolygons(count: Int, verticesEach: Int) -> [Shape] {
        (0..<count).map { index in
            let center = Point2D(x: Double(index % 180) * 2 - 179, y: Double(index / 180 % 85) * 2 - 84)
            var ring: Ring = (0..<(verticesEach - 1)).map { step in
                let angle = Double(step) / Double(verticesEach - 1) * 2 * .pi
                return Point2D(x: center.x + 0.9 * cos(angle), y: center.y + 0.9 * sin(angle))
            }
            ring.append(ring[0])
            return .polygon(Polygon(exterior: ring))
        }
    }
}
