import Foundation
import Travel411Answers
import Travel411Batch
import Travel411Core
import Travel411Geocoder
import Travel411Import
import Travel411NominatimAPI
import Travel411Store
import Travel411TestSupport
import XCTest

/// `/reverse`'s parameters and answer shapes, without a server: the pure half of `travel411 serve`.
final class ReverseRequestTests: XCTestCase {
    func parse(_ query: String) throws -> ReverseRequest {
        let items = URLComponents(string: "http://x/reverse?" + query)?.queryItems ?? []
        return try ReverseRequest(parameters: items.map { ($0.name, $0.value ?? "") }, queryString: query)
    }

    func refusal(_ query: String) -> ServerRequestError? {
        do {
            _ = try parse(query)
            return nil
        } catch { return error as? ServerRequestError }
    }

    func testDefaultsAreNominatims() throws {
        let request = try parse("lat=51.47&lon=-0.45")
        XCTAssertEqual(request.coordinate, Coordinate(latitude: 51.47, longitude: -0.45))
        XCTAssertEqual(request.options.format, .xml)
        XCTAssertEqual(request.options.zoom, 18)
        XCTAssertTrue(request.options.addressDetails)
        XCTAssertFalse(request.options.extraTags)
        XCTAssertFalse(request.options.nameDetails)
    }

    func testEveryParameter() throws {
        let request = try parse(
            "lat=-33.86&lon=151.21&format=GeocodeJSON&zoom=10&addressdetails=0&extratags=1&namedetails=true&accept-language=de,en&layer=address,POI&email=x@y.z"
        )
        XCTAssertEqual(request.options.format, .geocodejson)
        XCTAssertEqual(request.options.detail, .city)
        XCTAssertFalse(request.options.addressDetails)
        XCTAssertTrue(request.options.extraTags)
        XCTAssertTrue(request.options.nameDetails)
        XCTAssertEqual(request.languages, ["de", "en"])
        XCTAssertEqual(request.layers, [.address, .poi])
        XCTAssertEqual(try parse("lat=1&lon=1").layers, .standard)
        XCTAssertEqual(try parse("lat=1&lon=1&layer=").layers, .standard, "an empty parameter is none")
        XCTAssertEqual(refusal("lat=1&lon=1&layer=,")?.code, 400, "a list naming no layer")
        XCTAssertEqual(try parse("lat=1&lon=1&layer=natural, manmade").layers, [.natural, .manmade])
        XCTAssertEqual(
            refusal("lat=1&lon=1&layer=poi,cafes")?.message, "Parameter 'layer' takes address, poi, railway, natural, manmade; got 'cafes'")
    }

    func testBadCoordinates() {
        for (query, words) in [
            ("lon=1", "'lat' is missing"), ("lat=1", "'lon' is missing"), ("lat=NaN&lon=1", "'lat' must be a number"),
            ("lat=inf&lon=1", "'lat' must be a number"), ("lat=1e400&lon=1", "'lat' must be a number"),
            ("lat=1&lon=abc", "'lon' must be a number; got 'abc'"),
            ("lat=&lon=1", "'lat' must be a number"), ("lat=1&lon=0x10", "'lon' must be a number"),
        ] {
            let error = refusal(query)
            XCTAssertEqual(error?.code, 400, query)
            XCTAssertTrue(error?.message.contains(words) == true, "\(query): \(String(describing: error))")
        }
    }

    /// Out of range is no bad request in Nominatim: the point is nowhere, "Unable to geocode".
    func testOutOfRangeCoordinatesAreNowhere() throws {
        for query in ["lat=91.3&lon=0.4", "lat=-700&lon=0.4", "lat=0.2&lon=324.44", "lat=0.2&lon=-180.4"] {
            XCTAssertNil(try parse(query).coordinate, query)
        }
    }

    /// Only "0" is false, as Nominatim reads its booleans.
    func testBooleansAsNominatimReadsThem() throws {
        for value in ["1", "yes", "no", "-1", "100", "false", "00", ""] {
            XCTAssertTrue(try parse("lat=1&lon=1&extratags=\(value)").options.extraTags, value)
        }
        XCTAssertFalse(try parse("lat=1&lon=1&addressdetails=0").options.addressDetails)
    }

    func testJSONPCallbacks() throws {
        XCTAssertEqual(try parse("lat=1&lon=1&format=json&json_callback=jQuery_1.cb$").jsonCallback, "jQuery_1.cb$")
        for bad in ["1asd", "bar(foo)", "XXX['bad']", "foo;%20evil", "a..b", "", "%3Cscript%3E"] {
            XCTAssertEqual(refusal("lat=1&lon=1&format=json&json_callback=\(bad)")?.code, 400, bad)
        }
    }

    func testErrorsComeInTheAskedFormat() {
        XCTAssertEqual(refusal("lat=x&lon=1")?.body, "{\"error\":{\"code\":400,\"message\":\"Parameter 'lat' must be a number; got 'x'\"}}")
        XCTAssertEqual(
            refusal("lat=x&lon=1&format=xml")?.body,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<error>\n  <code>400</code>\n  <message>Parameter 'lat' must be a number; got 'x'</message>\n</error>"
        )
        XCTAssertEqual(refusal("lat=1&lon=1&format=kml")?.format, .json)
    }

    func testZoomLevels() {
        let expected: [(Int, NominatimDetail)] = [
            (0, .country), (3, .country), (4, .country), (5, .state), (7, .state), (8, .county),
            (10, .city), (13, .city), (14, .suburb), (16, .street), (17, .street), (18, .building),
        ]
        for (zoom, detail) in expected { XCTAssertEqual(NominatimDetail(zoom: zoom), detail, "zoom \(zoom)") }
        XCTAssertEqual(refusal("lat=1&lon=1&zoom=1.5")?.code, 400)
        XCTAssertEqual(try parse("lat=1&lon=1&zoom=99").options.zoom, 18)
        XCTAssertEqual(try parse("lat=1&lon=1&zoom=-4").options.zoom, 0)
    }

    func testXMLEscaping() {
        XCTAssertEqual(XMLText.escaped("Fish & Chips <\"'>\u{1}"), "Fish &amp; Chips &lt;&quot;'&gt;")
        // Names with nothing to escape come back as they are, whatever their script; U+FFFE and U+FFFF go.
        for name in ["Städtle", "Unioninkatu 24", "東京都", "Tab\tand\r\nlines", "\u{F000}", "ÿ", ""] {
            XCTAssertEqual(XMLText.escaped(name), name)
        }
        XCTAssertEqual(XMLText.escaped("a\u{FFFE}b\u{FFFF}c\u{1F}d"), "abcd")
    }

    /// A made-up placemark, so the shapes are checked without depending on the data's names.
    func placemark() -> Placemark {
        var p = Placemark(location: Coordinate(latitude: 51.5, longitude: -0.1))
        p.thoroughfare = "Rue <A&B>"
        p.subThoroughfare = "7"
        p.subLocality = "Soho"
        p.locality = "London"
        p.subAdministrativeArea = "Westminster"
        p.administrativeArea = "England"
        p.postalCode = "W1"
        p.country = "United Kingdom"
        p.isoCountryCode = "GB"
        p.timeZone = "Europe/London"
        return p
    }

    func testEveryFormatIsWellFormed() throws {
        for format in NominatimFormat.allCases where format.isJSON {
            for zoom in [3, 10, 18] {
                let text = NominatimFormatter.answer(placemark(), options: NominatimOptions(format: format, zoom: zoom, extraTags: true))
                XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(text.utf8)), "\(format) zoom \(zoom): \(text)")
            }
        }
        let xml = NominatimFormatter.answer(
            placemark(), options: NominatimOptions(format: .xml, nameDetails: true, extraTags: true, queryString: "lat=51.5&lon=-0.1"))
        XCTAssertFalse(xml.contains(" ref="), "a house has no name for Nominatim's ref: \(xml)")
        XCTAssertTrue(xml.contains(">7, Rue &lt;A&amp;B&gt;, Soho, London, Westminster, England, W1, United Kingdom</result>"), xml)
        XCTAssertTrue(xml.contains("<addressparts><house_number>7</house_number><road>Rue &lt;A&amp;B&gt;</road>"), xml)
        XCTAssertTrue(xml.contains("querystring=\"lat=51.5&amp;lon=-0.1\""), xml)
    }

    /// The server looks up only what an answer reads; the answers must be those of a full placemark.
    func testAnswersFromTheNeededLookupsAreThoseOfTheFullPlacemark() throws {
        let geocoder = TestPlaces.geocoder
        let points = [
            (51.4711, -0.4522), (51.5033, -0.1196), (52.6576, -0.6395), (48.8566, 2.3522), (40.7128, -74.006),
            (-33.8688, 151.2093), (35.6762, 139.6503), (64.1466, -21.9426), (30.0, -40.0), (0.0, 0.0), (54.0, 3.0),
        ]
        for (lat, lon) in points {
            let queries = [
                "format=jsonv2", "format=xml&extratags=1&namedetails=1", "format=geocodejson&zoom=10", "format=geojson&extratags=1",
            ]
            for query in queries {
                let request = try parse("lat=\(lat)&lon=\(lon)&\(query)")
                let coordinate = try XCTUnwrap(request.coordinate)
                let needed = geocoder.placemark(from: geocoder.record(for: coordinate, needs: request.placemarkNeeds))
                XCTAssertEqual(request.answer(needed), request.answer(geocoder.placemark(for: coordinate)), "\(lat),\(lon) \(query)")
            }
        }
    }

    func testAtSeaIsUnableToGeocode() {
        var p = Placemark(location: Coordinate(latitude: 40, longitude: -40))
        p.ocean = "North Atlantic Ocean"
        XCTAssertEqual(NominatimFormatter.answer(p, options: NominatimOptions(format: .geocodejson)), "{\"error\":\"Unable to geocode\"}")
        XCTAssertTrue(NominatimFormatter.answer(p, options: NominatimOptions(format: .xml)).contains("<error>Unable to geocode</error>"))
    }

    func testBatchRequestFormats() throws {
        let csv = Array("lat,lon\n1,2\n".utf8)
        XCTAssertEqual(try BatchRequest(contentType: nil, parameters: [], body: csv, jobs: 1).options.outputFormat, .csv)
        XCTAssertEqual(
            try BatchRequest(contentType: "application/x-www-form-urlencoded", parameters: [("format", "json")], body: csv, jobs: 1).options
                .outputFormat, .jsonl)
        XCTAssertEqual(
            try BatchRequest(contentType: "application/json", parameters: [], body: Array("{\"lat\":1,\"lon\":2}\n".utf8), jobs: 1).options
                .inputFormat, .jsonl)
        XCTAssertThrowsError(try BatchRequest(contentType: "image/png", parameters: [], body: csv, jobs: 1)) { error in
            XCTAssertEqual((error as? ServerRequestError)?.code, 415)
        }
        XCTAssertThrowsError(try BatchRequest(contentType: "text/csv", parameters: [("format", "xlsx")], body: csv, jobs: 1))
        XCTAssertThrowsError(try BatchRequest(contentType: "text/csv", parameters: [], body: Array(" \n".utf8), jobs: 1))
    }
}
