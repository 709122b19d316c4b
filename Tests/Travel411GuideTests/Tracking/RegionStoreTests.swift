import CSQLite
import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Store

final class RegionStoreTests: XCTestCase {
    private var folder: URL!
    private var statePath: String { folder.appendingPathComponent("travel.sqlite").path }
    private let home = Coordinate(latitude: 51.4613, longitude: -0.3037)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("region-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func testAddListAndRemoveRegionsPerDestination() throws {
        let store = try TravelStore(path: statePath)
        let region = try MonitoredRegion.validated(
            name: " Home ", center: home, radiusMetres: 100,
            message: "Don't forget your phone, tickets and passport")
        XCTAssertEqual(try store.addRegion(region, to: nil).name, "London")
        try store.addRegion(MonitoredRegion(name: "Office", center: BookLondon.city.coordinate, radiusMetres: 250), to: "london")
        let (destination, regions) = try store.regions(of: nil)
        XCTAssertEqual(destination.name, "London")
        XCTAssertEqual(regions.map(\.name), ["Home", "Office"])
        XCTAssertEqual(regions[0].message, "Don't forget your phone, tickets and passport")
        XCTAssertNil(regions[1].message)

        XCTAssertThrowsError(try store.addRegion(MonitoredRegion(name: "HOME", center: home, radiusMetres: 5), to: nil)) {
            XCTAssertEqual($0 as? TrackingError, .duplicateRegion("Home"))
        }
        XCTAssertEqual(try store.removeRegion(named: "home", from: nil).region.name, "Home")
        XCTAssertThrowsError(try store.removeRegion(named: "home", from: nil)) {
            XCTAssertEqual($0 as? TrackingError, .unknownRegion("home", destination: "London", known: ["Office"]))
        }
        // Reopening reads what was kept.
        XCTAssertEqual(try TravelStore(path: statePath).regions(of: "London").regions.map(\.name), ["Office"])
    }

    func testTheTwentyFirstRegionIsRefused() throws {
        let store = try TravelStore(path: statePath)
        for index in 1...20 {
            try store.addRegion(MonitoredRegion(name: "r\(index)", center: home, radiusMetres: Double(index * 10)), to: nil)
        }
        XCTAssertThrowsError(try store.addRegion(MonitoredRegion(name: "r21", center: home, radiusMetres: 10), to: nil)) {
            XCTAssertEqual($0 as? TrackingError, .tooManyRegions(count: 21))
            XCTAssertTrue(String(describing: $0).contains("more than the 20 a device monitors"))
        }
        XCTAssertEqual(try store.regions(of: nil).regions.count, 20)
    }

    func testRegionRules() {
        XCTAssertThrowsError(try MonitoredRegion.validated(name: "a", center: home, radiusMetres: 0, message: nil))
        XCTAssertThrowsError(try MonitoredRegion.validated(name: "a", center: home, radiusMetres: -5, message: nil))
        XCTAssertThrowsError(try MonitoredRegion.validated(name: "a", center: home, radiusMetres: .nan, message: nil))
        XCTAssertThrowsError(try MonitoredRegion.validated(name: "a", center: home, radiusMetres: 500_000, message: nil))
        XCTAssertThrowsError(try MonitoredRegion.validated(name: "  ", center: home, radiusMetres: 100, message: nil))
        XCTAssertThrowsError(try MonitoredRegion.validated(name: "a", center: home, radiusMetres: 100, message: "two\nlines"))
        XCTAssertEqual(
            try MonitoredRegion.parse(inline: "home=51.4613,-0.3037,100"),
            MonitoredRegion(name: "home", center: home, radiusMetres: 100))
        XCTAssertEqual(try MonitoredRegion.parse(inline: "a=b=1,2,3").name, "a=b")
        XCTAssertThrowsError(try MonitoredRegion.parse(inline: "home=51.4613,-0.3037"))
        XCTAssertThrowsError(try MonitoredRegion.parse(inline: "home=91,0,10"))
        XCTAssertThrowsError(try MonitoredRegion.parse(inline: "home=51,0,ten"))
    }

    func testDeletingADestinationDeletesItsRegions() throws {
        let store = try TravelStore(path: statePath)
        let matei = Airport(
            icao: "NFNM", iata: "TVU", name: "Matei Airport", city: "Matei", subdivision: "Northern",
            countryCode: "FJ", elevationFeet: 60, coordinate: Coordinate(latitude: -16.6906, longitude: -179.877),
            timeZone: "Pacific/Fiji", localIdentifier: nil)
        try store.createDestination(
            named: "Fiji", airport: matei, city: DestinationCity(name: "Suva", coordinate: Coordinate(latitude: -18.14, longitude: 178.44)))
        try store.addRegion(
            MonitoredRegion(name: "Hotel", center: Coordinate(latitude: -18.14, longitude: 178.44), radiusMetres: 100), to: nil)
        XCTAssertEqual(try store.regions(of: "London").regions.count, 0)
        try store.deleteDestination(named: "Fiji")
        let database = try SQLiteDatabase(path: statePath, mode: .readOnly)
        XCTAssertEqual(try database.query("SELECT count(*) FROM monitored_regions").first?.first?.int64Value, 0)
    }

    /// A state file made before regions existed (schema 1) gains the table on first open and keeps its trips.
    func testAVersionOneStateFileIsMigrated() throws {
        do {
            let database = try SQLiteDatabase(path: statePath, mode: .readWriteCreate)
            try database.execute(TravelStoreSchema.migrations[0])
            try database.execute("PRAGMA application_id = \(TravelStoreSchema.applicationID)")
            try database.execute("PRAGMA user_version = 1")
            try database.execute(
                """
                INSERT INTO destinations (name, airport_icao, airport_name, airport_city, airport_subdivision, airport_country,
                    airport_latitude, airport_longitude, airport_time_zone, city_name, city_latitude, city_longitude)
                VALUES ('Old trip', 'EGLL', 'Heathrow', 'London', 'England', 'GB', 51.47, -0.45, 'Europe/London', 'London', 51.5, -0.12)
                """)
            try database.execute("UPDATE travel_state SET current_destination_id = 1")
        }
        let store = try TravelStore(path: statePath)
        XCTAssertEqual(try store.destinations().map(\.name), ["Old trip"])
        try store.addRegion(MonitoredRegion(name: "Home", center: home, radiusMetres: 100), to: nil)
        XCTAssertEqual(try store.regions(of: "Old trip").regions.map(\.name), ["Home"])
        let database = try SQLiteDatabase(path: statePath, mode: .readOnly)
        XCTAssertEqual(try database.query("PRAGMA user_version").first?.first?.int64Value, Int64(TravelStoreSchema.latestVersion))
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }
}
