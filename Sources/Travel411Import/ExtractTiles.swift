import Foundation
import Travel411Core
import Travel411Store

/// The 0.1° tiles (numbered as `TileGrid` numbers them: row × 3600 + column) where an import's extracts have
/// data: where Nominatim's rules answer (`DataTiles`, `OSMAnswerRules.covers`) and other layers' streets are
/// not searched.
enum ExtractTiles {
    /// The tiles of the extracts' points and lines (streets, addresses, POIs, places, postcode points), and those
    /// inside their boundaries: a point far from any road of a country's extract is still in its municipality,
    /// which Nominatim answers. A boundary's box is not used: a Norway extract's box holds Helsinki.
    static func data(of layers: [ImportedLayer], in database: SQLiteDatabase) throws -> Set<UInt32> {
        let pointsAndLines: Set<PlaceLevel> = [.thoroughfare, .address, .poi, .locality, .postcode]
        var tiles = try touched(by: layers.filter { pointsAndLines.contains($0.level) }.map(\.table), in: database)
        tiles.formUnion(try inside(polygonsOf: layers.filter { $0.level == .admin }.map(\.table), in: database))
        return tiles
    }

    /// The tiles that the features' boxes of `tables` touch, from their R-trees, read a row at a time: the rows of
    /// 2,400 copies of Liechtenstein, held at once, made 0.4 GB.
    static func touched(by tables: [String], in database: SQLiteDatabase) throws -> Set<UInt32> {
        var tiles = Set<UInt32>()
        for table in tables {
            let rtree = GeoPackageSchema.quoted(GeoPackageSchema.rtreeTableName(for: table))
            let boxes = try database.prepare("SELECT minx, miny, maxx, maxy FROM \(rtree)")
            while try boxes.step() {
                guard !(Int32(0)..<4).contains(where: boxes.isNull) else { continue }
                let (minX, minY, maxX, maxY) = (boxes.double(0), boxes.double(1), boxes.double(2), boxes.double(3))
                let (rows, columns) = TileGrid.tiles(touching: BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY))
                for tileRow in rows {
                    for column in columns { tiles.insert(TileGrid.tileKey(row: tileRow, column: column)) }
                }
            }
        }
        return tiles
    }

    /// The tiles whose middle latitude crosses the inside of a polygon of `tables` (even-odd over its rings). A
    /// sliver between two middles is missed; `DataTiles` adds every tile's neighbours. Each edge gives its
    /// crossings of the middles it spans, so a country's coastline of a million vertices is read once, not once
    /// per row.
    static func inside(polygonsOf tables: [String], in database: SQLiteDatabase) throws -> Set<UInt32> {
        var tiles = Set<UInt32>()
        let reader = try GeoPackageReader(database: database)
        for table in tables {
            for row in try database.query("SELECT fid FROM \(GeoPackageSchema.quoted(table))") {
                guard let fid = row.first?.int64Value, let shape = try reader.geometry(table: table, fid: fid) else { continue }
                var crossings: [Int: [Double]] = [:]
                for ring in shape.rings where ring.count > 1 {
                    for index in ring.indices {
                        let a = ring[index], b = ring[index + 1 < ring.count ? index + 1 : 0]
                        guard a.y != b.y else { continue }
                        // The middles y with (a.y > y) != (b.y > y): low <= y < high.
                        let low = min(a.y, b.y), high = max(a.y, b.y)
                        var tileRow = max(0, Int(((low + 90) / TileGrid.tileDegrees - 0.5).rounded(.up)))
                        while tileRow < 1800 {
                            let y = (Double(tileRow) + 0.5) * TileGrid.tileDegrees - 90
                            if y >= high { break }
                            if y >= low { crossings[tileRow, default: []].append(a.x + (y - a.y) * (b.x - a.x) / (b.y - a.y)) }
                            tileRow += 1
                        }
                    }
                }
                for (tileRow, var xs) in crossings {
                    xs.sort()
                    for pair in stride(from: 0, to: xs.count - 1, by: 2) {
                        for column in TileGrid.tileColumn(xs[pair])...TileGrid.tileColumn(xs[pair + 1]) {
                            tiles.insert(TileGrid.tileKey(row: tileRow, column: column))
                        }
                    }
                }
            }
        }
        return tiles
    }
}
