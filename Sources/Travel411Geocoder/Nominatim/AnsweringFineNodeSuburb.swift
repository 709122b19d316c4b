import Foundation
import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// A fine place node that answers names the suburb, village part, quarter and neighbourhood of its own address,
    /// whatever point found it: Nominatim 5.3 computes a place's address lines at its own point (`insert_addresslines`,
    /// lib-sql/functions/placex_triggers.sql) as for a street there. The suburb boundary holding the node
    /// (`current_boundary`, `SuburbBoundaryOfStreet`) confines the suburb nodes; the nearest of them inside it whose
    /// box holds the node is a finer part than the boundary and names the suburb (the boundary follows it in
    /// `display_name`: `suburbBoundaryLine`), else the boundary does; then the quarter and neighbourhood nodes inside
    /// both whose boxes hold a finer node. In München's old town the neighbourhood Kreuzviertel is "Kreuzviertel,
    /// Altstadt, Bezirksteil Kreuzviertel" and the square Reichenbachplatz "Reichenbachplatz, Gärtnerplatz, Bezirksteil
    /// Gärtnerplatz" at every point they answer; travel411 kept the suburb polygon holding the query's point.
    func takeOwnSuburbOfAnsweringFineNode(_ record: inout PlacemarkRecord, node: FinePlaceNodes.Node) {
        guard let nodes = lookup.suburbNodeSearch() else { return }
        let point = Coordinate(latitude: node.y, longitude: node.x)
        let atNode = feature(.suburb, node.x, node.y)
        let boundary = suburbBoundary(ofPolygon: atNode, nodes: nodes)
        let parts = nodes.addressParts(
            near: point, municipality: record.cityArea, townNode: townNode(ofCity: record.cityArea), cityNodes: lookup.cityNodeSearch(),
            boundary: boundary
        ) { candidate, box in
            Self.distance(of: candidate, from: point, within: box)
        }
        // As a street's (`takeSuburbAndNeighbourhood`): one part alone is the suburb, both, the village the coarser; without
        // a node part, the polygon holding the node: the confining boundary, or one of a finer band.
        let polygon = atNode >= 0 && !nodes.isNodeArea(atNode) ? atNode : -1
        let nodePart = parts.part ?? parts.village
        record.suburbArea = nodePart ?? (boundary >= 0 ? boundary : polygon)
        record.villagePart = parts.part != nil ? parts.village ?? -1 : -1
        record.suburbBoundaryLine = nodePart != nil ? boundary : -1
        if nodePart == nil, record.suburbArea >= 0 { dropSuburbOfAnotherCity(&record) }
        // Its quarter and neighbourhood as a street's at its point (`takeNeighbourhood`: inside the part's box and the
        // boundary, the neighbourhood inside the quarter's box), its own lines only of a coarser address rank than its
        // own: Makati's neighbourhood Legazpi is "Legazpi, San Lorenzo, Makati", San Lorenzo a quarter node.
        guard node.rank > 22 else { return record.quarter = -1 }
        takeNeighbourhood(&record, answer: point, finer: nil, onStreet: true, ownBoundary: boundary) { x, y, box in
            Self.distance(x: x, y: y, from: point, within: box)
        }
        if node.rank <= 24 { record.neighbourhood = -1 }
    }
}
