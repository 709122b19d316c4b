#if Server
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing

    #if canImport(FoundationXML)
        import FoundationXML
    #endif

    /// Nominatim's own behaviour-driven tests of `/reverse` and `/status` (osm-search/Nominatim,
    /// test/bdd/features/api/reverse/*.feature and status/*.feature), every scenario that does not depend on
    /// Nominatim's test database, each named by its file:line and each example row by its line. docs/serve.md
    /// lists the scenarios that do not apply, and why.
    @Suite struct NominatimScenarioTests {
        /// One example row: where it is in the feature file, and the query it sends.
        struct Row: CustomTestStringConvertible, Sendable {
            let line: String
            let query: String
            var testDescription: String { "\(line) \(query)" }

            init(_ line: String, _ parameters: KeyValuePairs<String, String>) {
                self.line = line
                query = parameters.map { "\($0.key)=\(Self.encoded($0.value))" }.joined(separator: "&")
            }

            static func encoded(_ value: String) -> String {
                var allowed = CharacterSet.alphanumerics
                allowed.insert(charactersIn: "-._~")
                return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
            }
        }

        static let vaduz = (lat: "47.14122383", lon: "9.52169581334")

        static func reverse(_ query: String, headers: HTTPFields = [:]) async throws -> Reply {
            try await Harness.run(.router) { try await $0.request("/reverse?" + query, headers: headers) }
        }

        /// "the result is valid json/xml": the status, and the content type Nominatim sends for the format.
        static func expectValid(_ reply: Reply, xml: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
            #expect(reply.status == 200, "\(reply.body)", sourceLocation: sourceLocation)
            if xml {
                #expect(reply.contentType == "text/xml; charset=utf-8", sourceLocation: sourceLocation)
                #expect(XMLParser(data: Data(reply.body.utf8)).parse(), "\(reply.body)", sourceLocation: sourceLocation)
            } else {
                #expect(reply.contentType == "application/json; charset=utf-8", sourceLocation: sourceLocation)
                #expect(reply.json != nil, "\(reply.body)", sourceLocation: sourceLocation)
            }
        }

        // MARK: v1_params.feature: bad parameters are 400

        @Test(
            "v1_params.feature:6 Bad format, :12 Missing lon, :18 Missing lat, :46 Non-numerical zoom, :83 Only one geometry",
            arguments: [
                Row("v1_params.feature:9", ["lat": vaduz.lat, "lon": vaduz.lon, "format": "sdf"]),
                Row("v1_params.feature:15", ["lat": "52.52"]),
                Row("v1_params.feature:21", ["lon": "52.52"]),
                Row("v1_params.feature:49", ["lat": vaduz.lat, "lon": vaduz.lon, "zoom": "adfe"]),
                Row("v1_params.feature:86", ["lat": vaduz.lat, "lon": vaduz.lon, "polygon_text": "1", "polygon_svg": "1"]),
            ])
        func badParameters(row: Row) async throws {
            #expect(try await Self.reverse(row.query).status == 400)
        }

        @Test(
            "v1_params.feature:24 Bad format for lat or lon",
            arguments: [
                Row("v1_params.feature:32", ["lat": "48.9660", "lon": "8,4482"]),
                Row("v1_params.feature:33", ["lat": "48,9660", "lon": "8.4482"]),
                Row("v1_params.feature:34", ["lat": "48,9660", "lon": "8,4482"]),
                Row("v1_params.feature:35", ["lat": "48.966.0", "lon": "8.4482"]),
                Row("v1_params.feature:36", ["lat": "48.966", "lon": "8.448.2"]),
                Row("v1_params.feature:37", ["lat": "Nan", "lon": "8.448"]),
                Row("v1_params.feature:38", ["lat": "48.966", "lon": "Nan"]),
                Row("v1_params.feature:39", ["lat": "Inf", "lon": "5.6"]),
                Row("v1_params.feature:40", ["lat": "5.6", "lon": "-Inf"]),
                Row("v1_params.feature:41", ["lat": "<script></script>", "lon": "3.4"]),
                Row("v1_params.feature:42", ["lat": "3.4", "lon": "<script></script>"]),
                Row("v1_params.feature:43", ["lat": "-45.3", "lon": ";"]),
                Row("v1_params.feature:44", ["lat": "gkjd", "lon": "50"]),
            ])
        func badCoordinates(row: Row) async throws {
            let reply = try await Self.reverse(row.query)
            #expect(reply.status == 400)
            #expect(!reply.body.contains("<script>"), "the error must not echo markup: \(reply.body)")
        }

        @Test(
            "v1_params.feature:52 Truthy values for boolean parameters",
            arguments: [
                Row("v1_params.feature:76", ["value": "yes"]), Row("v1_params.feature:77", ["value": "no"]),
                Row("v1_params.feature:78", ["value": "-1"]), Row("v1_params.feature:79", ["value": "100"]),
                Row("v1_params.feature:80", ["value": "false"]), Row("v1_params.feature:81", ["value": "00"]),
            ])
        func truthyBooleans(row: Row) async throws {
            let value = String(row.query.dropFirst("value=".count))
            for (parameter, element) in [
                ("addressdetails", "<addressparts>"), ("extratags", "<extratags>"), ("namedetails", "<namedetails>"),
            ] {
                let reply = try await Self.reverse("lat=\(Self.vaduz.lat)&lon=\(Self.vaduz.lon)&\(parameter)=\(value)")
                Self.expectValid(reply, xml: true)
                #expect(reply.body.contains(element), "\(parameter)=\(value): \(reply.body)")
            }
        }

        @Test(
            "v1_params.feature:89 Illegal jsonp are not allowed",
            arguments: [
                Row("v1_params.feature:97", ["json_callback": "1asd"]), Row("v1_params.feature:98", ["json_callback": "bar(foo)"]),
                Row("v1_params.feature:99", ["json_callback": "XXX['bad']"]), Row("v1_params.feature:100", ["json_callback": "foo; evil"]),
            ])
        func illegalJSONP(row: Row) async throws {
            let reply = try await Self.reverse("lat=\(Self.vaduz.lat)&lon=\(Self.vaduz.lon)&format=json&\(row.query)")
            #expect(reply.status == 400, "\(reply.body)")
        }

        @Test(
            "v1_params.feature:102 Reverse debug mode produces valid HTML",
            arguments: [
                Row("v1_params.feature:111", ["lat": "0.0", "lon": "0.0"]),
                Row("v1_params.feature:112", ["lat": "47.06645", "lon": "9.56601"]),
                Row("v1_params.feature:113", ["lat": "47.14081", "lon": "9.52267"]),
            ])
        func debugIsHTML(row: Row) async throws {
            let reply = try await Self.reverse(row.query + "&debug=1")
            #expect(reply.status == 200)
            #expect(reply.contentType == "text/html; charset=utf-8")
            #expect(XMLParser(data: Data(reply.body.utf8)).parse(), "\(reply.body)")
            #expect(reply.body.contains("<html") && reply.body.contains("<body>"))
            #expect(!reply.body.contains("<script"))
        }

        // MARK: v1_json / v1_geojson / v1_geocodejson / v1_xml: no result

        static let nowhere = [("0.0", "0.0"), ("91.3", "0.4"), ("-700", "0.4"), ("0.2", "324.44"), ("0.2", "-180.4")]

        static func nowhereRows(_ file: String, firstLine: Int) -> [Row] {
            nowhere.enumerated().map { Row("\(file):\(firstLine + $0.offset)", ["lat": $0.element.0, "lon": $0.element.1]) }
        }

        @Test("v1_json.feature:4 Reverse json - Simple with no results", arguments: nowhereRows("v1_json.feature", firstLine: 24))
        func jsonNoResult(row: Row) async throws {
            for format in ["json", "jsonv2"] {
                let reply = try await Self.reverse(row.query + "&format=\(format)")
                Self.expectValid(reply)
                #expect(reply.object["error"] as? String == "Unable to geocode", "\(reply.body)")
            }
        }

        @Test("v1_geojson.feature:4 Reverse geojson - Simple with no results", arguments: nowhereRows("v1_geojson.feature", firstLine: 16))
        func geojsonNoResult(row: Row) async throws {
            let reply = try await Self.reverse(row.query + "&format=geojson")
            Self.expectValid(reply)
            #expect(reply.object["error"] as? String == "Unable to geocode", "\(reply.body)")
        }

        @Test(
            "v1_geocodejson.feature:4 Reverse geocodejson - Simple with no results",
            arguments: nowhereRows("v1_geocodejson.feature", firstLine: 16))
        func geocodejsonNoResult(row: Row) async throws {
            let reply = try await Self.reverse(row.query + "&format=geocodejson")
            Self.expectValid(reply)
            #expect(reply.object["error"] as? String == "Unable to geocode", "\(reply.body)")
        }

        @Test(
            "v1_xml.feature:4 Reverse XML - Simple reverse-geocoding with no results",
            arguments: nowhereRows("v1_xml.feature", firstLine: 17))
        func xmlNoResult(row: Row) async throws {
            let reply = try await Self.reverse(row.query)
            Self.expectValid(reply, xml: true)
            #expect(reply.body.contains("<error>Unable to geocode</error>"), "\(reply.body)")
            for absent in ["osm_type", "<addressparts>", "<extratags>"] { #expect(!reply.body.contains(absent)) }
        }

        // MARK: v1_json / v1_geojson / v1_geocodejson: shapes that do not depend on the data

        @Test(
            "v1_json.feature:30 Reverse json - OSM result with and without addresses",
            arguments: [Row("v1_json.feature:46", ["addressdetails": "1"]), Row("v1_json.feature:47", ["addressdetails": "0"])])
        func jsonWithAndWithoutAddress(row: Row) async throws {
            for format in ["json", "jsonv2"] {
                let reply = try await Self.reverse("lat=47.066&lon=9.504&format=\(format)&\(row.query)")
                Self.expectValid(reply)
                #expect((reply.object["address"] != nil) == row.query.hasSuffix("=1"), "\(reply.body)")
            }
        }

        @Test(
            "v1_geojson.feature:88 and v1_geocodejson.feature:129 Only geojson polygons are supported",
            arguments: [
                Row("v1_geojson.feature:100", ["format": "geojson", "polygon_text": "1"]),
                Row("v1_geojson.feature:101", ["format": "geojson", "polygon_svg": "1"]),
                Row("v1_geojson.feature:102", ["format": "geojson", "polygon_kml": "1"]),
                Row("v1_geocodejson.feature:141", ["format": "geocodejson", "polygon_text": "1"]),
                Row("v1_geocodejson.feature:142", ["format": "geocodejson", "polygon_svg": "1"]),
                Row("v1_geocodejson.feature:143", ["format": "geocodejson", "polygon_kml": "1"]),
            ])
        func onlyGeoJSONPolygons(row: Row) async throws {
            let reply = try await Self.reverse("lat=47.06597&lon=9.50467&\(row.query)")
            Self.expectValid(reply)
            let features = try #require(reply.object["features"] as? [[String: Any]], "\(reply.body)")
            #expect(features.count == 1)
            #expect((features.first?["geometry"] as? [String: Any])?["type"] as? String == "Point")
        }

        // MARK: language.feature

        @Test(
            "language.feature:3, :13, :36 Reverse - default language, accept-language parameter, parameter over header",
            arguments: [
                (Row("language.feature:3", [:]), "", "Liechtenstein"),
                (Row("language.feature:13", ["accept-language": "ja,en"]), "", "リヒテンシュタイン"),
                (Row("language.feature:36", ["accept-language": "en"]), "fo-ca,fo;q=0.8,en-ca;q=0.5,en;q=0.3", "Liechtenstein"),
            ])
        func language(row: Row, header: String, country: String) async throws {
            let headers: HTTPFields = header.isEmpty ? [:] : [.acceptLanguage: header]
            let reply = try await Self.reverse("lat=47.14&lon=9.55&format=jsonv2&" + row.query, headers: headers)
            Self.expectValid(reply)
            #expect((reply.object["address"] as? [String: String])?["country"] == country, "\(reply.body)")
        }

        // MARK: queries.feature

        @Test(
            "queries.feature:33 Reverse - Zoom levels below 5 result in country",
            arguments: (0...4).map { Row("queries.feature:\(42 + $0)", ["zoom": String($0)]) })
        func lowZoomIsTheCountry(row: Row) async throws {
            let reply = try await Self.reverse("lat=47.16&lon=9.51&format=jsonv2&" + row.query)
            Self.expectValid(reply)
            #expect(reply.object["display_name"] as? String == "Liechtenstein", "\(reply.body)")
        }

        // MARK: status/simple.feature

        @Test("status/simple.feature:4 Status as text") func statusAsText() async throws {
            let reply = try await Harness.run(.router) { try await $0.request("/status") }
            #expect(reply.status == 200)
            #expect(reply.body == "OK")
        }

        @Test("status/simple.feature:9 Status as json") func statusAsJSON() async throws {
            let reply = try await Harness.run(.router) { try await $0.request("/status?format=json") }
            Self.expectValid(reply)
            #expect(reply.object["status"] as? Int == 0)
            #expect(reply.object["message"] as? String == "OK")
            let updated = try #require(reply.object["data_updated"] as? String)
            #expect(updated.wholeMatch(of: /....-..-..T..:..:...00:00/) != nil, "\(updated)")
        }
    }
#endif
