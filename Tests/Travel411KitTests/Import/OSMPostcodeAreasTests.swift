import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM

/// Nominatim 5.3's postcode of an object without its own (`insert_addresslines`, then `get_nearest_postcode` of
/// `lib-sql/functions/utils.sql`), on squares placed over Andorra and its French neighbour: the country of each
/// point is Natural Earth's, as an extract without country polygons gives it.
@Suite struct OSMPostcodeAreasTests {
    static func square(_ minX: Double, _ minY: Double, _ size: Double) -> Shape {
        .polygon(
            Polygon(exterior: [
                Point2D(x: minX, y: minY), Point2D(x: minX + size, y: minY), Point2D(x: minX + size, y: minY + size),
                Point2D(x: minX, y: minY + size), Point2D(x: minX, y: minY),
            ]))
    }

    static let countries = try! OSMCountryOfPoint(extractCountries: [], box: BoundingBox(minX: 1.3, minY: 42.3, maxX: 1.9, maxY: 42.8))

    static func areas(postal: [OSMPostcodeAreas.Area], address: [OSMPostcodeAreas.Area], computed: [OSMPostcodeCentroid])
        -> OSMPostcodeAreas
    {
        let countryOf = { (point: Point2D) in countries.countryCode(at: point) }
        return OSMPostcodeAreas(postalAreas: postal, addressAreas: address, countryOf: countryOf)
            .withComputed(OSMStreetPostcodes(centroids: computed, settings: NominatimCountrySettings.embedded, countryOf: countryOf))
    }

    static func area(_ code: String, _ country: String, _ shape: Shape, adminLevel: Int) -> OSMPostcodeAreas.Area {
        OSMPostcodeAreas.Area(code: code, countryCode: country, shape: shape, adminLevel: adminLevel, centre: shape.pointOnSurface)
    }

    /// Canillo's parish (`postal_code=AD100`, admin_level 7) names every point inside it, before a postal_code
    /// polygon or a computed postcode nearer by: the address area's postcode comes first.
    @Test func aParishsPostalCodeIsThePostcodeOfEverythingInsideIt() {
        let country = Self.countries.countryCode(at: Point2D(x: 1.6, y: 42.58))
        #expect(country == "AD")
        let parish = Self.area("AD100", country ?? "", Self.square(1.55, 42.55, 0.1), adminLevel: 7)
        let computed = [OSMPostcodeCentroid(code: "AD200", countryCode: country, coordinate: Coordinate(latitude: 42.58, longitude: 1.6))]
        let areas = Self.areas(postal: [], address: [parish], computed: computed)
        #expect(areas.postcode(at: Point2D(x: 1.6, y: 42.58)) == "AD100")
        // Outside the parish, the computed box (± 5 km, Andorra has no extent of its own) decides.
        #expect(areas.postcode(at: Point2D(x: 1.6, y: 42.54)) == "AD200")
        // Beyond every box, none: Nominatim keeps no nearest-point fallback.
        #expect(Self.countries.countryCode(at: Point2D(x: 1.45, y: 42.50)) == "AD")
        #expect(areas.postcode(at: Point2D(x: 1.45, y: 42.50)) == nil)
    }

    /// A postal_code polygon covering the point wins over a computed postcode whose centroid is nearer
    /// (`ORDER BY osm_id is null`), and its carriers and its code make no computed postcode.
    @Test func aPostalCodePolygonComesBeforeTheComputedBoxes() {
        let country = Self.countries.countryCode(at: Point2D(x: 1.52, y: 42.52))
        let polygon = Self.area("AD500", country ?? "", Self.square(1.45, 42.45, 0.1), adminLevel: 0)
        let computed = [OSMPostcodeCentroid(code: "AD700", countryCode: country, coordinate: Coordinate(latitude: 42.52, longitude: 1.521))]
        let areas = Self.areas(postal: [polygon], address: [], computed: computed)
        #expect(areas.postcode(at: Point2D(x: 1.52, y: 42.52)) == "AD500")
        #expect(areas.excludes(Point2D(x: 1.5, y: 42.5)))
        #expect(!areas.excludes(Point2D(x: 1.6, y: 42.6)))
        #expect(areas.hasArea("AD500", countryCode: country))
        #expect(!areas.hasArea("AD500", countryCode: "FR"))
    }

    /// A postcode of another country never answers, however near: a French commune's `postal_code` and a
    /// French computed postcode leave a point in Andorra without one.
    @Test func anotherCountrysPostcodeNeverAnswers() {
        let andorra = Self.countries.countryCode(at: Point2D(x: 1.6, y: 42.55))
        #expect(andorra == "AD")
        let commune = Self.area("09390", "FR", Self.square(1.55, 42.50, 0.1), adminLevel: 8)
        let computed = [OSMPostcodeCentroid(code: "09390", countryCode: "FR", coordinate: Coordinate(latitude: 42.55, longitude: 1.6))]
        let areas = Self.areas(postal: [], address: [commune], computed: computed)
        #expect(areas.postcode(at: Point2D(x: 1.6, y: 42.55)) == nil)
    }
}
