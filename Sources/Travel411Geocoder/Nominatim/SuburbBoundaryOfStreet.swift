import Foundation
import Travel411Core
import Travel411Store

/// The suburb boundary that confines a street's suburb nodes, as Nominatim 5.3's `insert_addresslines`
/// (`lib-sql/functions/placex_triggers.sql`, GPL-2.0; its rule, not its code) confines them: it walks the street's
/// address candidates by address rank, and a guessed place (a node) outside `current_boundary`, the last polygon it
/// named, is skipped. A suburb node inside a suburb boundary of its own rank is moved two ranks below it
/// (`placex_update`, "make the node a subpart"), so the boundary is named first, the one nearest the street's
/// centroid (`getNearFeatures`, `lib-sql/functions/partition-functions.sql`), and then only the nodes inside it can
/// be: a street of Bezirksteil Graggenau names Graggenauerviertel, the node inside it, not Altstadt, a nearer node of
/// Bezirksteil Kreuzviertel.
extension ReverseGeocoder {
    /// The suburb boundary holding `point` that confines the suburb nodes' parts (a node's area cut to the boundary
    /// holding the node counts as that boundary); -1 for none.
    func suburbBoundary(at point: Coordinate, nodes: PlaceNodeSearch) -> Int32 {
        var holder = feature(.suburb, point.longitude, point.latitude)
        guard holder >= 0 else { return -1 }
        if nodes.isNodeArea(holder) {
            guard let below = nodes.boundaryBelow(holder) else { return -1 }
            holder = below
        }
        return confinesSuburbNodes(holder) ? holder : -1
    }

    /// Whether a suburb-level polygon comes before the suburb nodes in Nominatim's address (a rank coarser than 22),
    /// rather than after them: a boundary of the neighbourhood band (`OSMLevelMapping.withFinerBoundaries`: London's
    /// Inner and Middle Temples, a `quarter`; Porto's parishes, `neighbourhood`) lies over the suburb nodes' parts
    /// and confines none. The import keys each boundary by its place type (`placeType`), whose address rank says which.
    /// No country is passed: address-levels.json (Nominatim 5.3) has no per-country ranks for these place types
    /// (borough, suburb, quarter, neighbourhood), only the default entry's.
    private func confinesSuburbNodes(_ feature: Int32) -> Bool {
        guard let bytes = lookup.area(.suburb)?.bytes(Int(feature), .placeType), !bytes.isEmpty,
            let rank = NominatimAddressLevels.embedded?.placeRanks(type: String(decoding: bytes, as: UTF8.self), countryCode: nil)?.address
        else { return true }
        return rank < 22
    }
}
