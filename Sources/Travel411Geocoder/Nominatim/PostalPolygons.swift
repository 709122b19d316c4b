import Travel411Core
import Travel411Store

/// The extracts' `boundary=postal_code` polygons (the `…_postcode_areas` layers, `OSMFeatureKind.postcodeBoundary`),
/// read when a place is given the postcode Nominatim 5.3 computes for it (GPL-2.0; its rules, not its code):
/// `get_nearest_postcode` (lib-sql/functions/utils.sql) takes the postcode polygons of the place's country covering
/// its point before any postcode computed from addresses (`ORDER BY osm_id is null`), the one whose centroid is
/// nearest first. The import ranks them so for the places it gives areas (`OSMPostcodeAreas.nearestPostcode`); a
/// place node answering without one (`ReverseGeocoder.postcodeOfPlaceNode`) asks here.
struct PostalPolygons: Sendable {
    /// A polygon covering the point asked about: its postcode as the extract writes it, and its bounding box.
    struct Covering: Equatable, Sendable {
        var writtenCode: String
        var box: BoundingBox
    }

    private struct Layer: Sendable {
        let table: String
        /// The layer's R-tree (`GeoPackageSchema.rtreeTableName`), nil for a layer without one.
        let rtree: String?
    }

    private let reader: SharedDatabaseReader
    private let layers: [Layer]

    /// The database's postcode polygon layers; none in a database of no extract or of an extract without them.
    static func open(from reader: SharedDatabaseReader) throws -> PostalPolygons {
        let names = Set(
            try reader.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0.first?.stringValue })
        let tables = try reader.query(
            "SELECT table_name FROM gpkg_contents WHERE table_name LIKE '%\\_postcode\\_areas' ESCAPE '\\'"
        ).compactMap { $0.first?.stringValue }
        let layers = try tables.compactMap { table -> Layer? in
            guard try reader.columnNames(of: table).isSuperset(of: ["postcode", GeoPackageSchema.geometryColumn]) else { return nil }
            let rtree = GeoPackageSchema.rtreeTableName(for: table)
            return Layer(table: table, rtree: names.contains(rtree) ? rtree : nil)
        }
        return PostalPolygons(reader: reader, layers: layers)
    }

    var isEmpty: Bool { layers.isEmpty }

    /// The polygons covering (x, y), in the layers' order; a row whose geometry does not decode is left out.
    func covering(x: Double, y: Double) -> [Covering] {
        var found: [Covering] = []
        for layer in layers {
            let table = GeoPackageSchema.quoted(layer.table), geometry = GeoPackageSchema.geometryColumn
            let rows: [[SQLValue]]
            if let rtree = layer.rtree {
                // SQLite's R-tree rounds each box outwards, so a polygon covering the point is among these.
                rows =
                    (try? reader.query(
                        """
                        SELECT p.postcode, p.\(geometry) FROM \(GeoPackageSchema.quoted(rtree)) r JOIN \(table) p ON p.fid = r.id
                        WHERE r.minx <= ? AND r.maxx >= ? AND r.miny <= ? AND r.maxy >= ? ORDER BY p.fid
                        """, [.real(x), .real(x), .real(y), .real(y)])) ?? []
            } else {
                rows = (try? reader.query("SELECT postcode, \(geometry) FROM \(table) ORDER BY fid")) ?? []
            }
            for row in rows {
                guard let code = row[0].stringValue, case .blob(let blob) = row[1],
                    let shape = try? GeoPackageGeometryCodec.decode(blob), shape.contains(x: x, y: y)
                else { continue }
                found.append(Covering(writtenCode: code, box: shape.boundingBox))
            }
        }
        return found
    }
}
