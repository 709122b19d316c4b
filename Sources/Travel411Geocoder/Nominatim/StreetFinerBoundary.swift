import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// The boundary of the neighbourhood band (`finerBoundary`: a quarter's or a neighbourhood's polygon) that an
    /// answer's address names. Without a street, the one holding the answer's point (`answerPolygon`). On a street, the
    /// street's, as Nominatim 5.3 gives an object parented by a street that street's address lines (`placex_update`,
    /// lib-sql/functions/placex_triggers.sql, takes a shortcut once the parent street is found): each polygon the
    /// street's line enters is one of its lines, the one nearest its centroid the `isaddress` one (`insert_addresslines`,
    /// `getNearFeatures`), and `complete_address_details` (`nominatim_api/results.py`) takes, per rank, a line whose
    /// polygon holds the result's centroid before the `isaddress` one. Cuenca's neighbourhood polygons are single blocks:
    /// the Banco de Guayaquil on Mariscal Sucre names Parque de la UNE, the street's, not San Alfonso, at its point.
    func finerBoundary(
        ofAnswerOn street: UInt32?, streets: PlacesLookup.LineLevel, result: Coordinate, answerPolygon: Int32,
        segments: () -> LineSegments?, nodes: Unmanaged<PlaceNodeSearch>?
    ) -> (feature: Int32, rank: Int)? {
        guard let street else { return finerBoundary(ofPolygon: answerPolygon, nodes: nodes) }
        let fields = PlacesSchema.StreetField.self
        guard let centroid = Self.point(streets.names.bytes(Int(street), fields.centroid.rawValue)) else { return nil }
        let isLine = Self.point(streets.names.bytes(Int(street), fields.centre.rawValue)) == nil
        // Each suburb polygon met is judged once (whether it is a node's area, the boundary below it, its rank).
        var judged: [Int32: (feature: Int32, rank: Int)?] = [:]
        func finer(at x: Double, _ y: Double) -> (feature: Int32, rank: Int)? {
            let polygon = feature(.suburb, x, y)
            guard polygon >= 0 else { return nil }
            if let known = judged[polygon] { return known }
            let found = finerBoundary(ofPolygon: polygon, nodes: nodes)
            judged[polygon] = .some(found)
            return found
        }
        var own = finer(at: centroid.longitude, centroid.latitude)
        if own == nil, isLine, let segments = segments() { own = Self.entered(by: segments, nearest: centroid, finer) }
        guard isLine, let atResult = finer(at: result.longitude, result.latitude), atResult.feature != own?.feature,
            let segments = segments()
        else { return own }
        let passes = Self.entered(by: segments, nearest: result) { finer(at: $0, $1)?.feature == atResult.feature ? atResult : nil }
        return passes != nil ? atResult : own
    }

    /// The polygon `finer` finds at the middle of a segment of the line, the middle nearest `point`. Nominatim takes a
    /// polygon as a line's when their intersection has more than one point (`getNearFeatures`,
    /// lib-sql/functions/partition-functions.sql): a street that only touches a block's corner, a node they share, does
    /// not enter it, so the segments' ends, which may be such corners, are not asked.
    private static func entered(
        by segments: LineSegments, nearest point: Coordinate, _ finer: (Double, Double) -> (feature: Int32, rank: Int)?
    ) -> (feature: Int32, rank: Int)? {
        let c = segments.coordinates
        var best: (squared: Double, found: (feature: Int32, rank: Int))?
        for i in stride(from: 0, to: c.count - 3, by: 4) {
            let x = (c[i] + c[i + 2]) / 2, y = (c[i + 1] + c[i + 3]) / 2
            let dx = x - point.longitude, dy = y - point.latitude
            let squared = dx * dx + dy * dy
            guard best.map({ squared < $0.squared }) ?? true, let found = finer(x, y) else { continue }
            best = (squared, found)
        }
        return best?.found
    }
}
