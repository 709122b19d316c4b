#if Server
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Logging
    import Testing
    import Travel411Batch
    import Travel411Geocoder
    import Travel411Import
    import Travel411OSMReader
    import Travel411Store
    import Travel411Server
    import Travel411TestSupport

    /// `accept-language` on a live server over Helsinki's extract (Tests/Fixtures/osm/helsinki.osm.pbf imported
    /// with Data/, as `travel411 import Data/ helsinki.osm.pbf` does): the names are the extract's own `name:sv`
    /// and `name:fi` tags, and Nominatim 5.3.3 answers the same on it (docs/osm.md).
    @Suite struct AcceptLanguageTests {
        static let helsinki = Result { () throws -> ServerResources in
            let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/osm/helsinki.osm.pbf")
            // In the process's scratch folder: the server's geocoder keeps the database open until exit.
            let path = try ProcessScratch.path("accept-language/helsinki.gpkg")
            let options = ImportOptions(paths: [try EmbeddedData.locate(), fixture], databasePath: path, extractReader: .libosmium)
            _ = try Importer(options: options).run()
            return try ServerResources(
                geocoder: try ReverseGeocoder(databasePath: path, loading: .everything), databasePath: path, registry: Harness.registry,
                logger: Logger(label: "travel411-serve-test") { _ in SwiftLogNoOpLogHandler() })
        }

        static func run<Value: Sendable>(_ test: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
            let app = buildApplication(options: try Harness.options(), resources: try helsinki.get())
            return try await app.test(.live, test)
        }

        /// Ravintola Bank on Unioninkatu, in Kaartinkaupunki: street, suburb and city in Swedish, in Finnish, and in
        /// `name` for a language OpenStreetMap has no names in.
        @Test func streetSuburbAndCityInTheLanguageAsked() async throws {
            try await Self.run { client in
                let point = "/reverse?lat=60.166165&lon=24.950632&format=jsonv2"
                func address(_ query: String, header: String? = nil) async throws -> [String: String] {
                    var headers = HTTPFields()
                    if let header { headers[.acceptLanguage] = header }
                    let reply = try await client.request(point + query, headers: headers)
                    #expect(reply.status == 200)
                    return reply.object["address"] as? [String: String] ?? [:]
                }
                let swedish = try await address("&accept-language=sv")
                #expect(swedish["road"] == "Unionsgatan" && swedish["suburb"] == "Gardesstaden" && swedish["city"] == "Helsingfors")
                let finnish = try await address("&accept-language=fi")
                #expect(finnish["road"] == "Unioninkatu" && finnish["suburb"] == "Kaartinkaupunki" && finnish["city"] == "Helsinki")
                let stored = try await address("")
                #expect(try await address("&accept-language=xx") == stored)
                #expect(stored["road"] == "Unioninkatu")
                // The header as the parameter; the parameter over the header.
                #expect(try await address("", header: "sv-FI,sv;q=0.9,en;q=0.5") == swedish)
                #expect(try await address("&accept-language=fi", header: "sv") == finnish)
            }
        }

        /// The city at zoom 10 and the street at zoom 17 in every answer shape, with namedetails.
        @Test func everyShapeAgrees() async throws {
            try await Self.run { client in
                let city = try await client.request("/reverse?lat=60.1719&lon=24.9423&zoom=10&format=json&accept-language=sv")
                #expect(city.object["name"] as? String == "Helsingfors")
                let xml = try await client.request("/reverse?lat=60.171947&lon=24.942349&zoom=17&namedetails=1&accept-language=sv")
                #expect(xml.body.contains("<road>Vilhelmsgatan</road>"), "\(xml.body)")
                #expect(xml.body.contains(#"<name desc="name:sv">Vilhelmsgatan</name>"#), "\(xml.body)")
                #expect(xml.body.contains(#"<name desc="name">Vilhonkatu</name>"#), "\(xml.body)")
                let geocode = try await client.request("/reverse?lat=60.171947&lon=24.942349&zoom=17&format=geocodejson&accept-language=sv")
                #expect(geocode.body.contains(#""name":"Vilhelmsgatan""#), "\(geocode.body)")
                #expect(geocode.body.contains(#""city":"Helsingfors""#), "\(geocode.body)")
            }
        }
    }
#endif
