import Foundation
import Testing
import Travel411Core
import Travel411TestSupport

@testable import Travel411Guide

/// Where feeds come from: files, and URLs fetched over HTTP from a server on 127.0.0.1 (this
/// machine has no internet; a loopback server is real HTTP all the same).
@Suite struct QuakeSourceTests {
    @Test func argumentsAreFilesStandardInputOrURLs() throws {
        #expect(try QuakeSource(argument: "-") == .standardInput)
        #expect(try QuakeSource(argument: "feeds/4.5_month.geojson") == .file("feeds/4.5_month.geojson"))
        let usgs = "https://earthquake.usgs.gov/earthquakes/feed/v1.0/summary/4.5_month.geojson"
        #expect(try QuakeSource(argument: usgs) == .url(try #require(URL(string: usgs))))
        #expect(try QuakeSource(argument: "http://127.0.0.1:8080/feed.csv").displayName == "http://127.0.0.1:8080/feed.csv")
        #expect(try QuakeSource(argument: "http://localhost/feed.csv").displayName == "http://localhost/feed.csv")
    }

    static let refused: [(String, QuakeSourceError)] = [
        ("http://earthquake.usgs.gov/feed.csv", .plainHTTP("http://earthquake.usgs.gov/feed.csv")),
        ("ftp://example.org/feed.csv", .unsupportedScheme("ftp://example.org/feed.csv", scheme: "ftp")),
        ("https://", .badURL("https://")),
    ]

    @Test(arguments: refused)
    func onlyHTTPSIsFetchedFromOtherHosts(argument: String, expected: QuakeSourceError) {
        let error = #expect(throws: QuakeSourceError.self) { try QuakeSource(argument: argument) }
        #expect(error == expected)
        #expect(error?.exitStatus == .usage)
    }

    @Test func aMissingFileIsNoInput() async {
        do {
            _ = try await QuakeSource.file("/nonexistent/2.5_month.csv").read()
            Issue.record("read a file that does not exist")
        } catch {
            #expect("\(error)" == "cannot read /nonexistent/2.5_month.csv: no such file")
            #expect((error as? any Travel411Error)?.exitStatus == .noInput)
        }
    }

    @Test func aFeedIsFetchedOverHTTP() async throws {
        let server = try LoopbackFeedServer(.file(QuakeFixtures.geoJSONPath))
        defer { server.stop() }
        let source = try QuakeSource(argument: server.url("/earthquakes/feed/v1.0/summary/4.5_month.geojson"))
        let data = try await source.read(timeout: 20)
        #expect(data == (try QuakeFixtures.data(QuakeFixtures.geoJSONPath)))
        #expect(try QuakeFeed.read(data, source: source.displayName).quakes.count == 314)
    }

    /// The error a fetch ends with; a recorded issue when it succeeds.
    static func fetchError(_ argument: String) async throws -> (any Error)? {
        let source = try QuakeSource(argument: argument)
        do {
            _ = try await source.read(timeout: 20)
            Issue.record("\(argument) was fetched")
            return nil
        } catch {
            return error
        }
    }

    @Test func aServerErrorIsUnavailable() async throws {
        let server = try LoopbackFeedServer(.status(500))
        defer { server.stop() }
        let error = try #require(try await Self.fetchError(server.url("/feed.csv")))
        let fetch = error as? QuakeFetchError
        #expect(fetch?.httpStatus == 500)
        #expect(fetch?.exitStatus == .unavailable)
        // The reason phrase's letter case differs between Foundation's platforms.
        #expect(
            "\(error)".lowercased().hasPrefix(
                "cannot fetch \(server.url("/feed.csv")): the server answered http 500 (internal server error)"))
        #expect("\(error)".hasSuffix("the server failed, try again later"))
    }

    @Test func anUnreachableServerIsUnavailable() async throws {
        // Port 1 on loopback: nothing listens there, so the connection is refused at once, on any machine.
        let error = try #require(try await Self.fetchError("https://127.0.0.1:1/feed.csv"))
        #expect((error as? any Travel411Error)?.exitStatus == .unavailable)
        #expect((error as? QuakeFetchError)?.httpStatus == nil)
        #expect("\(error)".hasPrefix("cannot fetch https://127.0.0.1:1/feed.csv: "))
    }

    @Test func aHostThatDoesNotResolveSaysTheMachineMayBeOffline() async throws {
        // .invalid never resolves (RFC 2606): the same answer an offline machine gets for USGS.
        let error = try #require(try await Self.fetchError("https://earthquake.usgs.invalid/feed.csv"))
        #expect((error as? any Travel411Error)?.exitStatus == .unavailable)
        #expect("\(error)".contains("offline"))
    }
}
