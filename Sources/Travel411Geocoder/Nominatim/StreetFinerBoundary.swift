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
        var memo = SuburbPolygonMemo()
        func finer(at x: Double, _ y: Double) -> Int32? {
            let found = memo.boundary(of: feature(.suburb, x, y)) { finerBoundary(ofPolygon: $0, nodes: nodes)?.feature ?? -1 }
            return found >= 0 ? found : nil
        }
        func ranked(_ feature: Int32?) -> (feature: Int32, rank: Int)? {
            feature.flatMap { feature in placeTypeRank(ofSuburbPolygon: feature).map { (feature, $0) } }
        }
        // Nominatim takes a polygon as a line's when their intersection has more than one point (`getNearFeatures`,
        // lib-sql/functions/partition-functions.sql): a street that only touches a block's corner, a node they share,
        // does not enter it, so only the middles of the street's segments are asked, not their ends.
        var own = finer(at: centroid.longitude, centroid.latitude)
        if own == nil, isLine, let segments = segments() {
            own = Self.nearestArea(on: segments, to: centroid, middlesOnly: true, area: finer)
        }
        guard isLine, let atResult = finer(at: result.longitude, result.latitude), atResult != own, let segments = segments() else {
            return ranked(own)
        }
        let passes = Self.nearestArea(on: segments, to: result, middlesOnly: true) { finer(at: $0, $1) == atResult ? atResult : nil }
        return ranked(passes != nil ? atResult : own)
    }
}
