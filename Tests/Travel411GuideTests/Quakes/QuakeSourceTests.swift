import Travel411TestSupport
import XCTest

@testable import Travel411Guide
@testable import Travel411Kit

/// Where feeds come from: files, and URLs fetched over HTTP from a server on 127.0.0.1 (this
/// machine has no internet; a loopback server is real HTTP all the same).
final class QuakeSourceTests: XCTestCase {
    func testArgumentsAreFilesStandardInputOrURLs() throws {
        XCTAssertEqual(try QuakeSource(argument: "-"), .standardInput)
        XCTAssertEqual(try QuakeSource(argument: "feeds/4.5_month.geojson"), .file("feeds/4.5_month.geojson"))
        let usgs = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/4.5_month.geojson"
        XCTAssertEqual(try QuakeSource(argument: usgs), .url(try XCTUnwrap(URL(string: usgs))))
        XCTAssertEqual(try QuakeSource(argument: "http://127.0.0.1:8080/feed.csv").displayName, "http://127.0.0.1:8080/feed.csv")
        XCTAssertEqual(try QuakeSource(argument: "http://localhost/feed.csv").displayName, "http://localhost/feed.csv")
    }

    func testOnlyHTTPSIsFetchedFromOtherHosts() {
        for (argument, expected) in [
            ("http://earthquake.usgs.gov/feed.csv", QuakeSourceError.plainHTTP("http://earthquake.usgs.gov/feed.csv")),
            ("ftp://example.org/feed.csv", .unsupportedScheme("ftp://example.org/feed.csv", scheme: "ftp")),
            ("https://", .badURL("https://")),
        ] {
            XCTAssertThrowsError(try QuakeSource(argument: argument)) { error in
                XCTAssertEqual(error as? QuakeSourceError, expected)
                XCTAssertEqual((error as? Travel411Error)?.exitStatus, .usage)
            }
        }
    }

    func testAMissingFileIsNoInput() {
        XCTAssertThrowsError(try QuakeSource.file("/nonexistent/2.5_month.csv").read()) { error in
            XCTAssertEqual("\(error)", "cannot read /nonexistent/2.5_month.csv: no such file")
            XCTAssertEqual((error as? Travel411Error)?.exitStatus, .noInput)
        }
    }

    func testAFeedIsFetchedOverHTTP() throws {
        let server = try LoopbackFeedServer(.file(QuakeFixtures.geoJSONPath))
        defer { server.stop() }
        let source = try QuakeSource(argument: server.url("/earthquakes/feed/v1.0/summary/4.5_month.geojson"))
        let data = try source.read(timeout: 20)
        XCTAssertEqual(data, try QuakeFixtures.data(QuakeFixtures.geoJSONPath))
        XCTAssertEqual(try QuakeFeed.read(data, source: source.displayName).quakes.count, 314)
    }

    func testAServerErrorIsUnavailable() throws {
        let server = try LoopbackFeedServer(.status(500))
        defer { server.stop() }
        XCTAssertThrowsError(try QuakeSource(argument: server.url("/feed.csv")).read(timeout: 20)) { error in
            let fetch = error as? QuakeFetchError
            XCTAssertEqual(fetch?.httpStatus, 500)
            XCTAssertEqual(fetch?.exitStatus, .unavailable)
            // The reason phrase's letter case differs between Foundation's platforms.
            XCTAssertTrue(
                "\(error)".lowercased().hasPrefix(
                    "cannot fetch \(server.url("/feed.csv")): the server answered http 500 (internal server error)"), "\(error)")
            XCTAssertTrue("\(error)".hasSuffix("the server failed, try again later"), "\(error)")
        }
    }

    func testAnUnreachableServerIsUnavailable() throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once, on any machine.
        XCTAssertThrowsError(try QuakeSource(argument: "https://127.0.0.1:1/feed.csv").read(timeout: 20)) { error in
            XCTAssertEqual((error as? Travel411Error)?.exitStatus, .unavailable)
            XCTAssertNil((error as? QuakeFetchError)?.httpStatus)
            XCTAssertTrue("\(error)".hasPrefix("cannot fetch https://127.0.0.1:1/feed.csv: "), "\(error)")
        }
    }

    func testAHostThatDoesNotResolveSaysTheMachineMayBeOffline() throws {
        // .invalid never resolves (RFC 2606): the same answer an offline machine gets for USGS.
        XCTAssertThrowsError(try QuakeSource(argument: "https://earthquake.usgs.invalid/feed.csv").read(timeout: 20)) { error in
            XCTAssertEqual((error as? Travel411Error)?.exitStatus, .unavailable)
            XCTAssertTrue("\(error)".contains("offline"), "\(error)")
        }
    }
}
