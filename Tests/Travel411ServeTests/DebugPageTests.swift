#if Server
    import Foundation
    import Hummingbird
    import HummingbirdTesting
    import Testing

    #if canImport(FoundationXML)
        import FoundationXML
    #endif

    /// `debug=1` answers an HTML page (as Nominatim's does) with the steps `where --explain` prints for the point at the
    /// request's zoom: each field's source, its candidates and the rule that decided.
    @Suite struct DebugPageTests {
        /// Ravintola Bank on Unioninkatu, on Helsinki's extract with Data/: the country, the municipality, the suburb and
        /// the postcode, each with where it came from.
        @Test func theExtractsAnswerExplained() async throws {
            let reply = try await AcceptLanguageTests.run { client in
                try await client.request("/reverse?lat=60.166165&lon=24.950632&format=jsonv2&debug=1")
            }
            #expect(reply.status == 200)
            #expect(reply.contentType == "text/html; charset=utf-8")
            #expect(XMLParser(data: Data(reply.body.utf8)).parse(), "\(reply.body)")
            #expect(!reply.body.contains("<script"))
            let page = reply.body
            #expect(page.contains("<h2>How the answer was found</h2>"), "\(page)")
            #expect(page.contains("country: Finland (FI)"), "\(page)")
            #expect(page.contains("city: Helsinki (key city"), "\(page)")
            #expect(page.contains("suburb: Kaartinkaupunki (key suburb"), "\(page)")
            #expect(page.contains("postcode: "), "\(page)")
            // The answer in the format asked for, after the steps, escaped.
            #expect(page.contains("&quot;road&quot;:&quot;Unioninkatu&quot;"), "\(page)")
        }

        /// The zoom is the request's: at zoom 10 the answer names no suburb, and the steps say so.
        @Test func theRequestsZoomDecides() async throws {
            let page = try await AcceptLanguageTests.run { client in
                try await client.request("/reverse?lat=60.166165&lon=24.950632&zoom=10&debug=1").body
            }
            #expect(page.contains("suburb: not part of an answer at this zoom"), "\(page)")
            #expect(page.contains("city: Helsinki"), "\(page)")
        }
    }
#endif
