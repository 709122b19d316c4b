import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// The postcode Nominatim 5.3 gives a place at `node` from the postal_code polygons (GPL-2.0; its rules, not its
    /// code): of the polygons of the place's country covering it, the one whose centroid is nearest in degrees
    /// (`get_nearest_postcode`, lib-sql/functions/utils.sql: `ST_Covers`, `ORDER BY osm_id is null, ST_Distance(p.centroid,
    /// geom)`), before any postcode computed from addresses. Istanbul's quarters Moda and Bahariye lie in the polygon of
    /// 34710, whose centroid is 1.3 km away, though a computed 34714 is nearer. A polygon's postcode must be its country's
    /// (`NominatimCountrySettings.postcode`: a neighbour's of another form is not), and is answered as the postcode point
    /// the import made of its centroid (`OSMPostcodeAreas.postalCentres`). nil where no polygon covers the node.
    func postalPolygonPostcode(at node: Coordinate, countryCode: String, settings: NominatimCountrySettings) -> Int32? {
        guard let polygons = lookup.postalPolygons(), !polygons.isEmpty else { return nil }
        var best: (degreesSquared: Double, code: String, id: UInt32)?
        for polygon in polygons.covering(x: node.longitude, y: node.latitude) {
            guard let code = settings.postcode(polygon.writtenCode, countryCode: countryCode),
                let centre = postcodePoint(coded: code, inside: polygon.box, near: node)
            else { continue }
            let dx = centre.at.longitude - node.longitude, dy = centre.at.latitude - node.latitude
            let degreesSquared = dx * dx + dy * dy
            if best.map({ (degreesSquared, code) < ($0.degreesSquared, $0.code) }) ?? true { best = (degreesSquared, code, centre.id) }
        }
        return best.map { Int32($0.id) }
    }

    /// The postcode point of `code` inside `box` nearest to `node`: a polygon's centroid lies inside its box.
    private func postcodePoint(coded code: String, inside box: BoundingBox, near node: Coordinate) -> (id: UInt32, at: Coordinate)? {
        // A hair around the box: the centroid is computed from the same vertices, but not on the box's edge.
        let margin = 1e-7
        let corners = [(box.minX, box.minY), (box.minX, box.maxY), (box.maxX, box.minY), (box.maxX, box.maxY)]
        let radius =
            (corners.map { GreatCircle.distance(from: node, to: Coordinate(latitude: $0.1, longitude: $0.0)) }.max() ?? 0) + 1
        let query = PointIndex.Query(node)
        return withPoints(.postcode, near: node, within: radius) { points -> (id: UInt32, at: Coordinate)? in
            let nearest = points.index.nearest(to: query, maxChord: PointIndex.chord(metres: radius)) { id in
                guard let bytes = points.records.bytes(Int(id), 0), bytes.elementsEqual(code.utf8),
                    let at = points.records.coordinate(Int(id))
                else { return false }
                return at.longitude >= box.minX - margin && at.longitude <= box.maxX + margin && at.latitude >= box.minY - margin
                    && at.latitude <= box.maxY + margin
            }
            guard let id = nearest, let at = points.records.coordinate(Int(id)) else { return nil }
            return (id, at)
        } ?? nil
    }
}
