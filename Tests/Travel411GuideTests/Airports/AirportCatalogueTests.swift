import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Import
@testable import Travel411Store

final class AirportCatalogueTests: XCTestCase {
    // Parsed once: 28k rows are cheap, but not free in a debug build.
    static let embedded: AirportCatalogue? = try? AirportCatalogue.loadEmbedded()

    private func catalogue() throws -> AirportCatalogue {
        try XCTUnwrap(Self.embedded, "the embedded Data/airports/airports.csv must load")
    }

    func testLoadsTheWholeEmbeddedCatalogue() throws {
        XCTAssertEqual(try catalogue().airports.count, 28_298)
    }

    func testFindsAirportsByIATAOrICAOInAnyCase() throws {
        let catalogue = try catalogue()
        let heathrow = try XCTUnwrap(catalogue.airport(withCode: "LHR"))
        XCTAssertEqual(heathrow.icao, "EGLL")
        XCTAssertEqual(heathrow.name, "London Heathrow Airport")
        XCTAssertEqual(heathrow.countryCode, "GB")
        XCTAssertEqual(heathrow.timeZone, "Europe/London")
        XCTAssertEqual(catalogue.airport(withCode: "egll"), heathrow)
        XCTAssertEqual(catalogue.airport(withCode: " lhr "), heathrow)

        let matei = try XCTUnwrap(catalogue.airport(withCode: "TVU"))
        XCTAssertEqual(matei.icao, "NFNM")
        XCTAssertEqual(matei.coordinate.longitude, -179.877, accuracy: 1e-9)
        XCTAssertEqual(matei.countryCode, "FJ")
    }

    func testFindsAirportsByLocalIdentifier() throws {
        let airport = try XCTUnwrap(try catalogue().airport(withCode: "00AA"))
        XCTAssertEqual(airport.name, "Aero B Ranch Airport")
        XCTAssertNil(airport.iata)
        XCTAssertEqual(airport.code, "00AA")
    }

    func testReadsQuotedFieldsWithCommasAndQuotes() throws {
        let csv = """
            "icao","iata","name","city","subd","country","elevation","lat","lon","tz","lid"
            "XXAA","XAA","Field ""One"", North","Town, Upper","Region","GB",12.5,51.5,-0.1,"Europe/London",""
            "XXAB","","Plain","Town","Region","GB",,51.6,-0.2,"Europe/London","AB1"

            """
        let airports = try AirportsCSV.parse(csv, file: "test.csv")
        XCTAssertEqual(airports.count, 2)
        XCTAssertEqual(airports[0].name, "Field \"One\", North")
        XCTAssertEqual(airports[0].city, "Town, Upper")
        XCTAssertEqual(airports[0].elevationFeet, 12.5)
        XCTAssertNil(airports[1].iata)
        XCTAssertNil(airports[1].elevationFeet)
        XCTAssertEqual(airports[1].localIdentifier, "AB1")
    }

    func testSplitsRecordsWithCRLFQuotedNewlinesAndUTF8() {
        let records = AirportsCSV.records(in: Array("a,\"b\r\nc\",Breiðdalsvík\r\n\r\n\"\",x\n".utf8))
        XCTAssertEqual(records, [["a", "b\r\nc", "Breiðdalsvík"], ["", "x"]], "quoted text is kept verbatim")
    }

    func testRejectsAMalformedRowWithItsLineNumber() {
        let csv = "icao,iata,name,city,subd,country,elevation,lat,lon,tz\nXXAA,XAA,Name,City,Subd,GB,1,95,0,UTC\n"
        XCTAssertThrowsError(try AirportsCSV.parse(csv, file: "bad.csv")) { error in
            XCTAssertTrue("\(error.localizedDescription)".contains("bad.csv, line 2"), "\(error)")
        }
    }

    func testUnknownCodeSuggestsTheClosestCodes() throws {
        let catalogue = try catalogue()
        XCTAssertThrowsError(try catalogue.requireAirport(withCode: "EGLX")) { error in
            guard case AirportCatalogueError.unknownCode(let code, let suggestions) = error else {
                return XCTFail("unexpected \(error)")
            }
            XCTAssertEqual(code, "EGLX")
            XCTAssertTrue(suggestions.contains { $0.icao == "EGLL" }, "\(suggestions.map(\.icao))")
            XCTAssertLessThanOrEqual(suggestions.count, 5)
            XCTAssertTrue(error.localizedDescription.contains("did you mean"), error.localizedDescription)
        }
        XCTAssertTrue(catalogue.suggestions(for: "LHQ").contains { $0.iata == "LHR" })
        // A name rather than a code still leads somewhere.
        XCTAssertTrue(catalogue.suggestions(for: "Heathrow").contains { $0.iata == "LHR" })
    }

    func testNearestAirportsComeNearestFirstWithBearings() throws {
        let nearest = try catalogue().nearest(to: Coordinate(latitude: 51.47, longitude: -0.40), limit: 3)
        XCTAssertEqual(nearest.count, 3)
        XCTAssertEqual(nearest.first?.airport.iata, "LHR")
        XCTAssertEqual(nearest.map(\.distanceMetres), nearest.map(\.distanceMetres).sorted())
        // Heathrow lies west of the point.
        XCTAssertEqual(nearest.first?.compassPoint, .w)
    }
}

final class AirportProminenceTests: XCTestCase {
    func testNaturalEarthRanksHeathrowAmongTheHubs() throws {
        let data = try EmbeddedData.locate()
        let prominence = try XCTUnwrap(AirportProminence.load(dbfPath: data.appendingPathComponent("airports/ne_10m_airports.dbf").path))
        let heathrow = BookLondon.airport
        XCTAssertEqual(prominence.rank(of: heathrow), 2)
        var strip = heathrow
        strip.iata = nil
        strip.icao = "00AA"
        XCTAssertEqual(prominence.rank(of: strip), 100)
        XCTAssertNil(AirportProminence.load(dbfPath: "/nonexistent.dbf"))
    }
}
