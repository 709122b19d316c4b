import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM

/// The postcode Nominatim 5.3 gives an object without its own `addr:postcode` (GPL-2.0; its rules, not its code):
///
/// 1. the postcode of the finest address area holding it that carries one (`insert_addresslines`,
///    `lib-sql/functions/placex_triggers.sql`: "Set postcode if we have one", the highest ranking area's): an
///    administrative boundary's `postal_code` tag, Andorra's parishes AD100-AD700, names everything inside it;
/// 2. else `get_nearest_postcode` (`lib-sql/functions/utils.sql`) at its centroid (a street's is its midpoint:
///    `placex_update` passes the centroid for address ranks above 25), within its own country only: the
///    `boundary=postal_code` polygons covering it first (`ORDER BY osm_id is null`), nearest centroid first, then
///    the computed postcode boxes (`OSMStreetPostcodes`); none covering it, no postcode.
///
/// The computed postcodes leave out what the polygons give (`tools/postcodes.py`, `_update_guessed_postcode`):
/// a carrier inside any postcode polygon, and a postcode its country has a polygon of (`excludes`, `hasArea`).
struct OSMPostcodeAreas {
    /// A polygon with a postcode, normalised to its country's form (`OSMPostcodes`).
    struct Area {
        var code: String
        var countryCode: String?
        var shape: Shape
        /// The boundary's `admin_level` for an address area (the finer the higher), 0 for a postal_code polygon.
        var adminLevel: Int
        /// A postal_code polygon's centroid, an address area's point on its surface.
        var centre: Point2D
    }

    private let postalAreas: [Area]
    private let postalBoxes: BoxBuckets
    private let addressAreas: [Area]
    private let addressBoxes: BoxBuckets
    /// Each country's postcodes that have a polygon: `country \0 code`.
    private let areaCodes: Set<String>
    private let countryOf: (Point2D) -> String?
    /// The computed boxes, once the centroids are known (`withComputed`).
    private(set) var computed: OSMStreetPostcodes?

    init(postalAreas: [Area], addressAreas: [Area], countryOf: @escaping (Point2D) -> String?) {
        self.postalAreas = postalAreas
        self.addressAreas = addressAreas
        self.countryOf = countryOf
        postalBoxes = BoxBuckets(postalAreas.map(\.shape.boundingBox))
        addressBoxes = BoxBuckets(addressAreas.map(\.shape.boundingBox))
        areaCodes = Set(postalAreas.map { ($0.countryCode ?? "") + "\u{0}" + $0.code })
    }

    /// The same, answering from the computed boxes too after the polygons.
    func withComputed(_ computed: OSMStreetPostcodes) -> OSMPostcodeAreas {
        var copy = self
        copy.computed = computed
        return copy
    }

    /// The polygons (`postal`: the postal_code ones; `boundaries`: administrative ones with a `postal_code`, as
    /// written) and the postcodes computed beside them from the carriers; with every postcode point, the computed
    /// ones' and the polygons' centres, in the order of the postcodes and countries.
    static func build(
        postal: [(code: String, shape: Shape)], boundaries: [(code: String, shape: Shape, adminLevel: Int)],
        carriers: OSMPostcodeCarriers, postcodes: OSMPostcodes, countryOf: @escaping (Point2D) -> String?
    ) throws -> ([OSMPostcodeCentroid], OSMPostcodeAreas) {
        // A postal_code polygon's point is its centroid (`place_postcode.centroid`, `o.geometry:centroid()` in
        // Nominatim 5.3's lib-lua/themes/nominatim/init.lua), which `get_nearest_postcode` measures from and counts
        // inside an area; its country, the one holding a point on its surface.
        func area(_ written: String, _ shape: Shape, adminLevel: Int) -> Area? {
            let surface = shape.pointOnSurface, country = countryOf(surface)
            let centre = adminLevel == 0 ? shape.areaCentroid ?? surface : surface
            return postcodes.normalised(written, countryCode: country).map {
                Area(code: $0, countryCode: country, shape: shape, adminLevel: adminLevel, centre: centre)
            }
        }
        let areas = OSMPostcodeAreas(
            postalAreas: postal.compactMap { area($0.code, $0.shape, adminLevel: 0) },
            addressAreas: boundaries.compactMap { area($0.code, $0.shape, adminLevel: $0.adminLevel) }, countryOf: countryOf)
        let computed = try carriers.centroids(
            postcodes, countryOf: { countryOf(Point2D(x: $0.longitude, y: $0.latitude)) },
            excluding: { areas.excludes(Point2D(x: $0.longitude, y: $0.latitude)) }
        )
        .filter { !areas.hasArea($0.code, countryCode: $0.countryCode) }
        let all = (computed + areas.postalCentres).sorted { ($0.code, $0.countryCode ?? "") < ($1.code, $1.countryCode ?? "") }
        let settings = NominatimCountrySettings.embedded
        return (all, areas.withComputed(OSMStreetPostcodes(centroids: computed, settings: settings, countryOf: countryOf)))
    }

    /// Whether a carrier at `point` is left out of the computed postcodes: it lies in a postal_code polygon.
    func excludes(_ point: Point2D) -> Bool {
        postalBoxes.holding(x: point.x, y: point.y).contains { postalAreas[$0].shape.contains(x: point.x, y: point.y) }
    }

    /// Whether `code` of `countryCode` has a postal_code polygon, so that no computed box is made of it.
    func hasArea(_ code: String, countryCode: String?) -> Bool { areaCodes.contains((countryCode ?? "") + "\u{0}" + code) }

    /// The postcode polygons' centres, which are postcode points as the computed ones are (Nominatim's
    /// `location_postcodes` holds both).
    var postalCentres: [OSMPostcodeCentroid] {
        postalAreas.map {
            OSMPostcodeCentroid(code: $0.code, countryCode: $0.countryCode, coordinate: OSMLevelMapping.coordinate($0.centre))
        }
    }

    /// The postcode of an object at `point` without its own: its address area's, else the nearest covering one.
    func postcode(at point: Point2D) -> String? {
        addressAreaPostcode(at: point) ?? nearestPostcode(at: point)
    }

    /// The postcode of the finest administrative boundary with a `postal_code` holding `point`, of its country.
    func addressAreaPostcode(at point: Point2D) -> String? {
        let country = countryOf(point)
        var best: Area?
        for index in addressBoxes.holding(x: point.x, y: point.y) {
            let area = addressAreas[index]
            guard area.countryCode == country, area.adminLevel > (best?.adminLevel ?? 0), area.shape.contains(x: point.x, y: point.y)
            else { continue }
            best = area
        }
        return best?.code
    }

    /// `get_nearest_postcode` at a point: the postal_code polygon of the point's country covering it whose centre
    /// is nearest (in degrees, ties to the lower code), else the computed box's.
    func nearestPostcode(at point: Point2D) -> String? {
        let country = countryOf(point)
        var best: (squared: Double, code: String)?
        for index in postalBoxes.holding(x: point.x, y: point.y) {
            let area = postalAreas[index]
            guard area.countryCode == country, area.shape.contains(x: point.x, y: point.y) else { continue }
            let dx = area.centre.x - point.x, dy = area.centre.y - point.y
            let squared = dx * dx + dy * dy
            if best.map({ squared < $0.squared || (squared == $0.squared && area.code < $0.code) }) ?? true { best = (squared, area.code) }
        }
        return best?.code ?? computed?.postcode(at: point)
    }
}
