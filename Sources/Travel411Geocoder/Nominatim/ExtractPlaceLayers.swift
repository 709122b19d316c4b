import Travel411Core
import Travel411Store

/// The extracts' place layers as the place-node windows read them (`FinePlaceNodes`, `NeighbourhoodNodes`), and the
/// tables their conditions use, found once when a lookup first asks for such nodes.
struct ExtractPlaceLayers: Sendable {
    struct Layer: Sendable {
        let table: String
        let columns: Set<String>
        /// The layer's R-tree (`GeoPackageSchema.rtreeTableName`), nil for a layer without one.
        let rtree: String?

        /// The `FROM` clause, the condition (ending in `AND`, or empty) and its values of a query of the layer, aliased
        /// `p`, reading the rows of the R-tree within `box`, else the whole layer (each node is then kept or not by its
        /// cell, `PlaceNodeCellWindow.holds`).
        func rows(in box: BoundingBox) -> (from: String, condition: String, values: [SQLValue]) {
            let quoted = GeoPackageSchema.quoted(table)
            guard let rtree else { return ("\(quoted) p", "", []) }
            return (
                "\(GeoPackageSchema.quoted(rtree)) r JOIN \(quoted) p ON p.fid = r.id",
                "r.maxx >= ? AND r.minx <= ? AND r.maxy >= ? AND r.miny <= ? AND ",
                [.real(box.minX), .real(box.maxX), .real(box.minY), .real(box.maxY)]
            )
        }
    }

    let reader: SharedDatabaseReader
    let layers: [Layer]
    /// Whether the database lists the nodes boundaries link to (`LinkedPlaceNodesSchema`), which are then not here.
    let linksKnown: Bool
    /// Whether `travel411_areas` is there, and indexed by element (`PlacesSchema.areaElementIndexStatement`).
    let areasKnown: Bool
    let areasIndexedByElement: Bool

    init(reader: SharedDatabaseReader) throws {
        self.reader = reader
        linksKnown = try LinkedPlaceNodesSchema.isPresent(in: reader)
        let names = Set(
            try reader.query("SELECT name FROM sqlite_master WHERE type IN ('table', 'index')").compactMap { $0.first?.stringValue })
        areasKnown = names.contains("travel411_areas")
        areasIndexedByElement = names.contains(PlacesSchema.areaElementIndexName)
        layers = try Self.tables(reader).map { table in
            let rtree = GeoPackageSchema.rtreeTableName(for: table)
            return Layer(table: table, columns: try reader.columnNames(of: table), rtree: names.contains(rtree) ? rtree : nil)
        }
    }

    /// The layers with elements and a `place` column (`OSMExtractImport`).
    private static func tables(_ reader: SharedDatabaseReader) throws -> [String] {
        let layers = try reader.query("SELECT table_name FROM gpkg_contents WHERE table_name LIKE '%\\_places' ESCAPE '\\'")
        return try layers.compactMap { row in
            guard let layer = row[0].stringValue,
                try reader.query(
                    "SELECT count(*) FROM pragma_table_info(?) WHERE name IN ('osm_type', 'osm_id', 'place')", [.text(layer)]
                ).first?.first?.int64Value == 3
            else { return nil }
            return layer
        }
    }
}
