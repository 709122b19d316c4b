import Travel411Core
import Travel411Store

/// Which area answers at a point, as Nominatim 5.3.3's street-level search takes areas (`_find_closest_street_or_pois`,
/// nominatim_api/reverse.py): only one whose centroid lies within its reach, and of several holding the point the
/// smallest polygon.
extension ReverseGeocoder {
    /// Whether an area may answer at `point`: Nominatim keeps an area among its candidates only when its centroid (a
    /// point on its surface, `get_center_point`, lib-sql/functions/utils.sql: the record's centre) is nearer than
    /// `distance + fuzziness`, 0.007° (`t.c.centroid.ST_Distance(WKT_PARAM) < diststr`), whatever its outline's distance.
    /// An object without a centre is a node, which the rule does not touch.
    static func centroidInReach(of object: UInt32, from point: Coordinate, objects: PlacesLookup.LineLevel) -> Bool {
        guard let centre = centre(of: object, objects: objects) else { return true }
        let dx = centre.longitude - point.longitude, dy = centre.latitude - point.latitude
        return dx * dx + dy * dy < nominatimSearchDegrees * nominatimSearchDegrees
    }

    /// The nearest object within `radiusDegrees` that `accept` takes, passing over areas whose centroid is out of
    /// reach (`centroidInReach`): a large campus whose wall is near but whose middle is 0.01° away is no candidate, and
    /// the building or street behind it answers.
    static func nearestObject(
        to point: Coordinate, radiusDegrees: Double, objects: PlacesLookup.LineLevel, accept: ((UInt32) -> Bool)?
    ) -> (id: UInt32, degrees: Double, closest: Coordinate)? {
        var passed: [UInt32] = []
        // A few areas at most lie between a point and its answer; the bound keeps a pathological cluster cheap.
        while passed.count < 8 {
            let filter: ((UInt32) -> Bool)? =
                passed.isEmpty ? accept : { id in !passed.contains(id) && (accept?(id) ?? true) }
            guard let found = objects.index.nearestInDegrees(to: point, radiusDegrees: radiusDegrees, accept: filter) else { return nil }
            let isArea = !(objects.names.bytes(Int(found.id), PlacesSchema.ObjectField.extent.rawValue)?.isEmpty ?? true)
            if !isArea || centroidInReach(of: found.id, from: point, objects: objects) { return found }
            passed.append(found.id)
        }
        return nil
    }

    /// Of the areas holding a point, the one with the smallest polygon: Nominatim orders the candidates at distance 0
    /// by `ST_Area` ("make sure smaller POI area is returned when two areas overlap", reverse.py after 5.3.2), where
    /// the smaller box may be the larger polygon (an L-shaped building around a square one). Ties keep the first.
    static func smallestPolygon(_ holding: [(id: UInt32, extent: BoundingBox)], objects: PlacesLookup.LineLevel) -> UInt32? {
        guard holding.count > 1 else { return holding.first?.id }
        var best: (id: UInt32, area: Double)?
        for (id, extent) in holding {
            let area = outlineArea(of: id, extent: extent, objects: objects)
            if best.map({ area < $0.area }) ?? true { best = (id, area) }
        }
        return best?.id
    }

    /// The area of an outline in square degrees, by the shoelace formula over its segments as the index stores them
    /// (each once, though a segment crossing several cells is listed in each); inner rings run the other way and
    /// subtract.
    static func outlineArea(of object: UInt32, extent: BoundingBox, objects: PlacesLookup.LineLevel) -> Double {
        var seen = Set<SIMD4<Double>>()
        var twice = 0.0
        objects.index.forEachSegment(ofLine: object, in: widenedPastRounding(extent)) { ax, ay, bx, by in
            guard seen.insert(SIMD4(ax, ay, bx, by)).inserted else { return }
            // Relative to the extent's corner, so that the products do not lose the small differences.
            twice += (ax - extent.minX) * (by - extent.minY) - (bx - extent.minX) * (ay - extent.minY)
        }
        return abs(twice) / 2
    }
}
