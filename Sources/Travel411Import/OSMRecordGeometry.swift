import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store

/// How the import writes an OpenStreetMap object's geometry and identity into its records: points and extents as
/// seven-decimal text (OpenStreetMap's own precision), the element as Nominatim's `osm_type` letter and id, and
/// the points the interpolations and objects are placed at.
extension OSMLevelMapping {
    /// A point as an object record keeps it: `x y`, to 7 decimals as OpenStreetMap stores coordinates.
    static func pointText(_ point: Point2D) -> String { decimals([point.x, point.y]) }

    /// An outline's extent as an object record keeps it: `minX minY maxX maxY`, nil for none.
    static func extentText(_ outline: [[Point2D]]) -> String? {
        let box = extent(of: outline)
        guard !box.isEmpty else { return nil }
        return decimals([box.minX, box.minY, box.maxX, box.maxY])
    }

    /// Numbers with seven decimals, space-separated, written as bytes: Foundation's `String(format:)` costs 7 % of
    /// an extract's import.
    private static func decimals(_ values: [Double]) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(values.count * 13)
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: " ")) }
            DecimalText.appendSevenDecimals(value, to: &bytes)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The box of an outline's rings, empty for none.
    package static func extent(of outline: [[Point2D]]) -> BoundingBox {
        var box = BoundingBox.empty
        for ring in outline { for p in ring { box.extend(x: p.x, y: p.y) } }
        return box
    }

    /// `N123`, `W123`, `R123`: the element, as Nominatim's `osm_type` letter and `osm_id`.
    static func elementText(_ element: OSMElementID) -> String {
        switch element.type {
        case .node: return "N\(element.id)"
        case .way: return "W\(element.id)"
        case .relation: return "R\(element.id)"
        }
    }

    /// The point a `fraction` of the way along `line`, by length in degrees (an interpolated house number's place).
    package static func point(along line: [Point2D], fraction: Double) -> Point2D {
        let lengths = zip(line, line.dropFirst()).map { ((($1.x - $0.x) * ($1.x - $0.x)) + (($1.y - $0.y) * ($1.y - $0.y))).squareRoot() }
        var remaining = lengths.reduce(0, +) * fraction
        for (i, length) in lengths.enumerated() {
            if remaining <= length, length > 0 {
                let t = remaining / length
                return Point2D(x: line[i].x + (line[i + 1].x - line[i].x) * t, y: line[i].y + (line[i + 1].y - line[i].y) * t)
            }
            remaining -= length
        }
        return line[line.count - 1]
    }

    static func coordinate(_ point: Point2D) -> Coordinate { Coordinate(latitude: point.y, longitude: point.x) }
}
