import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store

/// `travel411_osm_names`: the `name:xx` tags of every OpenStreetMap object that can name a field of an answer
/// (streets, addresses and POIs, places, boundaries), by element (`W123`), for those that have any. A server
/// answering in another language reads one row per named object instead of scanning the feature tables.
/// Optional: a database without it (imported before it existed, or from shapefiles only) answers in `name`.
///
/// A boundary takes the translations it lacks from the place node of the same name inside it, as Nominatim's
/// linked places do (Vaduz's relation has no `name:ru`; its node has). Extracts list nodes before ways and
/// relations, so the nodes are known when a boundary comes.
package struct OSMNamesTable {
    static let tableName = OSMNamesSchema.tableName

    private let insert: SQLiteStatement
    /// Place nodes with translations, by name, for the boundaries that link them; their names kept encoded on
    /// disk (`placeNodeNames`), where in memory they grew with the extract under the read's highest point (a
    /// country's extract has tens of thousands, the planet millions; issue 35).
    private var placeNodes: [String: [(point: Point2D, names: Int64, length: Int)]] = [:]
    private let placeNodeNames: UnlinkedAppendFile

    /// `temporaryPath`: where the place nodes' names wait (beside the database being built).
    package init(database: SQLiteDatabase, temporaryPath: String) throws {
        try database.execute(OSMNamesSchema.createStatement)
        placeNodeNames = try UnlinkedAppendFile(path: temporaryPath)
        // One element can give several features (a shop with an address): its tags, and so its names, are the same.
        insert = try database.prepare("INSERT OR IGNORE INTO \(Self.tableName) (element, names) VALUES (?, ?)")
    }

    mutating func record(_ feature: OSMFeature) throws {
        guard Self.namesAnswers(feature.kind) else { return }
        var names = feature.names
        if feature.kind == .place, feature.element.type == .node, let name = feature.name, !names.isEmpty {
            var encoded = OSMNameList.encoded(names)
            let offset = try encoded.withUTF8 { try placeNodeNames.append(UnsafeRawBufferPointer($0)) }
            placeNodes[name, default: []].append((feature.representativePoint, offset, encoded.utf8.count))
        }
        // Only the nodes inside the boundary's box are tested against its rings (a point outside the box is outside
        // them): an extract of many places of one name (2,400 copies of Liechtenstein) tested every node of the
        // name against every boundary of it, which grew with the square of the extract.
        if feature.kind == .adminBoundary, let name = feature.name, let named = placeNodes[name] {
            let shape = feature.shape, box = shape.boundingBox
            let inside = named.first { box.contains(x: $0.point.x, y: $0.point.y) && shape.contains(x: $0.point.x, y: $0.point.y) }
            if let node = inside { names.merge(OSMNameList.decoded(try storedNames(node))) { own, _ in own } }
        }
        guard !names.isEmpty else { return }
        try insert.run([.text(OSMLevelMapping.elementText(feature.element)), .text(OSMNameList.encoded(names))])
    }

    private func storedNames(_ node: (point: Point2D, names: Int64, length: Int)) throws -> String {
        var bytes = [UInt8](repeating: 0, count: node.length)
        try bytes.withUnsafeMutableBytes { try placeNodeNames.read(into: $0.baseAddress, count: node.length, at: node.names) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The kinds an answer names: not postcodes (a code has no language) nor interpolation lines (never answering).
    private static func namesAnswers(_ kind: OSMFeatureKind) -> Bool {
        switch kind {
        case .street, .address, .poi, .place, .adminBoundary: return true
        case .addressInterpolation, .postcodeBoundary, .postcodePoint: return false
        }
    }
}
