import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The place nodes behind the city and suburb levels' areas (`OSMPlaceNodeAreas`), read back from the areas
/// just stored and kept by tile (`PlaceNodePages`) for Nominatim's place-node searches (`PlaceNodeSearch`).
enum OSMPlaceNodePages {
    static let levels: [PlacesSchema.AreaLevel] = [.suburb, .city]

    /// The nodes of a level's areas made from an extract's place nodes, as `travel411_areas` holds them (their kind,
    /// centre, municipality and, in `code`, the boundary their area was cut to).
    static func nodes(_ areaLevel: PlacesSchema.AreaLevel, in database: SQLiteDatabase) throws -> [PlaceNode] {
        let level = areaLevel.rawValue
        let layers = try database.query(
            "SELECT DISTINCT layer FROM travel411_areas WHERE level = ? AND place_type IS NOT NULL AND centre IS NOT NULL", [.text(level)])
        var nodes: [PlaceNode] = []
        for row in layers {
            // A shapefile's place layer has no elements: its areas are no nodes of an extract.
            guard let layer = row[0].stringValue else { continue }
            let columns = try database.columnNames(of: layer)
            guard columns.contains("osm_type") else { continue }
            // A boundaries layer has no `capital` column: its nodes are no capitals.
            let capital = columns.contains("capital") ? "p.capital" : "0"
            let rows = try database.query(
                """
                SELECT a.feature, a.place_type, a.centre, a.municipality, a.code, \(capital) FROM travel411_areas a
                JOIN \(GeoPackageSchema.quoted(layer)) p ON p.fid = a.fid
                WHERE a.level = ? AND a.layer = ? AND p.osm_type = 'node'
                """, [.text(level), .text(layer)])
            for row in rows {
                // A capital's rank is one step more important, and its reach the rank's (Gibraltar's town node).
                guard let feature = row[0].int64Value, let type = row[1].stringValue,
                    let rank = NominatimPlaceKinds.nodeRank(type: type, isCapital: row[5].int64Value == 1),
                    let centre = row[2].stringValue?.split(separator: " ").compactMap({ Double($0) }), centre.count == 2
                else { continue }
                nodes.append(
                    PlaceNode(
                        feature: Int32(truncatingIfNeeded: feature), x: centre[0], y: centre[1], rank: rank,
                        municipality: row[3].int64Value.map { Int32(truncatingIfNeeded: $0) } ?? -1,
                        isVillage: type == "village" || type == "town",
                        boundaryBelow: row[4].stringValue.flatMap { Int32($0) } ?? -1))
            }
        }
        return nodes
    }

    /// Every level's pages, given to `store` as (key, page).
    static func store(from database: SQLiteDatabase, _ store: (Int64, [UInt8]) throws -> Void) throws {
        for level in levels {
            let pages = PlaceNodePages.pages(of: try nodes(level, in: database))
            for page in pages.tiles {
                try store(PlacesSchema.PageKind.placeNodeTiles.key(level: level.ordinal, page: page.number), page.blob)
            }
            for page in pages.features {
                try store(PlacesSchema.PageKind.placeNodeFeatures.key(level: level.ordinal, page: page.number), page.blob)
            }
        }
    }
}
