import Foundation
import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// A neighbourhood-rank polygon that answers (a `place=neighbourhood` area, a named landuse area: address rank 24)
    /// names the quarter node of its own address, whatever point found it: Nominatim 5.3 computes an area's address lines
    /// at its centroid (`placex_update` passes `insert_addresslines` the centroid, a point on its surface, and its address
    /// rank as `max_rank`, lib-sql/functions/placex_triggers.sql), as a place node's at its point
    /// (`takeOwnSuburbOfAnsweringFineNode`): the nearest quarter node whose box holds it, inside the suburb boundary
    /// there. Makati's San Lorenzo Village (`landuse=residential`) is "San Lorenzo Village, San Lorenzo, Makati" at
    /// zoom 15; the polygon is its own neighbourhood line (`neighbourhoodArea`), the quarter follows it.
    func takeOwnQuarterOfAnsweringPolygon(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard record.street < 0, record.object < 0, record.finePlace < 0, record.quarter < 0, record.quarterArea < 0,
            let fine = lookup.finePlaceNodes(), !fine.isEmpty, case let nodes = lookup.suburbNodeSearch(),
            let polygon = finerBoundary(ofPolygon: record.suburbArea, nodes: nodes.map(Unmanaged.passUnretained)),
            polygon.feature == record.suburbArea, polygon.rank == 24,
            suburbPolygonAnswers(polygon.feature, at: record.location, maximumRank: maximumRank),
            let centre = areaFeature(.suburb, polygon.feature, rank: Self.suburbAreaRank, location: record.location)?.location
        else { return }
        func boundary(at point: Coordinate) -> Int32 { nodes.map { suburbBoundary(at: point, nodes: $0) } ?? -1 }
        let own = boundary(at: centre)
        record.neighbourhoodArea = polygon.feature
        record.quarter =
            fine.nearestQuarter(near: centre) { node, box in
                guard own < 0 || boundary(at: Coordinate(latitude: node.y, longitude: node.x)) == own else { return nil }
                return Self.distance(x: node.x, y: node.y, from: centre, within: box)
            } ?? -1
    }
}
