import Foundation
import Travel411Core
import Travel411Shapefile
import Travel411Store
import Travel411StoreWriters

/// The pieces of Nominatim's country grid (`NominatimCountryGrid`) around an extract, in a table of their own
/// beside the extract's, so that its countries are found as Nominatim finds them where the extract holds no
/// country boundary: after the extract's own `admin_level=2` polygons, before Natural Earth's (the area index
/// answers the first polygon in import order; `collect(into:)`). The embedded database, without an extract,
/// keeps Natural Earth's countries.
struct OSMCountryGridLayer {
    let table: String
    /// Each piece and its fid in `table`.
    let pieces: [(piece: NominatimCountryGrid.Piece, fid: Int64)]
    let seconds: Double
    let file: URL

    /// How the table's description begins: `import --append` reads the grid again with the extracts, not as a source.
    static let descriptionPrefix = PlacesSchema.countryGridDescription

    /// Writes the pieces meeting any of `boxes` into a table named after `stem`; nil without embedded data or pieces.
    static func write(
        meeting boxes: [BoundingBox], into geoPackage: GeoPackageWriter, stem: String, usedTables: inout Set<String>
    ) throws -> OSMCountryGridLayer? {
        guard let file = NominatimCountryGrid.embeddedFile else { return nil }
        let started = Date()
        let found = try NominatimCountryGrid.pieces(meetingAny: boxes, file: file)
        guard !found.isEmpty else { return nil }
        var name = "\(stem)_country_grid"
        var suffix = 2
        while !usedTables.insert(name).inserted {
            name = "\(stem)_country_grid_\(suffix)"
            suffix += 1
        }
        let writer = try geoPackage.createFeatureTable(
            name, geometryType: .multiPolygon, columns: [.text("country_code"), .real("area")],
            description: "\(descriptionPrefix) around \(stem)")
        var pieces: [(NominatimCountryGrid.Piece, Int64)] = []
        for piece in found {
            pieces.append((piece, try writer.insert(piece.shape, values: [.text(piece.code), .real(piece.area)])))
        }
        try writer.finish()
        return OSMCountryGridLayer(table: name, pieces: pieces, seconds: Date().timeIntervalSince(started), file: file)
    }

    /// The boxes the pieces must meet: the extract's extent (`OSMLevelMapping.extent`) for one file, as always; for
    /// several read as one, each file's extent of node locations cut to it, so that a piece between the extracts comes
    /// in only when it would with one of them alone. Their one extent from Andorra to Monaco took in Llívia's piece
    /// (Spain, inside France), and a point there answered Spain with Monaco's extract and France with Andorra's alone
    /// (issue 35). The nodes' extent may reach a little beyond the file's features (`ExtractCoverage`).
    static func boxes(extent: BoundingBox, fileExtents: [BoundingBox?]) -> [BoundingBox] {
        ExtractCoverage.eachFile(extent, fileExtents: fileExtents) { _ in extent }
    }

    /// Gives the lookups each piece as a country polygon, named as Natural Earth names its country.
    func collect(into collector: LookupCollector) {
        let names = Self.naturalEarthNames()
        for (piece, fid) in pieces {
            _ = collector.collectArea(
                .country, piece.shape, layer: table, fid: fid, name: names[piece.code] ?? piece.code, code: piece.code,
                countryCode: piece.code)
        }
    }

    /// The layer as the import summary and travel411_sources list it.
    var imported: ImportedLayer {
        ImportedLayer(
            path: file.path, table: table, layout: "Nominatim country grid", level: .country, features: pieces.count, skipped: 0,
            skipReasons: [:], seconds: seconds)
    }

    /// Natural Earth's country names by ISO code, as the embedded country layer gives them (`NAME_LONG`, else
    /// `ADMIN`), so that a country answers with the same name from either source.
    private static func naturalEarthNames() -> [String: String] {
        guard let (reader, code) = OSMCountryOfPoint.naturalEarthCountryLayer() else { return [:] }
        let nameFields = ["NAME_LONG", "ADMIN", "NAME"].compactMap(reader.fieldIndex)
        var names: [String: String] = [:]
        for record in 0..<reader.recordCount {
            guard let code = code(record), names[code] == nil,
                let name = nameFields.lazy.compactMap({ reader.string(record: record, field: $0) }).first(where: { !$0.isEmpty })
            else { continue }
            names[code] = name
        }
        return names
    }
}
