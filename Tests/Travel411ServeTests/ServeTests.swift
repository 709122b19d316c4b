import Travel411Geocoder

#if Server
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import NIOConcurrencyHelpers
    import Testing
    import Travel411Answers
    import Travel411Core
    import Travel411NominatimAPI
    import Travel411TestSupport

    #if canImport(FoundationXML)
        import FoundationXML
    #endif

    /// The server's API in process (`.router`), over the real database.
    @Suite struct ServeTests {
        /// A normal request after each bad one: the server must still answer.
        static func expectStillServing(_ client: any TestClientProtocol) async throws {
            let reply = try await client.request("/reverse?lat=51.5174&lon=-0.12&format=jsonv2")
            #expect(reply.status == 200)
            #expect(reply.body.contains("\"road\":\"Kingsway\""), "\(reply.body)")
        }

        // MARK: GET /reverse

        @Test(arguments: [
            ("51.47", "-0.45"), ("51.5174", "-0.12"), ("51.51651", "-0.13739"), ("40", "-40"), ("60.17", "24.94"), ("0", "0"),
            ("-33.86", "151.21"),
        ])
        func jsonv2AnswersEqualWhereNominatim(lat: String, lon: String) async throws {
            // The server names the country as Nominatim does without a language ("Suomi"), `where` as stored.
            let placemark = TestPlaces.geocoder.placemark(for: Coordinate(latitude: Double(lat)!, longitude: Double(lon)!))
            let named = try NominatimPlaceData(databasePath: TestPlaces.databasePath).localized(
                placemark, languages: [], fallback: .nominatim)
            let expected = NominatimFormatter.jsonV2(named)
            let reply = try await Harness.run(.router) { try await $0.request("/reverse?lat=\(lat)&lon=\(lon)&format=jsonv2") }
            #expect(reply.status == 200)
            #expect(reply.contentType == "application/json; charset=utf-8")
            #expect(reply.body == expected)
        }

        @Test func heathrowInEveryFormat() async throws {
            try await Harness.run(.router) { client in
                let xml = try await client.request("/reverse?lat=51.47&lon=-0.45")
                #expect(xml.status == 200)
                #expect(xml.contentType == "text/xml; charset=utf-8")
                #expect(xml.body.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<reversegeocode timestamp=\""), "\(xml.body)")
                #expect(xml.body.contains("querystring=\"lat=51.47&amp;lon=-0.45&amp;format=xml\""), "\(xml.body)")
                #expect(xml.body.contains("<city>London</city>"), "\(xml.body)")
                #expect(xml.body.contains("<country_code>gb</country_code>"), "\(xml.body)")
                // XMLParser, not XMLDocument: FoundationXML's XMLDocument and its libxml2 tree keep each other alive,
                // a leak LeakSanitizer reports (Scripts/sanitize address).
                #expect(XMLParser(data: Data(xml.body.utf8)).parse(), "the XML answer must parse")

                let json = try await client.request("/reverse?lat=51.47&lon=-0.45&format=json").object
                #expect(json["class"] as? String == "place")
                #expect(json["category"] == nil)
                #expect(json["lat"] as? String == "51.47")
                #expect((json["boundingbox"] as? [String])?.count == 4)
                let address = try #require(json["address"] as? [String: String])
                #expect(address["city"] == "London")
                #expect(address["country"] == "United Kingdom")
                #expect(address["country_code"] == "gb")

                let geojson = try await client.request("/reverse?lat=51.47&lon=-0.45&format=geojson")
                #expect(geojson.contentType == "application/json; charset=utf-8")
                let collection = geojson.object
                #expect(collection["type"] as? String == "FeatureCollection")
                let feature = try #require((collection["features"] as? [[String: Any]])?.first)
                #expect((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double] == [-0.45, 51.47])
                #expect(((feature["properties"] as? [String: Any])?["address"] as? [String: String])?["city"] == "London")

                let geocode = try await client.request("/reverse?lat=51.47&lon=-0.45&format=geocodejson").object
                let properties = try #require(
                    ((geocode["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
                // The answer is the city: its name, not an address part of its own (`obj_place_id`).
                #expect(properties["name"] as? String == "London")
                #expect(properties["city"] == nil)
                #expect(properties["country_code"] as? String == "gb")
                #expect((properties["label"] as? String)?.hasSuffix("United Kingdom") == true)
            }
        }

        @Test func zoomLimitsTheDetail() async throws {
            try await Harness.run(.router) { client in
                func address(_ zoom: Int) async throws -> (String?, [String: String]) {
                    let json = try await client.request("/reverse?lat=51.51651&lon=-0.13739&format=jsonv2&zoom=\(zoom)").object
                    return (json["addresstype"] as? String, json["address"] as? [String: String] ?? [:])
                }
                let building = try await address(18)
                #expect(building.1["house_number"] == "77")
                #expect(building.1["road"] == "Wells Street")
                let street = try await address(17)
                #expect(street.0 == "road")
                #expect(street.1["house_number"] == nil)
                #expect(street.1["road"] == "Wells Street")
                let suburb = try await address(14)
                #expect(suburb.0 == "suburb")
                #expect(Set(suburb.1.keys) == ["suburb", "city", "county", "state", "country", "country_code"])
                let city = try await address(10)
                #expect(city.0 == "city")
                #expect(Set(city.1.keys) == ["city", "county", "state", "country", "country_code"])
                #expect(Set(try await address(8).1.keys) == ["county", "state", "country", "country_code"])
                #expect(Set(try await address(5).1.keys) == ["state", "country", "country_code"])
                let country = try await address(3)
                #expect(country.0 == "country")
                #expect(country.1 == ["country": "United Kingdom", "country_code": "gb"])
                #expect(try await address(0).1 == country.1)
                // Out of range is clamped, as Nominatim does.
                #expect(try await address(25).1 == building.1)
            }
        }

        @Test func addressNameAndExtraDetails() async throws {
            try await Harness.run(.router) { client in
                let plain = try await client.request("/reverse?lat=51.47&lon=-0.45&format=jsonv2&addressdetails=0").object
                #expect(plain["address"] == nil)
                #expect(plain["extratags"] == nil)
                let rich = try await client.request(
                    "/reverse?lat=51.47&lon=-0.45&format=jsonv2&extratags=1&namedetails=1&accept-language=en&layer=address,poi"
                ).object
                #expect((rich["extratags"] as? [String: String])?["timezone"] == "Europe/London")
                #expect((rich["namedetails"] as? [String: String])?["name"] == rich["name"] as? String)
                let xml = try await client.request("/reverse?lat=51.47&lon=-0.45&extratags=1&namedetails=1")
                #expect(xml.body.contains("<extratags><tag key=\"timezone\" value=\"Europe/London\"/></extratags>"), "\(xml.body)")
                #expect(xml.body.contains("<namedetails><name desc=\"name\">"), "\(xml.body)")
            }
        }

        @Test func noAnswerIsUnableToGeocodeWith200() async throws {
            try await Harness.run(.router) { client in
                let json = try await client.request("/reverse?lat=40&lon=-40&format=json")
                #expect(json.status == 200)
                #expect(json.body == "{\"error\":\"Unable to geocode\"}")
                let xml = try await client.request("/reverse?lat=40&lon=-40")
                #expect(xml.status == 200)
                #expect(xml.body.hasSuffix("<error>Unable to geocode</error>\n</reversegeocode>"), "\(xml.body)")
            }
        }

        // MARK: Bad input: each refused cleanly, and the server still answers afterwards

        @Test(arguments: [
            ("/reverse?lon=-0.45&format=json", 400, "'lat' is missing"),
            ("/reverse", 400, "'lat' is missing"),
            ("/reverse?lat=NaN&lon=-0.45&format=jsonv2", 400, "'lat' must be a number; got 'NaN'"),
            ("/reverse?lat=1e400&lon=-0.45&format=jsonv2", 400, "'lat' must be"),
            ("/reverse?lat=51.47&lon=abc&format=json", 400, "'lon' must be a number; got 'abc'"),
            ("/reverse?lat=51.47&lon=0x1p3", 400, "'lon' must be a number"),
            ("/reverse?lat=51.47&lon=-0.45&zoom=high", 400, "'zoom' must be a whole number"),
            ("/reverse?lat=51.47&lon=-0.45&layer=cafes", 400, "'layer' takes"),
            (
                "/reverse?lat=51.47&lon=-0.45&format=yaml", 400,
                "'format' must be one of: xml, json, jsonv2, geojson, geocodejson; got 'yaml'"
            ),
            ("/status?format=yaml", 400, "'format' must be one of: text, json"),
            ("/search?q=London", 404, "GET /search is not served here"),
        ])
        func refused(query: String, status: Int, words: String) async throws {
            try await Harness.run(.router) { client in
                let reply = try await client.request(query)
                #expect(reply.status == status, "\(query): \(reply.body)")
                let error = reply.object["error"] as? [String: Any]
                #expect(error?["code"] as? Int == status, "\(reply.body)")
                #expect((error?["message"] as? String)?.contains(words) == true, "\(query): \(reply.body)")
                try await Self.expectStillServing(client)
            }
        }

        @Test func errorsAskedForAsXMLComeAsXML() async throws {
            let reply = try await Harness.run(.router) { try await $0.request("/reverse?lat=abc&lon=0&format=xml") }
            #expect(reply.status == 400)
            #expect(reply.contentType == "text/xml; charset=utf-8")
            #expect(
                reply.body.contains("<code>400</code>\n  <message>Parameter 'lat' must be a number; got 'abc'</message>"), "\(reply.body)")
        }

        /// A known path with a method it does not take: 405 naming the ones it does (docs/serve.md).
        @Test(arguments: [HTTPRequest.Method.head, .put, .delete, .patch])
        func otherMethodsOnReverseGet405(method: HTTPRequest.Method) async throws {
            try await Harness.run(.router) { client in
                let reply = try await client.request("/reverse?lat=1&lon=1", method: method)
                #expect(reply.status == 405, "\(reply.body)")
                #expect(reply.headers[.allow] == "GET, POST, OPTIONS")
                try await Self.expectStillServing(client)
            }
        }

        /// Pages on other origins may call the API, as Nominatim's: `Access-Control-Allow-Origin: *` on every
        /// answer, and the preflight answered.
        @Test func crossOriginRequests() async throws {
            try await Harness.run(.router) { client in
                let answer = try await client.request("/reverse?lat=51.47&lon=-0.45&format=json", headers: [.origin: "https://example.org"])
                #expect(answer.headers[.accessControlAllowOrigin] == "*")
                let refused = try await client.request("/reverse?lat=abc&lon=-0.45&format=json")
                #expect(refused.headers[.accessControlAllowOrigin] == "*")
                let preflight = try await client.request(
                    "/reverse", method: .options,
                    headers: [
                        .origin: "https://example.org", .accessControlRequestMethod: "GET",
                        .accessControlRequestHeaders: "accept-language",
                    ])
                #expect(preflight.status == 204)
                #expect(preflight.headers[.accessControlAllowOrigin] == "*")
                #expect(preflight.headers[.accessControlAllowMethods] == "GET, POST, OPTIONS")
                #expect(preflight.headers[.accessControlAllowHeaders] == "accept-language")
                #expect(try await client.request("/nowhere", method: .options).status == 404)
            }
        }

        // MARK: POST /reverse

        @Test func postCSVKeepsEveryRowInOrder() async throws {
            let body = "id,lat,lon\n1,51.47,-0.45\n2,not-a-number,0\n3,40,-40\n4,51.5174,-0.12\n"
            let reply = try await Harness.run(.router) {
                try await $0.request("/reverse?fields=locality,country,isoCountryCode", method: .post, body: body, contentType: "text/csv")
            }
            #expect(reply.status == 200, "\(reply.body)")
            #expect(reply.contentType == "text/csv; charset=utf-8")
            let lines = reply.body.split(separator: "\n").map(String.init)
            try #require(lines.count == 5, "\(reply.body)")
            #expect(lines[0] == "id,lat,lon,locality,country,isoCountryCode,error")
            #expect(lines[1] == "1,51.47,-0.45,London,United Kingdom,GB,")
            #expect(lines[2].hasPrefix("2,not-a-number,0,,,,"), "\(lines[2])")
            #expect(lines[2].contains("line 3"), "\(lines[2])")
            #expect(lines[3] == "3,40,-40,,,,")
            #expect(lines[4] == "4,51.5174,-0.12,London,United Kingdom,GB,")
        }

        @Test func postJSONLinesAndGeoJSONAnswerInKind() async throws {
            try await Harness.run(.router) { client in
                let jsonl = "{\"name\":\"heathrow\",\"lat\":51.47,\"lon\":-0.45}\n{\"name\":\"helsinki\",\"lat\":60.17,\"lon\":24.94}\n"
                let lines = try await client.request("/reverse?fields=country", method: .post, body: jsonl).body.split(separator: "\n")
                #expect(lines.count == 2)
                #expect(
                    lines.first.map(String.init)
                        == "{\"name\":\"heathrow\",\"lat\":51.47,\"lon\":-0.45,\"country\":\"United Kingdom\",\"error\":null}")
                let geojson = """
                    {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":7},"geometry":{"type":"Point","coordinates":[-0.45,51.47]}}]}
                    """
                let reply = try await client.request(
                    "/reverse?fields=locality", method: .post, body: geojson, contentType: "application/geo+json")
                #expect(reply.contentType == "application/geo+json; charset=utf-8")
                let features = reply.object["features"] as? [[String: Any]]
                #expect((features?.first?["properties"] as? [String: Any])?["locality"] as? String == "London")
                let csv = try await client.request(
                    "/reverse?fields=country&format=csv", method: .post, body: jsonl, contentType: "application/x-ndjson")
                #expect(csv.body == "name,lat,lon,country,error\nheathrow,51.47,-0.45,United Kingdom,\nhelsinki,60.17,24.94,Finland,\n")
            }
        }

        @Test(
            arguments: [
                ("just some words\nand more\n", "text/plain", 400), ("[1,2,3]", "application/json", 400), ("\u{0}\u{1}PNG\u{2}", nil, 400),
                ("\u{89}PNG", "image/png", 415), ("", "text/csv", 400),
            ] as [(String, String?, Int)])
        func postBodyInNoKnownFormat(body: String, type: String?, status: Int) async throws {
            try await Harness.run(.router) { client in
                let reply = try await client.request("/reverse", method: .post, body: body, contentType: type)
                #expect(reply.status == status, "\(body): \(reply.body)")
                #expect((reply.object["error"] as? [String: Any])?["message"] is String, "\(reply.body)")
                try await Self.expectStillServing(client)
            }
        }

        @Test func postBodyOverTheLimitGets413() async throws {
            try await Harness.run(.router, arguments: ["--max-body-bytes", "1000"]) { client in
                let rows = "lat,lon\n" + String(repeating: "51.47,-0.45\n", count: 200)
                let reply = try await client.request("/reverse", method: .post, body: rows, contentType: "text/csv")
                #expect(reply.status == 413, "\(reply.body)")
                #expect(reply.body.contains("at most 1000"), "\(reply.body)")
                try await Self.expectStillServing(client)
            }
        }

        // MARK: Operations

        @Test func metricsCountRequestsByEndpointAndStatus() async throws {
            try await Harness.run(.router) { client in
                _ = try await client.request("/reverse?lat=51.47&lon=-0.45&format=json")
                _ = try await client.request("/reverse?lat=abc&lon=-0.45&format=json")
                let metrics = try await client.request("/metrics")
                #expect(metrics.status == 200)
                #expect(metrics.contentType.hasPrefix("text/plain; version=0.0.4"), "\(metrics.contentType)")
                let lines = metrics.body.split(separator: "\n")
                #expect(
                    lines.contains {
                        $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"/reverse\"")
                            && $0.contains("http_response_status_code=\"200\"")
                    }, "\(metrics.body)")
                #expect(lines.contains { $0.hasPrefix("hb_requests{") && $0.contains("http_response_status_code=\"400\"") })
                #expect(lines.contains { $0.hasPrefix("hb_request_errors{") })
                #expect(lines.contains { $0.hasPrefix("http_server_request_duration_bucket{") && $0.contains("le=\"0.001\"") })
            }
        }

        @Test func accessLogHasOneLinePerRequestWithoutTheLocation() async throws {
            _ = try await Harness.run(.router) { try await $0.request("/reverse?lat=51.4711&lon=-0.4522&format=json") }
            let lines = Harness.logLines.withLockedValue { $0 }
            // Other tests log too, at the same time: one line of this kind is enough.
            #expect(lines.contains { $0.contains("method=GET") && $0.contains("path=/reverse ") && $0.contains("status=200") })
            #expect(!lines.contains { $0.contains("51.4711") }, "the access log must not record the queried location")
        }

        @Test func manyConcurrentRequestsAllSucceed() async throws {
            let statuses = try await Harness.run(.live) { client in
                try await withThrowingTaskGroup(of: Int.self) { group in
                    for index in 0..<200 {
                        group.addTask {
                            let lat = 51.3 + Double(index % 40) * 0.01
                            return try await client.request("/reverse?lat=\(lat)&lon=-0.2&format=jsonv2").status
                        }
                    }
                    return try await group.reduce(into: [Int]()) { $0.append($1) }
                }
            }
            #expect(statuses.count == 200)
            #expect(statuses.allSatisfy { $0 == 200 })
        }
    }
#endif
