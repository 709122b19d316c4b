import Foundation
import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// At zooms 14-15 a hamlet or finer place node that answers names the municipality and village part of its own
    /// address, not the query point's: Nominatim 5.3 computes a place node's address lines once, from its own point and
    /// with places of a coarser address rank only (`placex_update` passes `insert_addresslines` the centroid and its
    /// address rank as `max_rank`, lib-sql/functions/placex_triggers.sql), and answers them whatever point found the
    /// node (`complete_address_details`, nominatim_api/results.py). Outside every municipality polygon, its municipality
    /// is the town or village node whose area (`place_node_fuzzy_area`) holds it, least distant by its rank's weight
    /// (`getNearFeatures` ordered by rank, then distance: `PlaceNodeSearch.nearestGuess`), none where no area holds it;
    /// inside a parish that town and village nodes name parts of, of those inside it. Its village part (a village
    /// inside a municipality of another name, address rank 18) and, for a node finer than a hamlet, its hamlet are
    /// picked as for a street (`PlaceNodeSearch.addressParts`), around the node. North of Bayreuth the hamlet Theta is
    /// "Theta, Unterkonnersreuth" and Hochtheta names no village, where the query points' node areas named Sandreuth
    /// and Weiherhaus.
    func takeOwnAddressOfAnsweringNode(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard (20...25).contains(maximumRank), record.street < 0, record.object < 0,
            let answering = answeringNode(of: record, maximumRank: maximumRank)
        else { return }
        takeOwnMunicipalityOfAnsweringNode(&record, at: answering.point, villagePart: answering.fine == nil)
        if let fine = answering.fine {
            takeOwnSuburbOfAnsweringFineNode(&record, node: fine)
        } else if let nodes = lookup.suburbNodeSearch() {
            // A suburb node answering names the suburb boundary holding it after itself (`suburbBoundaryLine`).
            record.suburbBoundaryLine = suburbBoundary(at: answering.point, nodes: nodes)
        }
    }

    /// The municipality of `takeOwnAddressOfAnsweringNode` from the town and village nodes, and when asked the village
    /// part (a fine node's is `takeOwnSuburbOfAnsweringFineNode`'s).
    private func takeOwnMunicipalityOfAnsweringNode(_ record: inout PlacemarkRecord, at point: Coordinate, villagePart: Bool) {
        guard let cityNodes = lookup.cityNodeSearch(), !cityNodes.isEmpty else { return }
        let holding = feature(.city, point.longitude, point.latitude)
        // A municipality polygon holding the node names it (`getNearFeatures` puts polygons before guesses).
        if holding >= 0, !cityNodes.isNodeArea(holding) { return }
        let parish = holding >= 0 ? cityNodes.node(ofFeature: holding)?.boundaryBelow ?? -1 : -1
        let guess = cityNodes.nearestGuess(near: point) { node, box in
            parish < 0 || node.boundaryBelow == parish ? Self.distance(of: node, from: point, within: box) : nil
        }
        record.cityArea = guess ?? (parish >= 0 ? holding : -1)
        if record.cityArea < 0 { record.locality = -1 }
        guard villagePart, let suburbNodes = lookup.suburbNodeSearch() else { return }
        let parts = suburbNodes.addressParts(
            near: point, municipality: record.cityArea, townNode: townNode(ofCity: record.cityArea), cityNodes: cityNodes
        ) { node, box in
            Self.distance(of: node, from: point, within: box)
        }
        record.villagePart = parts.village ?? -1
    }

    /// The hamlet or finer node answering at this zoom: the fine place node, else the suburb node of the suburb area
    /// when it is no village part (a village's own address has no village part); nil for neither.
    private func answeringNode(of record: PlacemarkRecord, maximumRank: Int) -> (point: Coordinate, fine: FinePlaceNodes.Node?)? {
        if record.finePlace >= 0 {
            guard let node = lookup.finePlaceNodes()?.node(record.finePlace) else { return nil }
            return (Coordinate(latitude: node.y, longitude: node.x), node)
        }
        guard record.suburbArea >= 0, let node = lookup.suburbNodeSearch()?.node(ofFeature: record.suburbArea), !node.isVillage,
            node.rank <= maximumRank
        else { return nil }
        return (Coordinate(latitude: node.y, longitude: node.x), nil)
    }

    /// A node's distance from a point in degrees, as PostGIS measures it, when its box (half-widths `box`) holds the
    /// point; nil otherwise.
    static func distance(of node: PlaceNodeSearch.Node, from point: Coordinate, within box: (x: Double, y: Double)) -> Double? {
        distance(x: node.x, y: node.y, from: point, within: box)
    }

    /// `distance(of:from:within:)` of a node at (x, y).
    static func distance(x: Double, y: Double, from point: Coordinate, within box: (x: Double, y: Double)) -> Double? {
        let dx = x - point.longitude, dy = y - point.latitude
        guard abs(dx) <= box.x, abs(dy) <= box.y else { return nil }
        return (dx * dx + dy * dy).squareRoot()
    }
}
