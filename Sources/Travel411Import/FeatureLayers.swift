import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store

/// Which of an extract's feature layers the GeoPackage keeps (`import --layers`). The lookups answer from their
/// own pages, which hold every street, address and POI again: the layers are for GIS tools and `map`.
public enum FeatureLayers: String, CaseIterable, Sendable {
    /// Every layer: a GeoPackage that QGIS and GDAL open with all the extract's features.
    case all
    /// Only the layers that lookups read (places, boundaries, postcode areas): the streets, addresses, address
    /// interpolations, POIs and postcode points are left out, about a third of the file.
    case lookups

    /// The travel411_metadata entry that keeps the choice, for `import --append`.
    static let metadataKey = "feature_layers"

    /// Whether a layer of this kind is written.
    func writes(_ kind: OSMFeatureKind) -> Bool {
        switch (self, kind) {
        case (.all, _), (.lookups, .place), (.lookups, .adminBoundary), (.lookups, .postcodeBoundary): return true
        case (.lookups, .street), (.lookups, .address), (.lookups, .addressInterpolation), (.lookups, .poi),
            (.lookups, .postcodePoint):
            return false
        }
    }
}

/// What an extract's layers that were not written would have told the lookups: their extent (as gpkg_contents
/// holds it) and the 0.1° tiles their features' boxes touch (as their R-trees would give them, `ExtractTiles`).
struct UnwrittenCoverage {
    var extent = BoundingBox.empty
    /// The tiles of the streets (`ExtractTiles.touched`).
    var streetTiles = Set<UInt32>()
    /// The tiles of every point and line layer (`ExtractTiles.data`).
    var dataTiles = Set<UInt32>()

    mutating func add(_ shape: Shape, isStreet: Bool) {
        let box = shape.boundingBox
        guard !box.isEmpty else { return }
        extent.extend(box)
        // An R-tree keeps its boxes as 32-bit floats rounded outwards (SQLite's rtree): the same here, so that
        // a box ending just inside a tile's edge touches the tiles the R-tree's box would.
        func below(_ value: Double) -> Double {
            let float = Float(value)
            return Double(Double(float) > value ? float.nextDown : float)
        }
        func above(_ value: Double) -> Double {
            let float = Float(value)
            return Double(Double(float) < value ? float.nextUp : float)
        }
        let stored = BoundingBox(minX: below(box.minX), minY: below(box.minY), maxX: above(box.maxX), maxY: above(box.maxY))
        let (rows, columns) = TileGrid.tiles(touching: stored)
        for row in rows {
            for column in columns {
                let tile = TileGrid.tileKey(row: row, column: column)
                dataTiles.insert(tile)
                if isStreet { streetTiles.insert(tile) }
            }
        }
    }
}
