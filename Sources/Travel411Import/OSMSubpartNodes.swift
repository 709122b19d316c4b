import Foundation
import Travel411Core
import Travel411OSM

/// Suburb nodes where the extract also has suburb boundaries, as Nominatim 5.3 ranks them (GPL-2.0; its rules,
/// not its code): `placex_update` (`lib-sql/functions/placex_triggers.sql`) moves an unlinked place node of
/// address rank 16-23 inside a boundary of the same address rank two ranks down ("make the node a subpart"), and
/// `find_linked_place` links a boundary to a node of its name inside it instead. Such a node is then a finer
/// part of the address than the boundary, and as both are keyed `suburb` (`get_label_tag`,
/// `nominatim_api/v1/classtypes.py`), the finer one names the answer (`_write_typed_address`: the first, finest
/// value of a key wins): München's `place=suburb` node "Altstadt" inside the boundary "Bezirksteil Kreuzviertel".
///
/// A node counts within its area (`place_node_fuzzy_area`, ± 2 km for a suburb: `OSMPlaceNodeAreas`), only inside
/// the boundary holding it, and the nearest of the nodes that boundary holds where their areas overlap
/// (`insert_addresslines` skips a guessed place outside `current_boundary`); where no boundary holds the point, every
/// node's area counts, the nearest node where areas overlap.
/// So the suburb level takes, in this order (the first polygon holding a point answers): each node's cell cut to
/// its own boundary, the boundaries, then the nodes' cells uncut, for the points outside every boundary.
enum OSMSubpartNodes {
    typealias Cell = (node: OSMPlaceNodeAreas.Node, shape: Shape)
    /// A cell cut to the boundary of index `boundary` holding its node.
    typealias CutCell = (node: OSMPlaceNodeAreas.Node, shape: Shape, boundary: Int)

    /// The cells of `nodes` of `types` (not linked to a boundary of their name holding them, and in none of
    /// `excluded`) cut to the boundary holding each (`inside`), and uncut (`outside`). `halfWidth`: a node type's box
    /// (`OSMPlaceNodeAreas`).
    static func areas(
        of nodes: [OSMPlaceNodeAreas.Node], types: Set<String>, halfWidth: (String) -> Double?,
        boundaries: [(name: String, shape: Shape)], excluded: [Shape] = []
    ) -> (inside: [CutCell], outside: [Cell]) {
        areas(
            of: nodes, types: types, halfWidth: halfWidth, names: boundaries.map(\.name),
            boundaries: Outlines(boundaries.map(\.shape)), excluded: Outlines(excluded))
    }

    /// Outlines read one at a time as they are needed (a boundary's from disk, `OSMShapeFile`), their boxes at hand:
    /// holding every boundary's outline at once made the import's memory grow with the extract (issue 35).
    struct Outlines {
        let boxes: BoxBuckets
        let shape: (Int) -> Shape

        init(_ shapes: [Shape]) {
            boxes = BoxBuckets(shapes.map(\.boundingBox))
            shape = { shapes[$0] }
        }

        /// Each area's outline is read once here for its box, and again whenever `shape` is asked for.
        init(_ areas: [OSMLevelMapping.PendingArea]) {
            boxes = BoxBuckets(areas.map(\.shape.boundingBox))
            shape = { areas[$0].shape }
        }

        /// The first outline holding the point, by index.
        func first(holding point: Point2D) -> Int? {
            boxes.holding(x: point.x, y: point.y).first { shape($0).contains(x: point.x, y: point.y) }
        }

        /// Whether an outline named `name` (`keys`: the outlines' `OSMParentStreets.key`, nil: linked to no node) holds the point: Nominatim
        /// links a boundary to a place node of its name only inside it (`find_linked_place`, `ST_Covers`,
        /// lib-sql/functions/placex_triggers.sql, 5.3), so Bishkek's suburb node Кок-Жар outside the cut area of
        /// its name stays a place of its own.
        func anyNamed(_ name: String, keys: [[UInt8]?], holds point: Point2D) -> Bool {
            let key = OSMParentStreets.key(name)
            return boxes.holding(x: point.x, y: point.y).contains { index in
                keys[index] == key && shape(index).contains(x: point.x, y: point.y)
            }
        }
    }

    /// `areas(of:types:halfWidth:boundaries:excluded:)` with the boundaries' names apart from their outlines.
    /// `perBoundary`: inside a boundary, only the nodes it holds compete for its points (the suburb nodes); else every
    /// node's cell is cut as if the boundaries were not there (the town nodes: below).
    static func areas(
        of nodes: [OSMPlaceNodeAreas.Node], types: Set<String>, halfWidth: (String) -> Double?, names: [String?],
        boundaries: Outlines, excluded: Outlines, perBoundary: Bool = true
    ) -> (inside: [CutCell], outside: [Cell]) {
        // The outlines' name keys once, not once for each node whose point a box holds.
        let keys = names.map { $0.map(OSMParentStreets.key) }
        let moved = nodes.filter { node in
            types.contains(node.type) && !boundaries.anyNamed(node.name, keys: keys, holds: node.point)
                && excluded.first(holding: node.point) == nil
        }
        // Inside a boundary only the nodes it holds compete: `insert_addresslines` skips a guessed place outside
        // `current_boundary`, so Altstadt, in Bezirksteil Kreuzviertel, takes no part of Bezirksteil Graggenau from
        // Graggenauerviertel, the node inside it, however near.
        let cells = OSMPlaceNodeAreas.cells(of: moved, halfWidth: halfWidth)
        // Each node numbered by its place in `moved` (its `fid` while its cells are drawn), to find its cells again.
        let numbered = moved.indices.map { index -> OSMPlaceNodeAreas.Node in
            var node = moved[index]
            node.fid = Int64(index)
            return node
        }
        var holding: [Int: [OSMPlaceNodeAreas.Node]] = [:]
        for node in numbered {
            if let index = boundaries.first(holding: node.point) { holding[index, default: []].append(node) }
        }
        let everyCell = perBoundary ? [] : OSMPlaceNodeAreas.cells(of: numbered, halfWidth: halfWidth)
        var cutCells: [Int: (shape: Shape, boundary: Int)] = [:]
        for (index, held) in holding {
            let numbers = Set(held.map(\.fid))
            let own =
                perBoundary ? OSMPlaceNodeAreas.cells(of: held, halfWidth: halfWidth) : everyCell.filter { numbers.contains($0.node.fid) }
            for cell in own {
                guard case .polygon(let convex) = cell.shape, let cut = clip(boundaries.shape(index), to: Array(convex.exterior.dropLast()))
                else { continue }
                cutCells[Int(cell.node.fid)] = (cut, index)
            }
        }
        // In the order `cells(of:halfWidth:)` gives every node (heaviest first, then as they came): the feature numbers.
        let order = moved.indices.sorted { (moved[$0].weight, $1) > (moved[$1].weight, $0) }
        let inside: [CutCell] = order.compactMap { index in cutCells[index].map { (moved[index], $0.shape, $0.boundary) } }
        return (inside, cells)
    }

    /// The part of `shape`'s outer rings inside the convex polygon `convex` (counter-clockwise or clockwise,
    /// without the closing point): Sutherland–Hodgman, each outer ring clipped by each edge; nil when nothing is
    /// left. Holes are left out: a suburb boundary with a hole is rare, and the node's cell is small.
    static func clip(_ shape: Shape, to convex: [Point2D]) -> Shape? {
        let exteriors: [[Point2D]]
        switch shape {
        case .polygon(let polygon): exteriors = [polygon.exterior]
        case .multiPolygon(let polygons): exteriors = polygons.map(\.exterior)
        default: return nil
        }
        guard convex.count >= 3 else { return nil }
        // The convex polygon's orientation decides which side of an edge is inside.
        let area = zip(convex, convex.dropFirst() + [convex[0]]).reduce(0) { $0 + ($1.0.x * $1.1.y - $1.1.x * $1.0.y) }
        let orientation: Double = area >= 0 ? 1 : -1
        var parts: [Polygon] = []
        for exterior in exteriors {
            var ring = Array(exterior.dropLast())
            for (a, b) in zip(convex, convex.dropFirst() + [convex[0]]) {
                ring = clip(ring, edgeFrom: a, to: b, orientation: orientation)
                if ring.count < 3 { break }
            }
            if ring.count >= 3 { parts.append(Polygon(exterior: ring + [ring[0]])) }
        }
        if parts.isEmpty { return nil }
        return parts.count == 1 ? .polygon(parts[0]) : .multiPolygon(parts)
    }

    /// The part of `ring` on the inner side of the line from `a` to `b`.
    private static func clip(_ ring: [Point2D], edgeFrom a: Point2D, to b: Point2D, orientation: Double) -> [Point2D] {
        func side(_ p: Point2D) -> Double { orientation * ((b.x - a.x) * (p.y - a.y) - (b.y - a.y) * (p.x - a.x)) }
        var result: [Point2D] = []
        for (k, current) in ring.enumerated() {
            let next = ring[(k + 1) % ring.count]
            let sc = side(current), sn = side(next)
            if sc >= 0 { result.append(current) }
            if (sc > 0 && sn < 0) || (sc < 0 && sn > 0) {
                let t = sc / (sc - sn)
                result.append(Point2D(x: current.x + t * (next.x - current.x), y: current.y + t * (next.y - current.y)))
            }
        }
        return result
    }
}

extension OSMLevelMapping {
    /// The suburb boundaries with the suburb nodes Nominatim ranks below them around them (`OSMSubpartNodes`).
    static func withSubpartNodes(_ boundaries: [PendingArea], suburbNodes: [OSMPlaceNodeAreas.Node]) -> [PendingArea] {
        // A suburb node (address rank 20) inside a suburb boundary of rank 20.
        let (inside, outside) = OSMSubpartNodes.areas(
            of: suburbNodes, types: ["suburb"], halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(suburbType: $0) },
            names: boundaries.map(\.name), boundaries: OSMSubpartNodes.Outlines(boundaries), excluded: OSMSubpartNodes.Outlines([Shape]()))
        func area(_ cell: (node: OSMPlaceNodeAreas.Node, shape: Shape), below: Int? = nil) -> PendingArea {
            PendingArea(cell: cell.shape, around: cell.node, below: below)
        }
        return inside.map { area(($0.node, $0.shape), below: inside.count + $0.boundary) } + boundaries + outside.map { area($0) }
    }

    /// The municipality boundaries, finest rank first, with the town and village nodes (address rank 16) inside
    /// a coarser one (Andorra's parishes, rank 14) that they are not linked to, cut to it, between the two: such
    /// a node names the city part of the address around it (`OSMSubpartNodes`), even one of the parish's name
    /// (Ordino's town node: its rank is not the parish's, `OSMNameLinks`); one inside a boundary of its own rank
    /// is a part of that (the suburbs, `finish`).
    static func withTownNodes(_ boundaries: [PendingArea], townNodes: [OSMPlaceNodeAreas.Node], links: OSMNameLinks) -> [PendingArea] {
        let finer = boundaries.filter { $0.rank >= 16 }, coarser = boundaries.filter { $0.rank < 16 }
        guard !coarser.isEmpty else { return boundaries }
        // Each node's cell is cut by every other node's, as before the suburb nodes' rule (`perBoundary`): within its
        // parish alone, a village's cell reaches streets that cross a finer municipality boundary of the parish, which
        // Nominatim names before any guess (`insert_addresslines`), a rule the streets' municipality does not follow yet
        // (Andorra's Carretera de la Comella: la Margineda for Nominatim's Andorra la Vella).
        let (inside, _) = OSMSubpartNodes.areas(
            of: townNodes, types: ["city", "town", "village"], halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(townType: $0) },
            names: coarser.map { links.node(linkedTo: $0) != nil ? $0.name : nil }, boundaries: OSMSubpartNodes.Outlines(coarser),
            excluded: OSMSubpartNodes.Outlines(finer), perBoundary: false)
        // Each cut area knows the parish under it, which answers where the node is too fine for the zoom
        // (`dropCityNodeAboveRank`); so does each finer boundary, for the address line Nominatim gives the coarser one
        // too (`enclosingMunicipality`: `insert_addresslines` takes every polygon holding the place).
        let firstCoarser = finer.count + inside.count
        return linkedToCoarser(finer, coarser, firstCoarser: firstCoarser)
            + inside.map { PendingArea(cell: $0.shape, around: $0.node, below: firstCoarser + $0.boundary) } + coarser
    }

    /// The finer boundaries, each `below` the first coarser one holding its point on the surface (numbered from
    /// `firstCoarser`). Each outline is read from disk once: the finer ones' points, then each coarser one for the points
    /// in its box (France's 35,000 communes in their arrondissements).
    private static func linkedToCoarser(_ finer: [PendingArea], _ coarser: [PendingArea], firstCoarser: Int) -> [PendingArea] {
        let points = finer.map(\.shape.pointOnSurface)
        let buckets = BoxBuckets(points.map { BoundingBox(minX: $0.x, minY: $0.y, maxX: $0.x, maxY: $0.y) })
        var linked = finer
        for (number, area) in coarser.enumerated() {
            let shape = area.shape
            for index in buckets.meeting(shape.boundingBox) where linked[index].below == nil {
                if shape.contains(x: points[index].x, y: points[index].y) { linked[index].below = firstCoarser + number }
            }
        }
        return linked
    }

    /// The suburbs with the boundaries of the neighbourhood band after them, and each node's area cut by each
    /// such boundary it overlaps before them (an area below the boundary: `PendingArea.below`). A boundary linked
    /// to a `quarter` or `neighbourhood` node takes that node's address rank (22, 24: `OSMLinkedPlaces`), finer
    /// than a suburb node's (20), so Nominatim's address names the suburb node around it (London's Clerkenwell
    /// around the Inner and Middle Temples, linked to the quarter Temple); its search rank stays its
    /// admin_level's (18), so at zooms 13-15 the boundary answers (`_lookup_area_address`, reverse.py).
    static func withFinerBoundaries(_ suburbs: [PendingArea], finer: [PendingArea]) -> [PendingArea] {
        // Each finer outline is read for its box, then again for each cell it meets (from disk, `OSMShapeFile`).
        let buckets = BoxBuckets(finer.map(\.shape.boundingBox))
        // Each node's pieces just before its area, where its area stands among the suburbs: before a suburb boundary
        // they jumped it, and a point of Monaco's La Condamine inside the landuse Ilot 1 named the suburb node
        // Sainte-Dévote, whose area reaches there, before the boundary (Nominatim: "Ilot 1, La Condamine").
        var pieces: [[PendingArea]] = []
        for area in suburbs {
            var cuts: [PendingArea] = []
            if area.node != nil, area.below == nil, case .polygon(let cell) = area.shape {
                let convex = Array(cell.exterior.dropLast())
                for index in buckets.meeting(area.shape.boundingBox) {
                    guard let cut = OSMSubpartNodes.clip(finer[index].shape, to: convex) else { continue }
                    var piece = area
                    piece.setCell(cut)
                    piece.below = index
                    cuts.append(piece)
                }
            }
            pieces.append(cuts)
        }
        // Where each suburb stands now, for the `below` links into the list.
        var position: [Int] = []
        var count = 0
        for cuts in pieces {
            count += cuts.count
            position.append(count)
            count += 1
        }
        var result: [PendingArea] = []
        for (area, cuts) in zip(suburbs, pieces) {
            result += cuts.map { piece in
                var piece = piece
                piece.below = count + (piece.below ?? 0)
                return piece
            }
            var area = area
            area.below = area.below.map { $0 < position.count ? position[$0] : $0 + count - suburbs.count }
            result.append(area)
        }
        return result + finer
    }
}
