import Foundation
import Travel411Core
import Travel411Geocoder

/// A street's postcode as Nominatim computes it for a street without `addr:postcode` (`get_nearest_postcode`,
/// `lib-sql/functions/utils.sql`): the postcode point (the mean of the objects carrying that postcode) of the
/// street's own country nearest to the street's midpoint, in degrees, among those whose box of ± the country's
/// postcode extent (`postcode: extent` of `settings/country_settings.yaml`, 5 km without one:
/// `PostcodeFormatter.get_postcode_extent`) holds the midpoint. This reproduces the postcode of all 830 Helsinki
/// and 1,562 Liechtenstein streets of Nominatim 5.3's databases of the sample extracts.
struct OSMStreetPostcodes {
    private struct Centroid {
        var code: String
        var x: Double, y: Double
    }

    private let settings: NominatimCountrySettings?
    private let countryOf: (Point2D) -> String?
    /// The centroids by country and 0.1° cell, so that a street looks at a few cells, not at every postcode.
    private var cells: [String: [Int64: [Centroid]]] = [:]
    private static let cellDegrees = 0.1

    /// `countryOf`: the country of a street's midpoint (`OSMCountryOfPoint`), whose postcodes alone it may take.
    init(centroids: [OSMPostcodeCentroid], settings: NominatimCountrySettings?, countryOf: @escaping (Point2D) -> String?) {
        self.settings = settings
        self.countryOf = countryOf
        for centroid in centroids {
            let c = Centroid(code: centroid.code, x: centroid.coordinate.longitude, y: centroid.coordinate.latitude)
            let cell = Self.cell(Int(floor(c.x / Self.cellDegrees)), Int(floor(c.y / Self.cellDegrees)))
            cells[centroid.countryCode ?? "", default: [:]][cell, default: []].append(c)
        }
    }

    private static func cell(_ column: Int, _ row: Int) -> Int64 { Int64(column) << 32 | Int64(UInt32(bitPattern: Int32(row))) }

    /// The postcode of a street whose midpoint is `point`; nil when no postcode of its country has a box holding it.
    package func postcode(at point: Point2D) -> String? {
        let country = countryOf(point)
        guard let cells = cells[country ?? ""] else { return nil }
        let extentMetres = settings?.postcodeExtentMetres(countryCode: country) ?? NominatimCountrySettings.defaultPostcodeExtentMetres
        let halfHeight = extentMetres / (GreatCircle.earthRadiusMetres * .pi / 180)
        let halfWidth = halfHeight / max(cos(point.y * .pi / 180), 0.01)
        let columns = Int(floor((point.x - halfWidth) / Self.cellDegrees))...Int(floor((point.x + halfWidth) / Self.cellDegrees))
        let rows = Int(floor((point.y - halfHeight) / Self.cellDegrees))...Int(floor((point.y + halfHeight) / Self.cellDegrees))
        var best: (squared: Double, code: String)?
        for column in columns {
            for row in rows {
                for c in cells[Self.cell(column, row)] ?? [] {
                    // The box is the centroid's: the street's midpoint must lie in it (the same box from either side).
                    guard abs(c.x - point.x) <= halfWidth, abs(c.y - point.y) <= halfHeight else { continue }
                    let d = (c.x - point.x) * (c.x - point.x) + (c.y - point.y) * (c.y - point.y)
                    if best.map({ d < $0.squared || (d == $0.squared && c.code < $0.code) }) ?? true { best = (d, c.code) }
                }
            }
        }
        return best?.code
    }

    /// The point halfway along a street's lines (its longest line for a square's rings).
    static func midpoint(of lines: [[Point2D]]) -> Point2D? {
        func length(_ line: [Point2D]) -> Double {
            zip(line, line.dropFirst()).reduce(0) {
                $0 + (($1.1.x - $1.0.x) * ($1.1.x - $1.0.x) + ($1.1.y - $1.0.y) * ($1.1.y - $1.0.y)).squareRoot()
            }
        }
        guard let line = lines.filter({ !$0.isEmpty }).max(by: { length($0) < length($1) }) else { return nil }
        return OSMLevelMapping.point(along: line, fraction: 0.5)
    }
}
