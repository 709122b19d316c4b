import Foundation
import Travel411Core
import Travel411OSM

/// The postcode Nominatim gives a municipality or suburb itself, which its answer carries at zooms 10-15 and
/// when no street is within reach at 18: its own `postal_code` (Andorra's parishes); else, for a polygon, the one
/// postcode point of its country inside it, none when there are several or none (Triesen 9495; Eschen, with two,
/// none: `get_nearest_postcode` on an area, `lib-sql/functions/utils.sql`); for a place node, its address area's
/// or the nearest covering postcode at its point (`OSMPostcodeAreas`): Helsinki's city node 00100, Kaisaniemi's
/// suburb node 00014.
struct OSMAreaPostcodes {
    private let centroids: [OSMPostcodeCentroid]
    private let boxes: BoxBuckets
    private let areas: OSMPostcodeAreas
    private let countryOf: (Point2D) -> String?

    init(centroids: [OSMPostcodeCentroid], areas: OSMPostcodeAreas, countryOf: @escaping (Point2D) -> String?) {
        self.centroids = centroids
        self.countryOf = countryOf
        boxes = BoxBuckets(
            centroids.map {
                let (x, y) = ($0.coordinate.longitude, $0.coordinate.latitude)
                return BoundingBox(minX: x, minY: y, maxX: x, maxY: y)
            })
        self.areas = areas
    }

    /// The postcode a place inside the area inherits (`AreaText.taggedPostcode`): Nominatim keeps in `location_area` only
    /// a tagged one (`placex_update` passes `add_location` the postcode it has before `get_nearest_postcode`): the area's
    /// own, else, for a place node's area, that of the finest boundary with a `postal_code` holding the node
    /// (`insert_addresslines`): the village el Tarter's area, cut to the parish Canillo, passes on AD100. A polygon's
    /// coarser areas are the answer's own levels (`ReverseGeocoder.taggedPostcodeArea`).
    func taggedPostcode(node: Point2D?, own: String?) -> String? {
        own ?? node.flatMap { areas.addressAreaPostcode(at: $0) }
    }

    /// `node`: the place node an area was drawn around (`OSMPlaceNodeAreas`), nil for a real polygon; `own`: the
    /// boundary's own postcode, normalised.
    func postcode(of shape: Shape, node: Point2D?, own: String? = nil) -> String? {
        if let own { return own }
        if let node { return areas.postcode(at: node) }
        var found: String?
        let country = countryOf(shape.pointOnSurface)
        for centroid in boxes.meeting(shape.boundingBox).lazy.map({ centroids[$0] })
        where centroid.countryCode == country && shape.contains(x: centroid.coordinate.longitude, y: centroid.coordinate.latitude) {
            guard found == nil else { return nil }
            found = centroid.code
        }
        return found
    }
}
