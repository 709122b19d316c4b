import Foundation
import Travel411Core
import Travel411OSM

/// The postcode Nominatim gives a municipality or suburb itself, which its answer carries at zooms 10-15 and
/// when no street is within reach at 18 (its `get_nearest_postcode` on the place): a polygon has the one
/// postcode point inside it, none when there are several or none (Triesen 9495; Eschen, with two, none); a
/// place node has the nearest postcode point whose box of ± the country's extent holds it, as a street's
/// midpoint does (`OSMStreetPostcodes`): Helsinki's city node 00100, Kaisaniemi's suburb node 00014.
struct OSMAreaPostcodes {
    private let centroids: [OSMPostcodeCentroid]
    private let boxes: BoxBuckets
    private let nearest: OSMStreetPostcodes
    private let countryOf: (Point2D) -> String?

    package init(centroids: [OSMPostcodeCentroid], nearest: OSMStreetPostcodes, countryOf: @escaping (Point2D) -> String?) {
        self.centroids = centroids
        self.countryOf = countryOf
        boxes = BoxBuckets(
            centroids.map {
                let (x, y) = ($0.coordinate.longitude, $0.coordinate.latitude)
                return BoundingBox(minX: x, minY: y, maxX: x, maxY: y)
            })
        self.nearest = nearest
    }

    /// `node`: the place node an area was drawn around (`OSMPlaceNodeAreas`), nil for a real polygon.
    package func postcode(of shape: Shape, node: Point2D?) -> String? {
        if let node { return nearest.postcode(at: node) }
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
