import Foundation

/// The street an address or point of interest belongs to, decided at import as Nominatim decides it: of the
/// streets named as its `addr:street` (the same words, whatever the case, spacing and punctuation), the one
/// whose centre, the point halfway along it, is nearest, within 0.015°. A long street is several ways; the
/// address belongs to one of them. An object whose `addr:street` names no street near has none here: the
/// lookup then takes the nearest named street, as Nominatim does.
struct OSMParentStreets {
    static let reachDegrees = 0.015

    private struct Street {
        var id: UInt32
        var key: [UInt8]
        var x: Double, y: Double
    }

    /// Street indexes by cell of `reachDegrees`: a search looks at the 3 × 3 cells around the object.
    private var cells: [Int64: [Street]] = [:]

    mutating func add(street id: UInt32, name: String, midpoint: Point2D) {
        let key = Self.key(name)
        guard !key.isEmpty else { return }
        cells[Self.cell(midpoint.x, midpoint.y), default: []].append(Street(id: id, key: key, x: midpoint.x, y: midpoint.y))
    }

    /// The street named `name` whose centre is nearest to `point` within reach; ties to the lower id.
    func parent(named name: String, near point: Point2D) -> UInt32? {
        let key = Self.key(name)
        guard !key.isEmpty else { return nil }
        let column = Int(floor(point.x / Self.reachDegrees)), row = Int(floor(point.y / Self.reachDegrees))
        var best: (id: UInt32, squared: Double)?
        for c in (column - 1)...(column + 1) {
            for r in (row - 1)...(row + 1) {
                for street in cells[Self.cell(c, r)] ?? [] where street.key == key {
                    let dx = street.x - point.x, dy = street.y - point.y
                    let squared = dx * dx + dy * dy
                    guard squared <= Self.reachDegrees * Self.reachDegrees else { continue }
                    if best.map({ squared < $0.squared || (squared == $0.squared && street.id < $0.id) }) ?? true {
                        best = (street.id, squared)
                    }
                }
            }
        }
        return best?.id
    }

    private static func cell(_ x: Double, _ y: Double) -> Int64 {
        cell(Int(floor(x / reachDegrees)), Int(floor(y / reachDegrees)))
    }

    private static func cell(_ column: Int, _ row: Int) -> Int64 { Int64(column) << 32 | Int64(UInt32(bitPattern: Int32(row))) }

    /// A name's letters and digits, lower case, `ß` as `ss`: `Bendererstrasse` is `Benderer Strasse`.
    static func key(_ name: String) -> [UInt8] {
        Array(
            name.lowercased().replacingOccurrences(of: "ß", with: "ss").unicodeScalars.filter {
                CharacterSet.alphanumerics.contains($0)
            }.map(String.init).joined().utf8)
    }
}
