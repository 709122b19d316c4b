#if Server
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing
    import Travel411Answers
    import Travel411Core

    /// What Nominatim's clients rely on beyond its BDD scenarios: JSONP, outlines and their caps, languages.
    @Suite struct NominatimFidelityTests {
        @Test func jsonpWrapsTheAnswer() async throws {
            let reply = try await Harness.run(.router) {
                try await $0.request("/reverse?lat=51.47&lon=-0.45&format=jsonv2&json_callback=jQuery_21.cb$")
            }
            #expect(reply.status == 200)
            #expect(reply.contentType == "application/javascript; charset=utf-8")
            #expect(reply.body.hasPrefix("jQuery_21.cb$({\"place_id\":"), "\(reply.body)")
            #expect(reply.body.hasSuffix("})"))
        }

        /// A country's outline in every form, capped in vertices; `polygon_threshold` simplifies it further.
        @Test func countryOutlineInEveryFormAndCapped() async throws {
            try await Harness.run(.router) { client in
                let base = "/reverse?lat=60.17&lon=24.94&zoom=3"
                let geojson = try await client.request(base + "&format=jsonv2&polygon_geojson=1").object
                let outline = try #require(geojson["geojson"] as? [String: Any], "\(geojson)")
                #expect(["Polygon", "MultiPolygon"].contains(outline["type"] as? String))
                let text = try await client.request(base + "&format=json&polygon_text=1").object["geotext"] as? String
                #expect(text?.hasPrefix("MULTIPOLYGON(((") == true || text?.hasPrefix("POLYGON((") == true, "\(text ?? "")")
                let vertices = (text ?? "").split(separator: ",").count
                #expect(vertices > 10 && vertices <= OutlineSimplifier.maxVertices + 200, "\(vertices) vertices")
                let coarse =
                    try await client.request(base + "&format=json&polygon_text=1&polygon_threshold=0.5").object["geotext"] as? String
                #expect((coarse ?? "").split(separator: ",").count < vertices)
                let svg = try await client.request(base + "&format=json&polygon_svg=1").object["svg"] as? String
                #expect(svg?.hasPrefix("M 2") == true && svg?.contains(" -6") == true && svg?.hasSuffix("Z") == true, "\(svg ?? "")")
                let kml = try await client.request(base + "&format=jsonv2&polygon_kml=1").object["geokml"] as? String
                #expect(kml?.contains("<outerBoundaryIs><LinearRing><coordinates>") == true)
                let xml = try await client.request(base + "&polygon_kml=1")
                #expect(xml.body.contains("</result>\n<geokml><"), "\(xml.body.prefix(600))")
                let feature = try await client.request(base + "&format=geojson&polygon_geojson=1").object
                let geometry = ((feature["features"] as? [[String: Any]])?.first?["geometry"] as? [String: Any])?["type"] as? String
                #expect(["Polygon", "MultiPolygon"].contains(geometry))
            }
        }

        /// A city has no outline in the database: the point stands for it.
        @Test func placesWithoutOutlineGiveTheirPoint() async throws {
            let reply = try await Harness.run(.router) {
                try await $0.request("/reverse?lat=51.47&lon=-0.45&format=jsonv2&zoom=10&polygon_text=1")
            }
            #expect(reply.object["geotext"] as? String == "POINT(-0.45 51.47)", "\(reply.body)")
        }

        @Test func acceptLanguageHeaderNamesTheCountry() async throws {
            let reply = try await Harness.run(.router) {
                try await $0.request("/reverse?lat=60.17&lon=24.94&format=jsonv2&zoom=3", headers: [.acceptLanguage: "de-CH,de;q=0.9"])
            }
            #expect((reply.object["address"] as? [String: String])?["country"] == "Finnland", "\(reply.body)")
        }

        @Test func geocodeJSONHeaderIsNominatims() async throws {
            let reply = try await Harness.run(.router) { try await $0.request("/reverse?lat=51.47&lon=-0.45&format=geocodejson") }
            let header = try #require(reply.object["geocoding"] as? [String: Any])
            #expect(header["version"] as? String == "0.1.0")
            #expect(header["licence"] as? String == "ODbL")
            // Empty for a reverse answer: Nominatim 5.3's `reverse_endpoint` hands the formatter a query for XML only.
            #expect(header["query"] as? String == "")
            #expect((header["attribution"] as? String)?.contains("OpenStreetMap") == true)
        }

        @Test func importanceFollowsTheRank() async throws {
            try await Harness.run(.router) { client in
                let country = try await client.request("/reverse?lat=51.47&lon=-0.45&format=jsonv2&zoom=3").object
                let city = try await client.request("/reverse?lat=51.47&lon=-0.45&format=json&zoom=10").object
                let countryImportance = try #require(country["importance"] as? Double)
                let cityImportance = try #require(city["importance"] as? Double)
                #expect(countryImportance > cityImportance && cityImportance > 0)
            }
        }
    }
#endif
