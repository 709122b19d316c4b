import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Store

/// City choice against the real places database imported from Data/.
final class CityResolverTests: XCTestCase {
    private var folder: URL!
    private var places: PlacesSource!

    private let heathrow = BookLondon.airport
    private let matei = Airport(
        icao: "NFNM", iata: "TVU", name: "Matei Airport", city: "Matei", subdivision: "Northern", countryCode: "FJ",
        elevationFeet: 60, coordinate: Coordinate(latitude: -16.6906, longitude: -179.877), timeZone: "Pacific/Fiji",
        localIdentifier: nil)
    private let euroAirport = Airport(
        icao: "LFSB", iata: "BSL", name: "EuroAirport Basel-Mulhouse-Freiburg Airport", city: "Bale/Mulhouse",
        subdivision: "Grand-Est", countryCode: "FR", elevationFeet: 885, coordinate: Coordinate(latitude: 47.59, longitude: 7.5291),
        timeZone: "Europe/Paris", localIdentifier: nil)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("city-resolver-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        places = PlacesSource(path: TestPlaces.databasePath)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    func testANameIsFoundInTheAirportsCountry() throws {
        let resolved = try CityResolver.resolve(.named("suva"), for: matei, places: places)
        XCTAssertEqual(resolved.city.name, "Suva", "spelled as the database has it")
        XCTAssertEqual(resolved.city.coordinate, Coordinate(latitude: -18.13683, longitude: 178.42531))
        XCTAssertNil(resolved.warning)
    }

    func testANamesakeNearTheAirportBeatsABiggerOneFarAway() throws {
        let resolved = try CityResolver.resolve(.named("Kensington"), for: heathrow, places: places)
        XCTAssertEqual(resolved.city.coordinate, Coordinate(latitude: 51.50094, longitude: -0.19175))
    }

    func testTheMostPopulousInTheCountryWhenNoneIsNear() throws {
        let resolved = try CityResolver.resolve(.named("Saint-Louis"), for: matei.with(country: "FR"), places: places)
        XCTAssertEqual(resolved.city.coordinate.latitude, 47.59206, accuracy: 1e-9, "the Grand Est one is bigger")
    }

    func testACityAcrossTheBorderNearTheAirport() throws {
        let resolved = try CityResolver.resolve(.named("Basel"), for: euroAirport, places: places)
        XCTAssertEqual(resolved.city.name, "Basel")
    }

    func testAnUnknownNameIsAnErrorThatSuggestsCityAt() throws {
        XCTAssertThrowsError(try CityResolver.resolve(.named("Atlantis"), for: heathrow, places: places)) { error in
            XCTAssertEqual(error as? CityResolutionError, .noLocality(name: "Atlantis", country: "GB", airport: "LHR"))
            XCTAssertTrue(error.localizedDescription.contains("--city-at"), error.localizedDescription)
        }
    }

    func testTheDefaultIsTheAirportsOwnCity() throws {
        let resolved = try CityResolver.resolve(.airportsCity, for: heathrow, places: places)
        XCTAssertEqual(resolved.city.name, "London")
        XCTAssertEqual(resolved.city.coordinate, Coordinate(latitude: 51.50853, longitude: -0.12574))
    }

    func testTheDefaultFallsBackToTheBiggestPlaceNearTheAirport() throws {
        let nowhere = heathrow.with(city: "Heathrow Village")
        let resolved = try CityResolver.resolve(.airportsCity, for: nowhere, places: places)
        XCTAssertEqual(resolved.city.name, "London")
        XCTAssertNotNil(resolved.warning)
    }

    func testTheDefaultFallsBackToTheAirportItself() throws {
        let resolved = try CityResolver.resolve(.airportsCity, for: matei, places: places)
        XCTAssertEqual(resolved.city, DestinationCity(name: "Matei", coordinate: matei.coordinate))
        XCTAssertNotNil(resolved.warning)
    }

    func testAPlacesDatabaseWithoutLocalitiesIsExplained() throws {
        let empty = folder.appendingPathComponent("empty.gpkg").path
        try SQLiteDatabase(path: empty).execute("CREATE TABLE other (x)")
        XCTAssertThrowsError(try CityResolver.resolve(.named("Suva"), for: matei, places: PlacesSource(path: empty))) {
            guard case .noLocalitiesTable = $0 as? CityResolutionError else { return XCTFail("\($0)") }
        }
    }
}

private extension Airport {
    func with(country: String) -> Airport {
        var copy = self
        copy.countryCode = country
        return copy
    }
    func with(city: String) -> Airport {
        var copy = self
        copy.city = city
        return copy
    }
}
