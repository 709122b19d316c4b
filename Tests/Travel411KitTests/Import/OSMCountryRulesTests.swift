import Foundation
import Testing
import Travel411OSMReader
import Travel411TestSupport

@testable import Travel411Answers
@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411OSM
@testable import Travel411Store

/// The rules that depend on a point's country, on the real extracts imported alone: postcodes in the
/// country's form (Nominatim's `country_settings.yaml`), the extract's own border before Natural Earth's, the
/// time zone of the country answered.
@Suite struct OSMCountryRulesTests {
    /// By the Rhine dam opposite Ruggell, just outside the extract's own Liechtenstein boundary (relation 47) and
    /// inside Switzerland's piece of Nominatim's country grid: Switzerland, as Nominatim's `get_country_code` puts
    /// the point, with nothing of Liechtenstein (no municipality, no Liechtenstein postcode) and Switzerland's time
    /// zone. Before the grid no polygon held the points and they took the nearest country, Liechtenstein.
    @Test func aPointByTheRhineOutsideLiechtensteinsBoundaryIsSwiss() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        for point in [Coordinate(latitude: 47.2420, longitude: 9.5150), Coordinate(latitude: 47.2380, longitude: 9.5100)] {
            let placemark = geocoder.placemark(for: point)
            #expect(placemark.isoCountryCode == "CH")
            #expect(placemark.locality == nil)
            #expect(placemark.postalCode == nil)
            #expect(placemark.timeZone == "Europe/Zurich")
        }
    }

    /// Points in Switzerland and Austria inside the areas drawn around Liechtenstein's place nodes (Gamprin-Bendern's
    /// across the Rhine, Schaanwald's over the Austrian border) name no part of Liechtenstein: Nominatim takes a
    /// place's address areas from its own country only (`SameCountryAreas`). Over a grid of Liechtenstein's box,
    /// no answer of another country names a Liechtenstein suburb, municipality or neighbourhood, at zoom 18 or 14.
    @Test func noAnswerNamesAPartOfAnotherCountry() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let swiss = geocoder.placemark(for: Coordinate(latitude: 47.186, longitude: 9.48))
        #expect(swiss.isoCountryCode == "CH")
        #expect(swiss.subLocality == nil)
        #expect(swiss.name == "Switzerland")
        var answeredAbroad = 0
        for zoom in [18, 14] {
            for latitude in stride(from: 47.05, through: 47.27, by: 0.005) {
                for longitude in stride(from: 9.47, through: 9.64, by: 0.005) {
                    let record = geocoder.record(
                        for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom))
                    let placemark = geocoder.placemark(from: record)
                    guard let code = placemark.isoCountryCode, code != "LI" else { continue }
                    answeredAbroad += 1
                    // The extract has no Swiss or Austrian municipality: every one it has is Liechtenstein's.
                    #expect(record.cityArea < 0 && record.suburbArea < 0, "\(latitude), \(longitude): \(placemark)")
                    #expect(record.neighbourhood < 0 && record.villagePart < 0)
                }
            }
        }
        #expect(answeredAbroad > 1_000)
    }

    /// The extract with Data/'s places, countries and time zones as layers of their own (as `travel411 import Data/
    /// extract.osm.pbf` has them) answers as the extract alone: inside the extract's data GeoNames' places give way
    /// to the extract's in both where its towns reach (`ExtractPlaces`), so the nearest place and its distance are the same.
    @Test func dataAndTheExtractAnswerAsTheExtractAlone() throws {
        let data = try EmbeddedData.locate()
        let layers = ["countries/ne_10m_admin_0_countries.shp", "timezones/iana_time_zones.shp", "localities/geonames_cities1000.shp"]
            .map { data.appendingPathComponent($0) }
        let path = try ProcessScratch.path("osm-country-rules/liechtenstein-with-data.gpkg")
        let summary = try Importer(
            options: ImportOptions(paths: layers + [OSMExtractImportTests.liechtenstein], databasePath: path, extractReader: .libosmium)
        ).run()
        let places = try #require(summary.layers.first { $0.table == "geonames_cities1000" })
        #expect(places.skipReasons["kept in the layer but not used for lookups: an OpenStreetMap extract gave the places here"] == 17)
        let withData = try ReverseGeocoder(databasePath: path)
        let alone = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        var compared = 0
        for latitude in stride(from: 47.05, through: 47.27, by: 0.01) {
            for longitude in stride(from: 9.47, through: 9.64, by: 0.01) {
                let point = Coordinate(latitude: latitude, longitude: longitude)
                guard withData.record(for: point).followsNominatim else { continue }
                #expect(withData.placemark(for: point) == alone.placemark(for: point), "\(point)")
                compared += 1
            }
        }
        #expect(compared > 300)
    }

    /// Every postcode an answer can carry is one of Liechtenstein's (`dddd`, 9485-9498 in use): the extract's
    /// `94490` typo is none, and no Swiss or Austrian code crosses the border.
    @Test func liechtensteinsPostcodesHaveItsForm() throws {
        let path = try OSMExtractImportTests.liechtensteinImport.get().path
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let written = try database.query("SELECT DISTINCT postcode FROM liechtenstein_2013_08_03_addresses WHERE postcode IS NOT NULL")
            .compactMap { $0.first?.stringValue }
        #expect(written.contains("94490"))
        let geocoder = try ReverseGeocoder(databasePath: path)
        var seen: Set<String> = []
        for latitude in stride(from: 47.05, through: 47.27, by: 0.01) {
            for longitude in stride(from: 9.47, through: 9.64, by: 0.01) {
                let placemark = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
                guard placemark.isoCountryCode == "LI", let postcode = placemark.postalCode else { continue }
                seen.insert(postcode)
            }
        }
        #expect(!seen.isEmpty)
        #expect(seen.allSatisfy { $0.count == 4 && $0.allSatisfy(\.isNumber) && (9485...9498).contains(Int($0) ?? 0) })
    }

    /// Helsinki's extract has no country boundary: Natural Earth's Finland decides, and its postcodes are
    /// five digits, `000120` (a typo on one address) none.
    @Test func helsinkisPostcodesAreFinnish() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.helsinkiImport.get().path)
        var seen: Set<String> = []
        for latitude in stride(from: 60.164, through: 60.179, by: 0.001) {
            for longitude in stride(from: 24.935, through: 24.9535, by: 0.001) {
                if let postcode = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude)).postalCode {
                    seen.insert(postcode)
                }
            }
        }
        #expect(seen.count > 5)
        #expect(seen.allSatisfy { $0.count == 5 && $0.allSatisfy(\.isNumber) })
    }

    /// A Nominatim answer's country is its answering object's (`CountryOfTheAnswer`): at these three points inside
    /// Liechtenstein the nearest street runs on into Austria, its midpoint Austrian, and Nominatim 5.3.3 answers it
    /// with Austria and no part of Liechtenstein (its display names at zoom 18 on this extract, `Scripts/nominatim-compare`:
    /// "Älpele Güterweg, Österreich", "Mühlebachweg, Österreich"). Other outputs, and a zoom where only areas answer,
    /// keep the point's country.
    @Test(arguments: [
        (47.201578, 9.580373, "Älpele Güterweg"), (47.204898, 9.582462, "Älpele Güterweg"), (47.219657, 9.565297, "Mühlebachweg"),
    ])
    func aNominatimAnswerTakesTheCountryOfTheStreetAnswering(latitude: Double, longitude: Double, road: String) throws {
        let path = try OSMExtractImportTests.liechtensteinImport.get().path
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: path, settings: settings)
        let point = Coordinate(latitude: latitude, longitude: longitude)
        let placemark = geocoder.placemark(for: point)
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: 18))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == road)
        #expect(address["country_code"] == "at")
        // Nothing of Liechtenstein: no municipality, village, state or postcode of it.
        #expect(Set(address.keys).isSubset(of: ["road", "country", "country_code"]), "\(address)")
        #expect(placemark.timeZone == "Europe/Vienna")
        #expect(try ReverseGeocoder(databasePath: path).placemark(for: point).isoCountryCode == "LI")
        let zoom10 = geocoder.record(for: point, maximumRank: NominatimDetail.maximumRank(zoom: 10))
        #expect(geocoder.placemark(from: zoom10).isoCountryCode == "LI")
    }

    /// The country of a point at import: the extract's own polygon first, Natural Earth's for the rest,
    /// without Natural Earth's polygon of a country the extract gave.
    @Test func theExtractsBorderDecidesBeforeNaturalEarths() throws {
        let square = Shape.polygon(
            Polygon(exterior: [
                Point2D(x: 9.0, y: 47.0), Point2D(x: 10.0, y: 47.0), Point2D(x: 10.0, y: 48.0), Point2D(x: 9.0, y: 48.0),
                Point2D(x: 9.0, y: 47.0),
            ]))
        let countries = try OSMCountryOfPoint(
            extractCountries: [("li", square)], box: BoundingBox(minX: 8.5, minY: 46.5, maxX: 10.5, maxY: 48.5))
        // Inside the extract's (made-up) polygon, which reaches into Switzerland and Austria.
        #expect(countries.countryCode(at: Point2D(x: 9.3, y: 47.3)) == "LI")
        // Outside it, Natural Earth's.
        #expect(countries.countryCode(at: Point2D(x: 8.6, y: 47.2)) == "CH")
        #expect(countries.countryCode(at: Point2D(x: 10.45, y: 47.1)) == "AT")
    }

    /// A point in no polygon takes the country of its own file's places, near that file only: with Liechtenstein's
    /// places and Malta's extract (no town node) read as one, the sea by Malta took Liechtenstein, as did the
    /// Tyrrhenian Sea between them.
    @Test func aPointInNoPolygonTakesItsOwnFilesCountry() throws {
        let liechtenstein = BoundingBox(minX: 9.47, minY: 47.04, maxX: 9.64, maxY: 47.27)
        let malta = BoundingBox(minX: 14.18, minY: 35.78, maxX: 14.58, maxY: 36.09)
        var both = liechtenstein
        both.extend(malta)
        var countries = try OSMCountryOfPoint(
            extractCountries: [(code: String, shape: Shape)](), box: both, fileBoxes: [liechtenstein, malta])
        countries.setFallbacks(byMajorityOf: [Point2D(x: 9.52, y: 47.14), Point2D(x: 9.56, y: 47.24)])
        #expect(countries.countryCode(at: Point2D(x: 14.7, y: 35.9)) == "MT")
        #expect(countries.countryCode(at: Point2D(x: 12.5, y: 38.5)) == nil)
        #expect(countries.countryCode(at: Point2D(x: 9.52, y: 47.14)) == "LI")
    }
}
