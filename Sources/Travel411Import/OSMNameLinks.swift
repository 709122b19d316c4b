import Foundation
import Travel411Core
import Travel411Geocoder

/// The place nodes a polygon links to by its name, as Nominatim 5.3 links them (GPL-2.0; its rules, not its code):
/// the last step of `find_linked_place` (`lib-sql/functions/placex_triggers.sql`) takes a place node whose name
/// is the boundary's, inside it, and whose address rank in its country (`compute_place_rank` of the node) is
/// the boundary's own address rank. So Gamprin's boundary (admin_level 8, rank 16) is its `village` node (rank
/// 16), while Ordino's parish (admin_level 7, rank 14: Andorra has no entry of its own in address-levels.json)
/// is not its `town` node (rank 16): the parish answers as a `municipality` and the town beside it, inside it.
/// (Encamp's parish is its town node by their common `wikidata`, an earlier step: `OSMLinkedPlaces`.)
struct OSMNameLinks {
    /// The nodes by their names' keys (`OSMParentStreets.key`), each name's in the order they came, with each
    /// node's address rank in its country (nil where Nominatim's settings do not rank its type, or are missing).
    private let byName: [[UInt8]: [(node: OSMPlaceNodeAreas.Node, rank: Int?)]]

    /// `countryOf` gives a node's country, whose address levels rank it (`NominatimAddressLevels`).
    init(_ nodes: [OSMPlaceNodeAreas.Node], countryOf: (Point2D) -> String?) {
        let levels = NominatimAddressLevels.embedded
        var byName: [[UInt8]: [(node: OSMPlaceNodeAreas.Node, rank: Int?)]] = [:]
        for node in nodes {
            let rank = levels?.placeRanks(type: node.type, countryCode: countryOf(node.point), isCapital: node.isCapital)?.address
            byName[OSMParentStreets.key(node.name), default: []].append((node, rank))
        }
        self.byName = byName
    }

    /// The node linked to `area`: the first of its name inside it, of the boundary's address rank (`rank`; a place
    /// polygon, rank 0, takes any, as its own type ranks it with its node). Nominatim keys a linked polygon by the
    /// node's type in an address (an unlinked municipality is its `city`, admin_level 8, or its `municipality`, 7;
    /// an unlinked suburb its `suburb`, 10, or `city_district`, 9) and answers at the node's point (an unlinked
    /// one at a point on its surface: Mauren). The outline is read back (`OSMShapeFile`) once, and only the nodes
    /// inside its box are tested: an extract of many towns of one name (2,400 copies of Liechtenstein) read it
    /// for every node of the name, growing with the square of the extract.
    func node(linkedTo area: OSMLevelMapping.PendingArea) -> OSMPlaceNodeAreas.Node? {
        guard let named = byName[OSMParentStreets.key(area.name)] else { return nil }
        let ranked = named.filter { area.rank == 0 || $0.rank.map { $0 == area.rank } ?? true }.map(\.node)
        guard !ranked.isEmpty else { return nil }
        let shape = area.shape, box = shape.boundingBox
        return ranked.first { box.contains(x: $0.point.x, y: $0.point.y) && shape.contains(x: $0.point.x, y: $0.point.y) }
    }
}
