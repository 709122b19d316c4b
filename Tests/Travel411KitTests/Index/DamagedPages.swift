import Foundation
import Testing

@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// A database whose lookup pages are damaged after the import: the layer imported into a folder of its own,
/// one field answered at a point, then every page of one kind and level zeroed and the same asked again.
struct DamagedPages {
    var path: String
    var intact: String?
    var damaged: String?
    /// What `checkIndex()` said of the damaged database, nil when it said nothing.
    var report: String?

    static func run(
        importing layer: URL, zeroing kind: PlacesSchema.PageKind, level: Int64, at point: Coordinate, field: (Placemark) -> String?
    ) throws -> DamagedPages {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-damaged-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("places.gpkg").path
        _ = try Importer(options: ImportOptions(paths: [layer], databasePath: path)).run()

        let intact = try ReverseGeocoder(databasePath: path)
        let intactAnswer = field(intact.placemark(for: point))
        try intact.checkIndex()

        let database = try SQLiteDatabase(path: path, mode: .readWrite)
        let firstPage = kind.key(level: level, page: 0)
        try database.run(
            "UPDATE travel411_pages SET blob = zeroblob(20) WHERE key BETWEEN ? AND ?",
            [.integer(firstPage), .integer(firstPage + 1_000_000)])
        let damaged = try ReverseGeocoder(databasePath: path)
        let damagedAnswer = field(damaged.placemark(for: point))
        let error = #expect(throws: IndexFormatError.self) { try damaged.checkIndex() }
        return DamagedPages(path: path, intact: intactAnswer, damaged: damagedAnswer, report: error.map { "\($0)" })
    }
}
