import CSQLite
import XCTest

@testable import Travel411Core
@testable import Travel411Guide
@testable import Travel411Store

final class TravelStoreTests: XCTestCase {
    private var folder: URL!
    private var statePath: String { folder.appendingPathComponent("travel.sqlite").path }

    private let matei = Airport(
        icao: "NFNM", iata: "TVU", name: "Matei Airport", city: "Matei", subdivision: "Northern", countryCode: "FJ",
        elevationFeet: 60, coordinate: Coordinate(latitude: -16.6906, longitude: -179.877), timeZone: "Pacific/Fiji",
        localIdentifier: nil)
    private let suva = DestinationCity(name: "Suva", coordinate: Coordinate(latitude: -18.14161, longitude: 178.44149))
    private let kensington = Coordinate(latitude: 51.5010, longitude: -0.1919)

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("travel-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    // MARK: Opening

    func testFirstUseCreatesTheBooksLondon() throws {
        let store = try TravelStore(path: statePath)
        let london = try store.destination(named: nil)
        XCTAssertEqual(london.name, "London")
        XCTAssertEqual(london.airport.iata, "LHR")
        XCTAssertEqual(london.airport.coordinate, Coordinate(latitude: 51.471184, longitude: -0.452542))
        XCTAssertEqual(london.city, DestinationCity(name: "London", coordinate: Coordinate(latitude: 51.500153, longitude: -0.126236)))
        XCTAssertEqual(london.pins.map(\.kind), [.airport, .city])
        XCTAssertEqual(london.pins.map(\.colour), [.green, .red])
        XCTAssertEqual(try store.destinations().count, 1)
    }

    func testReopeningKeepsStateAndDoesNotSeedAgain() throws {
        do {
            let store = try TravelStore(path: statePath)
            try store.deleteDestination(named: "London")
        }
        let reopened = try TravelStore(path: statePath)
        XCTAssertEqual(try reopened.destinations(), [])
        XCTAssertThrowsError(try reopened.destination(named: nil)) { XCTAssertEqual($0 as? TravelStoreError, .noDestinations) }
    }

    func testUsesWALAndIsMarkedAsAStateFile() throws {
        let store = try TravelStore(path: statePath)
        XCTAssertEqual(try store.journalMode, "wal")
        let raw = try SQLiteDatabase(path: statePath, mode: .readOnly)
        XCTAssertEqual(try raw.query("PRAGMA application_id").first?.first?.int64Value, Int64(TravelStoreSchema.applicationID))
        XCTAssertEqual(try raw.query("PRAGMA user_version").first?.first?.int64Value, Int64(TravelStoreSchema.latestVersion))
    }

    func testRefusesAFileThatIsNotSQLite() throws {
        try Data("this is not a database, just some bytes that are long enough to look like a header....".utf8)
            .write(to: URL(fileURLWithPath: statePath))
        XCTAssertThrowsError(try TravelStore(path: statePath)) { error in
            XCTAssertEqual(error as? TravelStoreError, .notADatabase(path: statePath))
            XCTAssertTrue(error.localizedDescription.contains("not a SQLite database"), error.localizedDescription)
        }
    }

    func testRefusesSomeoneElsesSQLiteFile() throws {
        let other = try SQLiteDatabase(path: statePath)
        try other.execute("CREATE TABLE localities (fid INTEGER PRIMARY KEY, name TEXT)")
        XCTAssertThrowsError(try TravelStore(path: statePath)) { error in
            XCTAssertEqual(error as? TravelStoreError, .notAStateFile(path: statePath))
        }
        // And it was not written to.
        XCTAssertEqual(try other.query("SELECT count(*) FROM sqlite_master").first?.first?.int64Value, 1)
    }

    func testRefusesANewerSchema() throws {
        _ = try TravelStore(path: statePath)
        let raw = try SQLiteDatabase(path: statePath)
        try raw.execute("PRAGMA user_version = 99")
        XCTAssertThrowsError(try TravelStore(path: statePath)) { error in
            XCTAssertEqual(error as? TravelStoreError, .newerSchema(path: statePath, found: 99, supported: TravelStoreSchema.latestVersion))
        }
    }

    func testReportsALockedFileAfterTheBusyTimeout() throws {
        let store = try TravelStore(path: statePath, busyTimeoutMilliseconds: 100)
        let holder = try SQLiteDatabase(path: statePath)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        let started = Date()
        XCTAssertThrowsError(try store.moveCity(of: nil, to: kensington, newName: "Kensington")) { error in
            XCTAssertEqual(error as? TravelStoreError, .locked(path: statePath, waitedMilliseconds: 100))
        }
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(started), 0.09, "it waited for the lock first")
        // Readers are not blocked by a writer in WAL mode.
        XCTAssertEqual(try store.destination(named: nil).city.name, "London")
    }

    func testTheStateFileIsNeverThePlacesDatabase() throws {
        let shared = folder.appendingPathComponent("places.gpkg").path
        XCTAssertThrowsError(try TravelStateLocation.prepare(explicitPath: shared, placesDatabasePath: shared, environment: [:])) { error in
            XCTAssertEqual(error as? TravelStoreError, .isPlacesDatabase(path: shared))
        }
        let viaEnvironment = ["TRAVEL411_STATE": shared, "TRAVEL411_DB": folder.appendingPathComponent("./places.gpkg").path]
        XCTAssertThrowsError(try TravelStateLocation.prepare(explicitPath: nil, placesDatabasePath: nil, environment: viaEnvironment))
    }

    func testStateLocationFollowsFlagThenEnvironmentThenXDG() throws {
        XCTAssertEqual(TravelStateLocation.resolve(explicitPath: "/a/b.sqlite", environment: ["TRAVEL411_STATE": "/c"]), "/a/b.sqlite")
        XCTAssertEqual(TravelStateLocation.resolve(explicitPath: nil, environment: ["TRAVEL411_STATE": "/c"]), "/c")
        XCTAssertEqual(TravelStateLocation.resolve(explicitPath: nil, environment: ["XDG_DATA_HOME": "/x"]), "/x/travel411/travel.sqlite")
        XCTAssertEqual(
            TravelStateLocation.resolve(explicitPath: nil, environment: ["HOME": "/home/t"]), "/home/t/.local/share/travel411/travel.sqlite"
        )
        let xdg = folder.appendingPathComponent("xdg").path
        let prepared = try TravelStateLocation.prepare(explicitPath: nil, placesDatabasePath: nil, environment: ["XDG_DATA_HOME": xdg])
        XCTAssertTrue(
            FileManager.default.fileExists(atPath: URL(fileURLWithPath: prepared).deletingLastPathComponent().path),
            "the default folder is created")
    }

    // MARK: Destinations

    func testCreateMakesTheNewDestinationCurrent() throws {
        let store = try TravelStore(path: statePath)
        let fiji = try store.createDestination(named: "  Fiji ", airport: matei, city: suva)
        XCTAssertEqual(fiji.name, "Fiji")
        XCTAssertEqual(try store.destination(named: nil), fiji)
        XCTAssertEqual(try store.destination(named: "fiji"), fiji, "names match in any case")
        XCTAssertEqual(try store.destinations().map(\.name), ["London", "Fiji"])
        XCTAssertEqual(try store.destination(named: "Fiji").airport, matei, "the whole airport round-trips")
    }

    func testDuplicateAndInvalidNamesAreRefused() throws {
        let store = try TravelStore(path: statePath)
        XCTAssertThrowsError(try store.createDestination(named: "LONDON", airport: matei, city: suva)) {
            XCTAssertEqual($0 as? TravelStoreError, .destinationExists("LONDON"))
        }
        XCTAssertThrowsError(try store.createDestination(named: "   ", airport: matei, city: suva)) {
            guard case .invalidDestinationName = $0 as? TravelStoreError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try store.destinations().count, 1, "nothing was half-written")
    }

    func testUnknownDestinationSuggestsCloseNames() throws {
        let store = try TravelStore(path: statePath)
        XCTAssertThrowsError(try store.destination(named: "Lodnon")) { error in
            XCTAssertEqual(error as? TravelStoreError, .unknownDestination("Lodnon", suggestions: ["London"]))
            XCTAssertTrue(error.localizedDescription.contains("did you mean 'London'"), error.localizedDescription)
        }
    }

    func testUseRenameAndDelete() throws {
        let store = try TravelStore(path: statePath)
        try store.createDestination(named: "Fiji", airport: matei, city: suva)
        XCTAssertEqual(try store.useDestination(named: "london").name, "London")
        XCTAssertEqual(try store.currentDestinationName(), "London")

        XCTAssertEqual(try store.renameDestination("London", to: "The Book's London").name, "The Book's London")
        XCTAssertEqual(try store.currentDestinationName(), "The Book's London", "renaming keeps it current")
        XCTAssertThrowsError(try store.renameDestination("Fiji", to: "the book's london"))
        XCTAssertEqual(try store.renameDestination("Fiji", to: "FIJI").name, "FIJI", "a change of case is a rename")

        try store.moveCity(of: "The Book's London", to: kensington, newName: "Kensington")
        let (deleted, successor) = try store.deleteDestination(named: "The Book's London")
        XCTAssertEqual(deleted.name, "The Book's London")
        XCTAssertEqual(successor?.name, "FIJI", "the remaining destination becomes current")
        XCTAssertEqual(try store.currentDestinationName(), "FIJI")
        let raw = try SQLiteDatabase(path: statePath, mode: .readOnly)
        XCTAssertEqual(try raw.query("SELECT count(*) FROM city_moves").first?.first?.int64Value, 0, "history goes with it")

        let (_, none) = try store.deleteDestination(named: "FIJI")
        XCTAssertNil(none)
        XCTAssertThrowsError(try store.destination(named: nil)) { XCTAssertEqual($0 as? TravelStoreError, .noDestinations) }
    }

    func testDeletingANonCurrentDestinationKeepsTheCurrentOne() throws {
        let store = try TravelStore(path: statePath)
        try store.createDestination(named: "Fiji", airport: matei, city: suva)
        let (_, successor) = try store.deleteDestination(named: "London")
        XCTAssertNil(successor)
        XCTAssertEqual(try store.currentDestinationName(), "Fiji")
    }

    // MARK: Moves

    func testMovingRenamesAndRecordsTheMove() throws {
        let store = try TravelStore(path: statePath)
        let move = try store.moveCity(of: nil, to: kensington, newName: "Kensington")
        XCTAssertEqual(move.destinationName, "London")
        XCTAssertEqual(move.from, BookLondon.city)
        XCTAssertEqual(move.to, DestinationCity(name: "Kensington", coordinate: kensington))
        XCTAssertEqual(move.distanceMetres, 4_540, accuracy: 60)
        XCTAssertTrue(move.renamed)
        XCTAssertNil(move.undoneAt)
        XCTAssertEqual(try store.destination(named: "London").city, move.to)
        XCTAssertEqual(try store.destination(named: "London").airport, BookLondon.airport, "the airport never moves")
        XCTAssertEqual(try store.moveHistory(of: nil), [move])
    }

    func testAMoveWithoutANameKeepsTheOldName() throws {
        let store = try TravelStore(path: statePath)
        let sea = Coordinate(latitude: 50.5, longitude: -1.0)
        let move = try store.moveCity(of: nil, to: sea, newName: nil)
        XCTAssertEqual(move.to, DestinationCity(name: "London", coordinate: sea))
        XCTAssertFalse(move.renamed)
    }

    func testUndoStepsBackThroughTheHistory() throws {
        let store = try TravelStore(path: statePath)
        try store.moveCity(of: nil, to: kensington, newName: "Kensington")
        let chelsea = Coordinate(latitude: 51.4875, longitude: -0.1687)
        try store.moveCity(of: nil, to: chelsea, newName: "Chelsea")

        let first = try store.undoCityMove(of: nil)
        XCTAssertEqual(first.to.name, "Chelsea")
        XCTAssertNotNil(first.undoneAt)
        XCTAssertEqual(try store.destination(named: nil).city, DestinationCity(name: "Kensington", coordinate: kensington))

        try store.undoCityMove(of: "London")
        XCTAssertEqual(try store.destination(named: nil).city, BookLondon.city)

        XCTAssertThrowsError(try store.undoCityMove(of: nil)) {
            XCTAssertEqual($0 as? TravelStoreError, .nothingToUndo(destination: "London"))
        }
        let history = try store.moveHistory(of: nil)
        XCTAssertEqual(history.count, 2, "undone moves stay in the history")
        XCTAssertTrue(history.allSatisfy { $0.undoneAt != nil })
    }

    func testHistoriesAreKeptPerDestination() throws {
        let store = try TravelStore(path: statePath)
        try store.createDestination(named: "Fiji", airport: matei, city: suva)
        try store.moveCity(of: "London", to: kensington, newName: "Kensington")
        XCTAssertEqual(try store.moveHistory(of: "Fiji"), [])
        XCTAssertEqual(try store.moveHistory(of: "London").count, 1)
        XCTAssertThrowsError(try store.undoCityMove(of: "Fiji"))
    }

    func testAFailureInsideTheMoveTransactionLeavesNothingBehind() throws {
        let store = try TravelStore(path: statePath)
        struct Interrupted: Error {}
        // Fails after the move and the city update are written, before COMMIT.
        XCTAssertThrowsError(try store.moveCity(of: nil, to: kensington, newName: "Kensington", insideTransaction: { throw Interrupted() }))
        XCTAssertEqual(try store.moveHistory(of: nil), [])
        XCTAssertEqual(try store.destination(named: nil).city, BookLondon.city)
        XCTAssertEqual(try store.integrityCheck(), "ok")
    }

    func testAMoveForAnUnknownDestinationChangesNothing() throws {
        let store = try TravelStore(path: statePath)
        XCTAssertThrowsError(try store.moveCity(of: "Atlantis", to: kensington, newName: "Kensington")) {
            guard case .unknownDestination = $0 as? TravelStoreError else { return XCTFail("\($0)") }
        }
        XCTAssertEqual(try store.destination(named: nil).city, BookLondon.city)
    }

    func testTwoConnectionsWritingInTurnBothLand() throws {
        let first = try TravelStore(path: statePath)
        let second = try TravelStore(path: statePath)
        try first.moveCity(of: nil, to: kensington, newName: "Kensington")
        let move = try second.moveCity(of: nil, to: Coordinate(latitude: 51.4875, longitude: -0.1687), newName: "Chelsea")
        XCTAssertEqual(move.from.name, "Kensington", "the second writer sees the first one's move")
        XCTAssertEqual(try first.moveHistory(of: nil).count, 2)
    }
}
