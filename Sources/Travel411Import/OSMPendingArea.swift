import Foundation
import Travel411Core

extension OSMLevelMapping {
    /// A municipality or suburb waiting for the end of the read, when the levels are decided.
    struct PendingArea {
        /// The outline: on disk for a polygon of the extract (`OSMShapeFile`), in memory for a cell drawn around a place node.
        private var stored: OSMStoredShape?
        private var cell: Shape?
        var shape: Shape { outline.shape }
        /// The outline alone, for a reader that keeps nothing else of the area (`OSMAddressCity`).
        var outline: Outline { Outline(stored: stored, cell: cell) }

        struct Outline {
            fileprivate var stored: OSMStoredShape?
            fileprivate var cell: Shape?
            var shape: Shape { stored?.shape ?? cell ?? .multiPolygon([]) }
        }

        /// Draws the area as `shape` in memory, in place of its outline.
        mutating func setCell(_ shape: Shape) { (stored, cell) = (nil, shape) }
        var layer: String
        var fid: Int64
        var name: String
        /// The place node the area was drawn around, nil for a polygon of the extract.
        var node: Point2D? = nil
        /// Its `place` type (a place area's or node's); for a boundary, its linked node's, decided at the end.
        var placeType: String? = nil
        /// A boundary's or a place node's own `postal_code` (or `addr:postcode`), as written.
        var postcode: String? = nil
        /// A boundary's `wikidata` item, which links it to a place node (`OSMLinkedPlaces`).
        var wikidata: String? = nil
        /// A boundary's `label` node member (`OSMLinkedPlaces`).
        var labelNode: Int64? = nil
        /// A boundary's own `place` tag (`OSMAdministrativeBoundary.place`).
        var boundaryPlace: String? = nil
        /// The key of a city-level boundary without a linked place node: its rank's label (`placeBoundaries`).
        var unlinkedKey: String? = nil
        /// A boundary's address rank in its country (`placeBoundaries`).
        var rank = 0
        /// For a node's area cut to the boundary holding the node, that boundary's place in its level's list.
        var below: Int? = nil
        /// A boundary's country, the one `placeBoundaries` ranked it in (`OSMLevelSources`); set once the extract is
        /// read, so never on disk.
        var country: String? = nil

        init(
            shape: Shape, layer: String, fid: Int64, name: String, node: Point2D? = nil, placeType: String? = nil,
            below: Int? = nil
        ) {
            (stored, cell) = (nil, shape)
            (self.layer, self.fid, self.name, self.node, self.placeType, self.below) = (layer, fid, name, node, placeType, below)
        }

        /// The area drawn around a place node (`cell`), named and typed as the node, with the node's own postcode.
        init(cell: Shape, around node: OSMPlaceNodeAreas.Node, below: Int? = nil) {
            self.init(
                shape: cell, layer: node.layer, fid: node.fid, name: node.name, node: node.point, placeType: node.type, below: below)
            postcode = node.postcode
        }

        init(stored: OSMStoredShape, layer: String, fid: Int64, name: String, placeType: String? = nil, postcode: String? = nil) {
            (self.stored, cell) = (stored, nil)
            (self.layer, self.fid, self.name, self.placeType, self.postcode) = (layer, fid, name, placeType, postcode)
        }
    }
}

extension OSMLevelMapping {
    /// The nodes in none of `areas`, in their order. Each outline is read once (from disk for a boundary) and
    /// dropped before the next: holding them all at once made the import's memory grow with the extract (issue 35).
    static func nodes(_ nodes: [OSMPlaceNodeAreas.Node], outsideEvery areas: [PendingArea]) -> [OSMPlaceNodeAreas.Node] {
        let points = BoxBuckets(nodes.map { BoundingBox(minX: $0.point.x, minY: $0.point.y, maxX: $0.point.x, maxY: $0.point.y) })
        var inside = [Bool](repeating: false, count: nodes.count)
        for area in areas {
            let shape = area.shape
            for index in points.meeting(shape.boundingBox) where !inside[index] {
                inside[index] = shape.contains(x: nodes[index].point.x, y: nodes[index].point.y)
            }
        }
        return nodes.indices.filter { !inside[$0] }.map { nodes[$0] }
    }
}

extension OSMLevelMapping.PendingArea {
    /// Every field, the outline as where it is stored (or the cell's points), the layer as `layer`, its index
    /// in the caller's list (`PendingPlaces`).
    func write(to writer: inout OSMSpillWriter, layer: UInt32) {
        if let stored {
            writer.write(UInt32(1))
            writer.write(stored)
        } else {
            writer.write(UInt32(0))
            writer.write(cell ?? .multiPolygon([]))
        }
        writer.write(layer)
        writer.write(fid)
        writer.write(name)
        writer.write(UInt32(node == nil ? 0 : 1))
        if let node { writer.write(node) }
        for text in [placeType, postcode, wikidata, boundaryPlace, unlinkedKey] { writer.write(text) }
        writer.write(Int64(rank))
        writer.write(below.map { Int64($0) } ?? -1)
        writer.write(labelNode ?? 0)
    }

    /// An area `write(to:layer:)` wrote, its outline in `shapes`, its layer's name from `layers`.
    init(reading reader: inout OSMSpillReader, shapes: OSMShapeFile, layers: [String]) throws {
        if try reader.uint32() == 1 {
            (stored, cell) = (try reader.storedShape(in: shapes), nil)
        } else {
            (stored, cell) = (nil, try reader.shape())
        }
        let layer = Int(try reader.uint32())
        guard layers.indices.contains(layer) else { throw ImportError("a place's layer missing from a temporary file") }
        self.layer = layers[layer]
        fid = try reader.int64()
        name = try reader.presentText()
        node = try reader.uint32() == 0 ? nil : try reader.point()
        (placeType, postcode, wikidata) = (try reader.text(), try reader.text(), try reader.text())
        (boundaryPlace, unlinkedKey) = (try reader.text(), try reader.text())
        rank = Int(try reader.int64())
        let below = try reader.int64()
        self.below = below < 0 ? nil : Int(below)
        let label = try reader.int64()
        labelNode = label == 0 ? nil : label
    }
}
