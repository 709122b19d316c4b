import Foundation
import Travel411Core
import Travel411Store

/// Where the extracts' rules hold (`OSMAnswerRules.coverage`): the extent of the extracts' tables, one box per
/// extract file. Several files read as one (`import liechtenstein.osm.pbf malta.osm.pbf`) give one box each, so
/// that the space between them (Chur, between Liechtenstein and Malta) answers as with either extract alone, not
/// by the extracts' rules; one file keeps its tables' extent as it always had.
struct ExtractCoverage {
    /// The extracts' tables of their own data (not the country grid's pieces, which reach far beyond them).
    var tables: [String]
    /// What their layers that were not written (`--layers lookups`) covered.
    var unwritten: BoundingBox
    /// Each file's extent of node locations, in the order read (`OSMReadSummary.fileExtents`).
    var fileExtents: [BoundingBox?]

    func boxes(in database: SQLiteDatabase) throws -> [BoundingBox] {
        guard let whole = try extent(in: database, within: nil) else { return [] }
        // A file's nodes reach beyond its features (the untagged ways an extract keeps whole across its edge:
        // Liechtenstein's reach 46.8 N, its streets 47.05 N), so each file's box is the extent of the features
        // its nodes' extent meets, cut to that extent: what its tables' extent would be alone.
        return try Self.eachFile(whole, fileExtents: fileExtents) { try extent(in: database, within: $0) }
    }

    /// `whole` for one file; for several read as one, each file's `extent(nodes)` cut to its nodes' extent (those
    /// that are not empty), else `whole`.
    static func eachFile(
        _ whole: BoundingBox, fileExtents: [BoundingBox?], extent: (_ nodes: BoundingBox) throws -> BoundingBox?
    ) rethrows -> [BoundingBox] {
        guard fileExtents.count > 1 else { return [whole] }
        let boxes = try fileExtents.compactMap { nodes -> BoundingBox? in
            guard let nodes, let box = try extent(nodes)?.intersection(nodes), !box.isEmpty else { return nil }
            return box
        }
        return boxes.isEmpty ? [whole] : boxes
    }

    /// The extent of the tables' features (those meeting `within`, when given: from their R-trees; else the tables'
    /// own extents in gpkg_contents), with the unwritten layers'; nil when there is none.
    private func extent(in database: SQLiteDatabase, within: BoundingBox?) throws -> BoundingBox? {
        var extent = within.map { unwritten.intersection($0) } ?? unwritten
        if extent.isEmpty { extent = .empty }
        for table in tables {
            let row: [SQLValue]?
            if let within {
                let rtree = GeoPackageSchema.rtreeTableName(for: table)
                guard try database.tableExists(rtree) else { continue }
                row = try database.query(
                    """
                    SELECT min(minx), min(miny), max(maxx), max(maxy) FROM "\(rtree)"
                    WHERE maxx >= ? AND minx <= ? AND maxy >= ? AND miny <= ?
                    """,
                    [.real(within.minX), .real(within.maxX), .real(within.minY), .real(within.maxY)]
                ).first
            } else {
                row = try database.query(
                    "SELECT min_x, min_y, max_x, max_y FROM gpkg_contents WHERE table_name = ?", [.text(table)]
                ).first
            }
            guard let row, let minX = row[0].doubleValue, let minY = row[1].doubleValue, let maxX = row[2].doubleValue,
                let maxY = row[3].doubleValue
            else { continue }
            extent.extend(x: minX, y: minY)
            extent.extend(x: maxX, y: maxY)
        }
        return extent.isEmpty ? nil : extent
    }
}
