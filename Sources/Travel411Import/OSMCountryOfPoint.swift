import Foundation
import Travel411Core
import Travel411OSM
import Travel411Shapefile
import Travel411Store
import Travel411StoreWriters

/// The country an OpenStreetMap object of an extract lies in, for the rules that depend on it (postcode forms,
/// address ranks, postcodes of the same country only). Nominatim gives each object the country of the
/// country boundary holding it, else of its `country_osm_grid` (`lib-sql/functions/placex_triggers.sql`,
/// `get_country_code` in `functions/utils.sql`); travel411 takes the extract's own `admin_level=2` polygons
/// first, then the pieces of Nominatim's grid around the extract, smallest first (`NominatimCountryGrid`), then
/// Natural Earth's countries of the embedded data (Data/countries) for the rest, leaving out Natural Earth's
/// polygon of a country the extract gave, as the import's country lookup does.
///
/// Natural Earth draws coasts tighter than Nominatim's grid, which reaches into the sea: a point in no
/// polygon (a pier, a skerry) takes the country most of its extract file's places lie in, where it is near
/// them (`fallbackReach`). Far from them it takes none: Malta's regions, read with Liechtenstein's extract, were
/// Liechtenstein's. Each file of several read as one has its own (`ExtractCoverage.eachFile`'s boxes): a pier of
/// the smaller of two countries' extracts took the larger's country.
struct OSMCountryOfPoint {
    private let codes: [String]
    /// The polygons' tiles, read back from a temporary file as points need them (`SpilledAreaTiles`).
    private let tiles: SpilledAreaTiles?
    private let index: TiledAreaLookup?
    /// Each file's box, that box widened by `fallbackReach`, and the country of the points no polygon holds within
    /// the widened box (nil when the file has no place in any country).
    private(set) var fallbacks: [(box: BoundingBox, reach: BoundingBox, code: String?)]
    /// Territorial waters reach 12 nautical miles from the coast (UNCLOS article 3), 0.2° of latitude, as far as
    /// Nominatim's grid reaches into the sea beyond Natural Earth's coast.
    private static let fallbackReach = 0.2

    /// `extractCountries`: the extract's own country polygons with their ISO codes; `box`: the part of the
    /// world the extract covers, outside which Natural Earth's countries are not read; `fileBoxes`: each extract
    /// file's part of it (`box` when not given); `temporaryPrefix`: where the tiles' file goes (beside the database
    /// being built).
    init(
        extractCountries: some Sequence<(code: String, shape: Shape)>, grid: [NominatimCountryGrid.Piece] = [], box: BoundingBox,
        fileBoxes: [BoundingBox]? = nil, temporaryPrefix: String = NSTemporaryDirectory() + "travel411-\(getpid())-"
    ) throws {
        var codes: [String] = []
        var builder = AreaIndexBuilder(runPrefix: temporaryPrefix + "country-run-")
        for (code, shape) in extractCountries {
            builder.add(feature: codes.count, rings: shape.rings)
            codes.append(code.uppercased())
        }
        let given = Set(codes)
        for piece in grid {
            builder.add(feature: codes.count, rings: piece.shape.rings)
            codes.append(piece.code)
        }
        for (code, shape) in Self.naturalEarthCountries(meeting: box) where !given.contains(code) {
            builder.add(feature: codes.count, rings: shape.rings)
            codes.append(code)
        }
        self.codes = codes
        fallbacks = (fileBoxes ?? [box]).filter { !$0.isEmpty }.map { ($0, $0.widened(by: Self.fallbackReach), nil) }
        tiles = codes.isEmpty ? nil : try SpilledAreaTiles.build(builder, path: temporaryPrefix + "country-tiles")
        // Only the tiles a border crosses hold a blob, read again once dropped: at the 32 MB default the tiles read
        // stayed whole at 600 copies of Liechtenstein (a border in every tile) but filled the budget at 2,400, memory
        // that grew with the extract's area up to the budget.
        index = tiles?.lookup(budgetBytes: Self.tilesReadBudget)
    }

    /// About the most the tiles read take at once.
    private static let tilesReadBudget = 8 << 20

    /// Throws the first failure to read a tile back from the temporary file.
    func checkReads() throws { try tiles?.checkReads() }

    /// The country of the point, as an upper-case ISO 3166-1 code; the fallback where no polygon holds it.
    func countryCode(at point: Point2D) -> String? {
        index?.featureIndex(longitude: point.x, latitude: point.y).map { codes[$0] }
            ?? fallbacks.first { $0.code != nil && $0.reach.contains(x: point.x, y: point.y) }?.code
    }

    /// Sets each file's fallback: the country holding most of `points` (the extract's place nodes) inside the file's
    /// box, or of a grid over the box where none lies in it.
    mutating func setFallbacks(byMajorityOf points: [Point2D]) {
        for number in fallbacks.indices {
            let box = fallbacks[number].box
            let inside = points.filter { box.contains(x: $0.x, y: $0.y) }
            fallbacks[number].code = majority(of: inside.isEmpty ? Self.grid(over: box) : inside)
        }
    }

    /// The country holding most of `points`; of equal counts, the first code in alphabetical order.
    private func majority(of points: [Point2D]) -> String? {
        var counts: [String: Int] = [:]
        for point in points {
            if let code = index?.featureIndex(longitude: point.x, latitude: point.y).map({ codes[$0] }) { counts[code, default: 0] += 1 }
        }
        return counts.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }?.key
    }

    /// Natural Earth's countries whose boxes meet `box`; none without embedded data.
    private static func naturalEarthCountries(meeting box: BoundingBox) -> [(code: String, shape: Shape)] {
        guard !box.isEmpty, let (reader, code) = naturalEarthCountryLayer() else { return [] }
        var countries: [(code: String, shape: Shape)] = []
        for record in 0..<reader.recordCount {
            guard case .shape(let shape)? = try? reader.record(at: record), shape.boundingBox.intersects(box), let code = code(record)
            else { continue }
            countries.append((code, shape))
        }
        return countries
    }

    /// Data/'s Natural Earth country layer and each record's upper-case ISO 3166-1 code (ISO_A2_EH, else ISO_A2);
    /// nil without embedded data.
    static func naturalEarthCountryLayer() -> (reader: ShapefileReader, code: (Int) -> String?)? {
        guard let url = Importer.embedded("countries/ne_10m_admin_0_countries.shp"),
            let reader = try? ShapefileReader(path: url.path)
        else { return nil }
        let codeFields = ["ISO_A2_EH", "ISO_A2"].compactMap(reader.fieldIndex)
        return (
            reader,
            { record in
                codeFields.lazy.compactMap { reader.string(record: record, field: $0) }.first { $0.count == 2 }?.uppercased()
            }
        )
    }

    /// 5 × 5 points spread over `box`, its corners included: where a file without place nodes takes its countries'
    /// majority (`setFallbacks(byMajorityOf:)`).
    private static func grid(over box: BoundingBox) -> [Point2D] {
        guard !box.isEmpty else { return [] }
        return (0...4).flatMap { i in
            (0...4).map { j in
                Point2D(x: box.minX + (box.maxX - box.minX) * Double(i) / 4, y: box.minY + (box.maxY - box.minY) * Double(j) / 4)
            }
        }
    }
}
