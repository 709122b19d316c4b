import Foundation
import Travel411Kit
import Travel411TestSupport
import XCTest

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The real server over the real database, driven over loopback HTTP.
final class ServeTests: XCTestCase {
    nonisolated(unsafe) static var shared: ServerProcess?

    var server: ServerProcess {
        get throws {
            if let running = Self.shared { return running }
            let started = try ServerProcess()
            Self.shared = started
            return started
        }
    }

    override func setUpWithError() throws {
        try ServerProcess.skipWithoutServer()
    }

    override class func tearDown() {
        shared?.stop()
        shared = nil
        super.tearDown()
    }

    /// `travel411 where … --format nominatim`, from the binary built beside the server.
    func whereNominatim(_ lat: String, _ lon: String) throws -> String {
        let process = Process()
        process.executableURL = ServerProcess.buildFolder.appendingPathComponent("travel411")
        process.arguments = ["where", lat, lon, "--format", "nominatim", "--db", TestPlaces.databasePath]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .newlines)
    }

    /// A normal request after each bad one: the server must still answer.
    func assertStillServing(file: StaticString = #filePath, line: UInt = #line) throws {
        let reply = try server.request("/reverse?lat=51.5174&lon=-0.12&format=jsonv2")
        XCTAssertEqual(reply.status, 200, file: file, line: line)
        XCTAssertTrue(reply.body.contains("\"road\":\"Kingsway\""), reply.body, file: file, line: line)
    }

    // MARK: GET /reverse

    func testJSONv2AnswersEqualWhereNominatim() throws {
        for (lat, lon) in [
            ("51.47", "-0.45"), ("51.5174", "-0.12"), ("51.51651", "-0.13739"), ("40", "-40"), ("60.17", "24.94"), ("0", "0"),
            ("-33.86", "151.21"),
        ] {
            let reply = try server.request("/reverse?lat=\(lat)&lon=\(lon)&format=jsonv2")
            XCTAssertEqual(reply.status, 200)
            XCTAssertEqual(reply.contentType, "application/json; charset=utf-8")
            XCTAssertEqual(reply.body, try whereNominatim(lat, lon), "\(lat), \(lon)")
        }
    }

    func testHeathrowInEveryFormat() throws {
        let xml = try server.request("/reverse?lat=51.47&lon=-0.45")
        XCTAssertEqual(xml.status, 200)
        XCTAssertEqual(xml.contentType, "text/xml; charset=utf-8")
        XCTAssertTrue(xml.body.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<reversegeocode timestamp=\""), xml.body)
        XCTAssertTrue(xml.body.contains("querystring=\"lat=51.47&amp;lon=-0.45\""), xml.body)
        XCTAssertTrue(xml.body.contains("<city>London</city>"), xml.body)
        XCTAssertTrue(xml.body.contains("<country_code>gb</country_code>"), xml.body)
        // XMLParser, not XMLDocument: FoundationXML's XMLDocument and its libxml2 tree keep each other alive,
        // a leak LeakSanitizer reports (Scripts/sanitize address).
        XCTAssertTrue(XMLParser(data: Data(xml.body.utf8)).parse(), "the XML answer must parse")

        let json = try XCTUnwrap(try server.request("/reverse?lat=51.47&lon=-0.45&format=json").json as? [String: Any])
        XCTAssertEqual(json["class"] as? String, "place")
        XCTAssertNil(json["category"])
        XCTAssertEqual(json["lat"] as? String, "51.47")
        XCTAssertEqual((json["boundingbox"] as? [String])?.count, 4)
        let address = try XCTUnwrap(json["address"] as? [String: String])
        XCTAssertEqual(address["city"], "London")
        XCTAssertEqual(address["country"], "United Kingdom")
        XCTAssertEqual(address["country_code"], "gb")

        let geojson = try server.request("/reverse?lat=51.47&lon=-0.45&format=geojson")
        XCTAssertEqual(geojson.contentType, "application/geo+json; charset=utf-8")
        let collection = try XCTUnwrap(geojson.json as? [String: Any])
        XCTAssertEqual(collection["type"] as? String, "FeatureCollection")
        let feature = try XCTUnwrap((collection["features"] as? [[String: Any]])?.first)
        XCTAssertEqual((feature["geometry"] as? [String: Any])?["coordinates"] as? [Double], [-0.45, 51.47])
        XCTAssertEqual(((feature["properties"] as? [String: Any])?["address"] as? [String: String])?["city"], "London")

        let geocode = try XCTUnwrap(try server.request("/reverse?lat=51.47&lon=-0.45&format=geocodejson").json as? [String: Any])
        let properties = try XCTUnwrap(
            ((geocode["features"] as? [[String: Any]])?.first?["properties"] as? [String: Any])?["geocoding"] as? [String: Any])
        XCTAssertEqual(properties["city"] as? String, "London")
        XCTAssertEqual(properties["country_code"] as? String, "gb")
        XCTAssertTrue((properties["label"] as? String)?.hasSuffix("United Kingdom") == true)
    }

    func testZoomLimitsTheDetail() throws {
        func address(_ zoom: Int) throws -> (String?, [String: String]) {
            let json = try XCTUnwrap(
                try server.request("/reverse?lat=51.51651&lon=-0.13739&format=jsonv2&zoom=\(zoom)").json as? [String: Any])
            return (json["addresstype"] as? String, json["address"] as? [String: String] ?? [:])
        }
        let building = try address(18)
        XCTAssertEqual(building.1["house_number"], "77")
        XCTAssertEqual(building.1["road"], "Wells Street")
        let street = try address(17)
        XCTAssertEqual(street.0, "road")
        XCTAssertNil(street.1["house_number"])
        XCTAssertEqual(street.1["road"], "Wells Street")
        let suburb = try address(14)
        XCTAssertEqual(suburb.0, "suburb")
        XCTAssertEqual(Set(suburb.1.keys), ["suburb", "city", "county", "state", "country", "country_code"])
        let city = try address(10)
        XCTAssertEqual(city.0, "city")
        XCTAssertEqual(Set(city.1.keys), ["city", "county", "state", "country", "country_code"])
        XCTAssertEqual(Set(try address(8).1.keys), ["county", "state", "country", "country_code"])
        XCTAssertEqual(Set(try address(5).1.keys), ["state", "country", "country_code"])
        let country = try address(3)
        XCTAssertEqual(country.0, "country")
        XCTAssertEqual(country.1, ["country": "United Kingdom", "country_code": "gb"])
        XCTAssertEqual(try address(0).1, country.1)
        // Out of range is clamped, as Nominatim does.
        XCTAssertEqual(try address(25).1, building.1)
    }

    func testAddressNameAndExtraDetails() throws {
        let plain = try XCTUnwrap(try server.request("/reverse?lat=51.47&lon=-0.45&format=jsonv2&addressdetails=0").json as? [String: Any])
        XCTAssertNil(plain["address"])
        XCTAssertNil(plain["extratags"])
        let rich = try XCTUnwrap(
            try server.request("/reverse?lat=51.47&lon=-0.45&format=jsonv2&extratags=1&namedetails=1&accept-language=de&layer=address,poi")
                .json as? [String: Any])
        XCTAssertEqual((rich["extratags"] as? [String: String])?["timezone"], "Europe/London")
        XCTAssertEqual((rich["namedetails"] as? [String: String])?["name"], rich["name"] as? String)
        let xml = try server.request("/reverse?lat=51.47&lon=-0.45&extratags=1&namedetails=1")
        XCTAssertTrue(xml.body.contains("<extratags><tag key=\"timezone\" value=\"Europe/London\"/></extratags>"), xml.body)
        XCTAssertTrue(xml.body.contains("<namedetails><name desc=\"name\">"), xml.body)
    }

    func testNoAnswerIsUnableToGeocodeWith200() throws {
        let json = try server.request("/reverse?lat=40&lon=-40&format=json")
        XCTAssertEqual(json.status, 200)
        XCTAssertEqual(json.body, "{\"error\":\"Unable to geocode\"}")
        let xml = try server.request("/reverse?lat=40&lon=-40")
        XCTAssertEqual(xml.status, 200)
        XCTAssertTrue(xml.body.hasSuffix("<error>Unable to geocode</error>\n</reversegeocode>"), xml.body)
    }

    // MARK: Bad input: each refused cleanly, and the server still answers afterwards

    func assertRefused(_ query: String, status: Int, mentioning words: String, file: StaticString = #filePath, line: UInt = #line) throws {
        let reply = try server.request(query)
        XCTAssertEqual(reply.status, status, "\(query): \(reply.body)", file: file, line: line)
        let error = (reply.json as? [String: Any])?["error"] as? [String: Any]
        XCTAssertEqual(error?["code"] as? Int, status, reply.body, file: file, line: line)
        XCTAssertTrue((error?["message"] as? String)?.contains(words) == true, "\(query): \(reply.body)", file: file, line: line)
        try assertStillServing(file: file, line: line)
    }

    func testMissingLatitude() throws {
        try assertRefused("/reverse?lon=-0.45&format=json", status: 400, mentioning: "'lat' is missing")
        try assertRefused("/reverse", status: 400, mentioning: "'lat' is missing")
    }

    func testNaNLatitude() throws {
        try assertRefused("/reverse?lat=NaN&lon=-0.45&format=jsonv2", status: 400, mentioning: "'lat' must be a number; got 'NaN'")
    }

    func testOverflowingLatitude() throws {
        try assertRefused("/reverse?lat=1e400&lon=-0.45&format=jsonv2", status: 400, mentioning: "'lat' must be between -90 and 90")
        try assertRefused("/reverse?lat=91&lon=-0.45", status: 400, mentioning: "'lat' must be between -90 and 90")
        try assertRefused("/reverse?lat=51&lon=180.5", status: 400, mentioning: "'lon' must be between -180 and 180")
    }

    func testNonNumericLongitude() throws {
        try assertRefused("/reverse?lat=51.47&lon=abc&format=json", status: 400, mentioning: "'lon' must be a number; got 'abc'")
        try assertRefused("/reverse?lat=51.47&lon=0x1p3", status: 400, mentioning: "'lon' must be a number")
        try assertRefused("/reverse?lat=51.47&lon=-0.45&zoom=high", status: 400, mentioning: "'zoom' must be a whole number")
        try assertRefused("/reverse?lat=51.47&lon=-0.45&addressdetails=maybe", status: 400, mentioning: "'addressdetails' must be 0 or 1")
        try assertRefused("/reverse?lat=51.47&lon=-0.45&layer=cafes", status: 400, mentioning: "'layer' takes")
    }

    func testUnknownFormat() throws {
        try assertRefused(
            "/reverse?lat=51.47&lon=-0.45&format=yaml", status: 400,
            mentioning: "'format' must be one of: xml, json, jsonv2, geojson, geocodejson; got 'yaml'")
        try assertRefused("/status?format=yaml", status: 400, mentioning: "'format' must be one of: text, json")
    }

    func testErrorsAskedForAsXMLComeAsXML() throws {
        let reply = try server.request("/reverse?lat=abc&lon=0&format=xml")
        XCTAssertEqual(reply.status, 400)
        XCTAssertEqual(reply.contentType, "text/xml; charset=utf-8")
        XCTAssertTrue(reply.body.contains("<code>400</code>\n  <message>Parameter 'lat' must be a number; got 'abc'</message>"), reply.body)
    }

    func testUnknownPathAndMethod() throws {
        try assertRefused("/search?q=London", status: 404, mentioning: "GET /search is not served here")
        let delete = try server.request("/reverse?lat=1&lon=1", method: "DELETE")
        XCTAssertTrue([404, 405].contains(delete.status), delete.body)
        try assertStillServing()
    }

    func testHugeQueryStringIsRefusedOrCutOff() throws {
        let fd = try RawClient.connect(port: server.port)
        defer { close(fd) }
        let query = "/reverse?lat=51.47&lon=-0.45&pad=" + String(repeating: "x", count: 1 << 20)
        RawClient.send(fd, Array("GET \(query) HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8))
        let (text, closed) = RawClient.readAll(fd)
        let status = RawClient.status(of: text)
        XCTAssertTrue(status.map { [400, 414, 431].contains($0) } ?? closed, "got \(text.prefix(200))")
        try assertStillServing()
        // Just over the limit, the server itself answers 414 in JSON.
        try assertRefused(
            "/reverse?lat=51.47&lon=-0.45&pad=" + String(repeating: "x", count: ServerLimits.maxTargetBytes), status: 414,
            mentioning: "request target")
    }

    func testSlowlorisIsCutOff() throws {
        let fd = try RawClient.connect(port: server.port, receiveTimeout: 15)
        defer { close(fd) }
        let started = Date()
        // Half a request line, then nothing more: the server must close within its header timeout (2 s here).
        RawClient.send(fd, Array("GET /reverse?lat=51.47&lon=-0.45 HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow:".utf8))
        for _ in 0..<4 {
            Thread.sleep(forTimeInterval: 0.5)
            RawClient.send(fd, Array("a".utf8))
        }
        let (text, closed) = RawClient.readAll(fd)
        XCTAssertTrue(closed, "the server kept a slow client's connection open")
        XCTAssertEqual(text, "")
        XCTAssertLessThan(Date().timeIntervalSince(started), 10)
        try assertStillServing()
    }

    // MARK: POST /reverse

    func testPostCSVKeepsEveryRowInOrder() throws {
        let body = "id,lat,lon\n1,51.47,-0.45\n2,not-a-number,0\n3,40,-40\n4,51.5174,-0.12\n"
        let reply = try server.request(
            "/reverse?fields=locality,country,isoCountryCode", method: "POST", body: Data(body.utf8), contentType: "text/csv")
        XCTAssertEqual(reply.status, 200, reply.body)
        XCTAssertEqual(reply.contentType, "text/csv; charset=utf-8")
        let lines = reply.body.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, reply.body)
        XCTAssertEqual(lines[0], "id,lat,lon,locality,country,isoCountryCode,error")
        XCTAssertEqual(lines[1], "1,51.47,-0.45,London,United Kingdom,GB,")
        XCTAssertTrue(lines[2].hasPrefix("2,not-a-number,0,,,,"), lines[2])
        XCTAssertTrue(lines[2].contains("line 3"), lines[2])
        XCTAssertEqual(lines[3], "3,40,-40,,,,")
        XCTAssertEqual(lines[4], "4,51.5174,-0.12,London,United Kingdom,GB,")
    }

    func testPostJSONLinesAndGeoJSONAnswerInKind() throws {
        let jsonl = "{\"name\":\"heathrow\",\"lat\":51.47,\"lon\":-0.45}\n{\"name\":\"helsinki\",\"lat\":60.17,\"lon\":24.94}\n"
        let lines = try server.request("/reverse?fields=country", method: "POST", body: Data(jsonl.utf8)).body.split(separator: "\n")
        XCTAssertEqual(lines.count, 2)
        XCTAssertEqual(
            lines.first.map(String.init),
            "{\"name\":\"heathrow\",\"lat\":51.47,\"lon\":-0.45,\"country\":\"United Kingdom\",\"error\":null}")
        let geojson = """
            {"type":"FeatureCollection","features":[{"type":"Feature","properties":{"id":7},"geometry":{"type":"Point","coordinates":[-0.45,51.47]}}]}
            """
        let reply = try server.request(
            "/reverse?fields=locality", method: "POST", body: Data(geojson.utf8), contentType: "application/geo+json")
        XCTAssertEqual(reply.contentType, "application/geo+json; charset=utf-8")
        let features = (reply.json as? [String: Any])?["features"] as? [[String: Any]]
        XCTAssertEqual((features?.first?["properties"] as? [String: Any])?["locality"] as? String, "London")
        let csv = try server.request(
            "/reverse?fields=country&format=csv", method: "POST", body: Data(jsonl.utf8), contentType: "application/x-ndjson")
        XCTAssertEqual(csv.body, "name,lat,lon,country,error\nheathrow,51.47,-0.45,United Kingdom,\nhelsinki,60.17,24.94,Finland,\n")
    }

    func testPostBodyInNoKnownFormat() throws {
        for (body, type) in [("just some words\nand more\n", "text/plain"), ("[1,2,3]", "application/json"), ("\u{0}\u{1}PNG\u{2}", nil)]
            as [(String, String?)]
        {
            let reply = try server.request("/reverse", method: "POST", body: Data(body.utf8), contentType: type)
            XCTAssertEqual(reply.status, 400, "\(body): \(reply.body)")
            XCTAssertTrue(((reply.json as? [String: Any])?["error"] as? [String: Any])?["message"] is String, reply.body)
            try assertStillServing()
        }
        let image = try server.request("/reverse", method: "POST", body: Data([0x89, 0x50, 0x4E, 0x47]), contentType: "image/png")
        XCTAssertEqual(image.status, 415, image.body)
        let empty = try server.request("/reverse", method: "POST", body: Data(), contentType: "text/csv")
        XCTAssertEqual(empty.status, 400, empty.body)
        try assertStillServing()
    }

    func testPostBodyOverTheLimitGets413() throws {
        let limited = try ServerProcess(arguments: ["--max-body-bytes", "1000"])
        defer { limited.stop() }
        let rows = "lat,lon\n" + String(repeating: "51.47,-0.45\n", count: 200)
        let reply = try limited.request("/reverse", method: "POST", body: Data(rows.utf8), contentType: "text/csv")
        XCTAssertEqual(reply.status, 413, reply.body)
        XCTAssertTrue(reply.body.contains("at most 1000"), reply.body)
        XCTAssertEqual(try limited.request("/reverse?lat=51.47&lon=-0.45&format=json").status, 200)
    }

    // MARK: Operations

    func testStatus() throws {
        let text = try server.request("/status")
        XCTAssertEqual(text.status, 200)
        XCTAssertEqual(text.body, "OK")
        let json = try XCTUnwrap(try server.request("/status?format=json").json as? [String: Any])
        XCTAssertEqual(json["status"] as? Int, 0)
        XCTAssertEqual(json["message"] as? String, "OK")
        let updated = try XCTUnwrap(json["data_updated"] as? String)
        XCTAssertNotNil(ISO8601DateFormatter().date(from: updated), updated)
    }

    func testMetricsCountRequestsByEndpointAndStatus() throws {
        _ = try server.request("/reverse?lat=51.47&lon=-0.45&format=json")
        _ = try server.request("/reverse?lat=abc&lon=-0.45&format=json")
        let metrics = try server.request("/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.contentType.hasPrefix("text/plain; version=0.0.4"), metrics.contentType)
        let lines = metrics.body.split(separator: "\n")
        XCTAssertTrue(
            lines.contains {
                $0.hasPrefix("hb_requests{") && $0.contains("http_route=\"/reverse\"") && $0.contains("http_response_status_code=\"200\"")
            }, metrics.body)
        XCTAssertTrue(lines.contains { $0.hasPrefix("hb_requests{") && $0.contains("http_response_status_code=\"400\"") }, metrics.body)
        XCTAssertTrue(lines.contains { $0.hasPrefix("hb_request_errors{") }, metrics.body)
        XCTAssertTrue(lines.contains { $0.hasPrefix("http_server_request_duration_bucket{") && $0.contains("le=\"0.001\"") }, metrics.body)
    }

    func testAccessLogHasOneLinePerRequestWithoutTheLocation() throws {
        _ = try server.request("/reverse?lat=51.4711&lon=-0.4522&format=json")
        Thread.sleep(forTimeInterval: 0.2)
        let line = try XCTUnwrap(
            try server.stderr.split(separator: "\n").last { $0.contains("path=/reverse") && $0.contains("status=200") })
        XCTAssertTrue(line.contains("method=GET"), String(line))
        XCTAssertFalse(try server.stderr.contains("51.4711"), "the access log must not record the queried location")
    }

    func testSIGTERMAndSIGINTExitZero() throws {
        for signal in [SIGTERM, SIGINT] {
            let own = try ServerProcess(arguments: ["--log-level", "warning"])
            XCTAssertEqual(try own.request("/status").body, "OK")
            XCTAssertEqual(own.stop(signal: signal), 0, "signal \(signal): \(own.stderr)")
        }
    }

    /// A batch still streaming when SIGTERM comes is finished in full before the server exits 0.
    func testSIGTERMFinishesTheRequestInFlight() throws {
        let own = try ServerProcess(arguments: ["--log-level", "warning"])
        let rows = 100_000
        let body = "lat,lon\n" + String(repeating: "51.47,-0.45\n", count: rows)
        nonisolated(unsafe) var reply: Result<ServerProcess.Reply, Error>?
        let done = DispatchSemaphore(value: 0)
        Thread {
            reply = Result { try own.request("/reverse?fields=country", method: "POST", body: Data(body.utf8), contentType: "text/csv") }
            done.signal()
        }.start()
        Thread.sleep(forTimeInterval: 0.3)
        kill(own.process.processIdentifier, SIGTERM)
        done.wait()
        let answer = try XCTUnwrap(reply).get()
        XCTAssertEqual(answer.status, 200)
        XCTAssertEqual(answer.body.split(separator: "\n").count, rows + 1)
        XCTAssertEqual(own.stop(), 0, own.stderr)
    }

    func testManyConcurrentRequestsAllSucceed() throws {
        let server = try server
        let failures = NSLock()
        nonisolated(unsafe) var failed: [String] = []
        DispatchQueue.concurrentPerform(iterations: 200) { index in
            let lat = 51.3 + Double(index % 40) * 0.01
            do {
                let reply = try server.request("/reverse?lat=\(lat)&lon=-0.2&format=jsonv2")
                if reply.status != 200 { failures.withLock { failed.append("\(reply.status)") } }
            } catch {
                failures.withLock { failed.append("\(error)") }
            }
        }
        XCTAssertEqual(failed, [])
    }
}
