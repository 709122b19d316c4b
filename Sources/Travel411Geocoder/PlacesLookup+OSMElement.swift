import Travel411Core
import Travel411Store

/// The OpenStreetMap element behind a polygon of an area level, as its feature table records it.
struct OSMAreaElement: Sendable {
    var type: String
    var id: Int64
    /// The main tag's key and value: `boundary`/`administrative`, `place`/`suburb`, `landuse`/`residential`.
    var category: String
    var value: String
    var extent: BoundingBox?
    var isCapital: Bool
    /// A boundary's own `place` tag (Highspire's `borough`).
    var ownPlace: String?
    var adminLevel: Int?
    /// A boundary's `ISO3166-2` tag, upper case (`OSMAdministrativeBoundary.iso3166_2`).
    var subdivisionCode: String?
}

extension PlacesLookup {
    /// The OpenStreetMap element behind a polygon of an area level (a municipality's boundary relation, the
    /// place node a town's area was made from), read from its feature table; nil for a polygon from a
    /// shapefile or an unreadable row. Asked once per answer by a server, not by batches.
    func osmElement(ofArea level: PlacesSchema.AreaLevel, feature: Int) -> OSMAreaElement? {
        guard
            let row = try? reader.query(
                "SELECT layer, fid FROM travel411_areas WHERE level = ? AND feature = ?", [.text(level.rawValue), .integer(Int64(feature))]
            ).first, let layer = row[0].stringValue, let fid = row[1].int64Value
        else { return nil }
        let table = GeoPackageSchema.quoted(layer)
        let isPlace = layer.hasSuffix("_places")
        // A place's `capital` too (the places layer keeps it since lookup tables 24), a boundary's own `place` (33) and
        // `admin_level`.
        let columns = (try? reader.columnNames(of: layer)) ?? []
        let (ownPlace, adminLevel) = (!isPlace && columns.contains("place"), !isPlace && columns.contains("admin_level"))
        let subdivision = !isPlace && columns.contains("iso3166_2")
        // A named landuse area is a place row with its value in `landuse` (`OSMPlace.key`); older files have no such column.
        let landuse = isPlace && columns.contains("landuse")
        guard
            let first = try? reader.query(
                "SELECT osm_type, osm_id, \(isPlace ? "place, capital" : "'administrative', 0"), \(ownPlace ? "place" : "NULL"), "
                    + "\(adminLevel ? "admin_level" : "NULL"), \(landuse ? "landuse" : "NULL"), \(subdivision ? "iso3166_2" : "NULL") "
                    + "FROM \(table) WHERE fid = ?",
                [.integer(fid)]
            ).first, let type = first[0].stringValue, let id = first[1].int64Value
        else { return nil }
        // The envelope of the geometry's header, in doubles: the R-tree's is rounded outwards to floats, which
        // moved Liechtenstein's municipality boxes in the 7th decimal from Nominatim's.
        // 72 bytes: the fixed header and the largest envelope (XYZM).
        let header = try? reader.query("SELECT substr(geom, 1, 72) FROM \(table) WHERE fid = ?", [.integer(fid)]).first
        let extent =
            type == "node"
            ? nil
            : header.flatMap { values -> BoundingBox? in
                guard case .blob(let bytes) = values[0] else { return nil }
                return bytes.withUnsafeBytes { try? GeoPackageBlobHeader($0) }?.envelope
            }
        let landuseValue = first[6].stringValue
        return OSMAreaElement(
            type: type, id: id, category: landuseValue != nil ? "landuse" : isPlace ? "place" : "boundary",
            value: landuseValue ?? first[2].stringValue ?? "administrative", extent: extent, isCapital: first[3].int64Value == 1,
            ownPlace: first[4].stringValue, adminLevel: first[5].int64Value.map(Int.init),
            subdivisionCode: first[7].stringValue.flatMap { $0.isEmpty ? nil : $0 })
    }
}
