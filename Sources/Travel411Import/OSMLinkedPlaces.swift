import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store

/// The place nodes a boundary links to by its `wikidata` item, as Nominatim 5.3 links them (GPL-2.0; its rules,
/// not its code): `find_linked_place` (`lib-sql/functions/placex_triggers.sql`) takes a place node (search rank
/// below 26) with the boundary's `wikidata` inside it, whatever the two ranks, and `placex_update` then gives
/// the boundary the node's address rank when that is finer than the boundary's parent's and coarser than 26,
/// and keys it by the node's type (`linked_place`). So Porto's parish Vitória (admin_level 9, rank 18) linked
/// to its `neighbourhood` node is a neighbourhood (rank 24), not a suburb, and the suburb nodes around it
/// (Carregal, Centro Histórico) name the suburbs.
struct OSMLinkedPlaces {
    struct Node {
        var elementID: Int64
        var point: Point2D
        var type: String
        var isCapital: Bool
    }

    /// The place nodes with a `wikidata` item, by it.
    private var nodes: [String: [Node]] = [:]
    /// The place nodes a boundary names as its `label` member, by id.
    private var labels: [Int64: Node] = [:]
    /// The named place nodes by their type, with their lower-cased names and `wikidata`, in the order they came
    /// (`node(ofType:named:wikidata:inside:)`).
    private var byType: [String: [(node: Node, name: String, wikidata: String?)]] = [:]
    /// Every node a boundary links: `find_linked_place` takes only a node not linked yet.
    private var linkedIDs: Set<Int64> = []

    var isEmpty: Bool { nodes.isEmpty && labels.isEmpty }

    /// The nodes finer than a suburb that boundaries link to (`LinkedPlaceNodesSchema`), by their ids.
    private(set) var linkedFineNodes: Set<Int64> = []

    /// Where the suburb nodes that boundaries link lie: such a node answers nowhere of its own, the boundary in its
    /// stead, under the boundary's name (`placex_update` sets the node's `linked_place_id`, which every reverse
    /// search skips; the boundary's names come before the node's). Ankara's Bahçelievler Mahallesi (admin_level 8)
    /// has its `place=suburb` node "Bahçelievler Mah." as its `label`.
    private(set) var linkedSuburbPoints: Set<Point2D> = []

    /// Notes that a boundary links `node`: a fine node is then no address part of its own, a suburb node no area.
    mutating func noteLinked(_ node: Node) {
        linkedIDs.insert(node.elementID)
        if LinkedPlaceNodesSchema.fineTypes.contains(node.type) || LinkedPlaceNodesSchema.subpartTypes.contains(node.type) {
            linkedFineNodes.insert(node.elementID)
        }
        if OSMPlaceNodeAreas.halfWidthMetres(suburbType: node.type) != nil { linkedSuburbPoints.insert(node.point) }
    }

    /// Writes the linked fine nodes' ids (`LinkedPlaceNodesSchema`).
    func writeLinkedFineNodes(into database: SQLiteDatabase) throws {
        try database.execute(LinkedPlaceNodesSchema.createStatement)
        let insert = try database.prepare("INSERT OR IGNORE INTO \(LinkedPlaceNodesSchema.tableName) (osm_id) VALUES (?)")
        for id in linkedFineNodes.sorted() { try insert.run([.integer(id)]) }
    }

    /// Keeps a place node a boundary may link to, of any type (an island too, which names no locality):
    /// `find_linked_place` takes the label member whatever it is, and a node of the boundary's `wikidata` of search
    /// rank below 26.
    mutating func add(_ feature: OSMFeature, _ place: OSMPlace, at point: Point2D) {
        let node = Node(elementID: feature.element.id, point: point, type: place.type, isCapital: place.isCapital)
        if let wikidata = feature.wikidata { nodes[wikidata, default: []].append(node) }
        if feature.isLabelMember { labels[node.elementID] = node }
        if let name = feature.name?.lowercased(), !name.isEmpty {
            byType[place.type, default: []].append((node, name, feature.wikidata))
        }
    }

    /// The node linked to a boundary, by `find_linked_place`'s rules in order: its `label` member, its `wikidata`
    /// item, its own `place` type (`node(ofType:named:wikidata:inside:)`).
    func node(linkedTo area: OSMLevelMapping.PendingArea) -> Node? {
        let shape = area.shape
        return node(label: area.labelNode, wikidata: area.wikidata, inside: shape)
            ?? area.boundaryPlace.flatMap { node(ofType: $0, named: area.name, wikidata: area.wikidata, inside: shape) }
    }

    /// The node a boundary tagged `place=type` links by its type, the third rule of `find_linked_place`: a node of
    /// that type inside the boundary, not linked yet, whose lower-cased name contains the boundary's or is contained
    /// in it, of the boundary's `wikidata` where both have one; the first that came. So Stauceni's boundary
    /// (admin_level 10, `place=village`) is its village node, and Codru's (admin_level 8, `place=town`) its town node.
    func node(ofType type: String, named boundaryName: String, wikidata: String?, inside shape: Shape) -> Node? {
        let name = boundaryName.lowercased()
        guard !name.isEmpty, let candidates = byType[type] else { return nil }
        let box = shape.boundingBox
        return candidates.first { candidate in
            !linkedIDs.contains(candidate.node.elementID) && (name.contains(candidate.name) || candidate.name.contains(name))
                && (candidate.wikidata == nil || wikidata == nil || candidate.wikidata == wikidata)
                && box.contains(x: candidate.node.point.x, y: candidate.node.point.y)
                && shape.contains(x: candidate.node.point.x, y: candidate.node.point.y)
        }?.node
    }

    /// The node linked to a boundary with `label`, `wikidata` and `shape`: its label member, wherever it lies and
    /// whatever its type; else the first node with that item inside it (`find_linked_place`, in that order).
    func node(label: Int64?, wikidata: String?, inside shape: Shape) -> Node? {
        if let label, let node = labels[label] { return node }
        guard let wikidata else { return nil }
        return nodes[wikidata]?.first { shape.contains(x: $0.point.x, y: $0.point.y) }
    }

    /// The address rank of a boundary of `rank` linked to `node` whose parent boundary has `parentRank`
    /// (3 without one, as `placex_update` starts): the node's when it is finer than the parent's and coarser
    /// than 26, else the boundary's own.
    static func rank(
        of rank: Int, linkedTo node: Node, parentRank: Int, countryCode: String?, levels: NominatimAddressLevels
    ) -> Int {
        guard let ranks = levels.placeRanks(type: node.type, countryCode: countryCode, isCapital: node.isCapital),
            ranks.address > parentRank, ranks.address < 26
        else { return rank }
        return ranks.address
    }
}

/// The address ranks of the boundaries, to find a boundary's parent: `placex_update` takes the boundary of the
/// highest `admin_level` below its own (and above 3) covering its centroid, of an address rank 1-25.
/// The outlines are read as a candidate needs them (from disk, `OSMShapeFile`): every boundary's outline held at
/// once would grow with the extract (issue 35).
struct OSMBoundaryParents {
    private let boundaries: [(shape: () -> Shape, adminLevel: Int, rank: Int)]
    private let buckets: BoxBuckets

    /// `shape` reads a boundary's outline, `box` is the outline's box.
    init(_ boundaries: [(shape: () -> Shape, box: BoundingBox, adminLevel: Int, rank: Int)]) {
        self.boundaries = boundaries.map { ($0.shape, $0.adminLevel, $0.rank) }
        buckets = BoxBuckets(boundaries.map(\.box))
    }

    /// The parent's address rank of a boundary at `adminLevel` with its centroid at `point`; 3 without one.
    func parentRank(adminLevel: Int, at point: Point2D) -> Int {
        var best: (adminLevel: Int, rank: Int)?
        for index in buckets.holding(x: point.x, y: point.y) {
            let candidate = boundaries[index]
            guard candidate.adminLevel < adminLevel, candidate.adminLevel > 3, (1...25).contains(candidate.rank),
                candidate.adminLevel > (best?.adminLevel ?? 0), candidate.shape().contains(x: point.x, y: point.y)
            else { continue }
            best = (candidate.adminLevel, candidate.rank)
        }
        return best?.rank ?? 3
    }
}
