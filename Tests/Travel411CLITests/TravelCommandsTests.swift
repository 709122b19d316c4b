import Foundation
import Travel411Core
import Travel411Guide
import XCTest

/// The travel commands end to end, each test on a fresh state file.
final class TravelCommandsTests: XCTestCase {
    private var cli: TravelCLI!

    override func setUpWithError() throws {
        cli = try TravelCLI()
    }

    override func tearDownWithError() throws {
        cli.removeFolder()
    }

    private func city(_ destination: String? = nil) throws -> (name: String, latitude: Double, longitude: Double) {
        let shown = try XCTUnwrap(
            try cli.json(["destination", "show"] + (destination.map { [$0] } ?? []) + ["--format", "json"]) as? [String: Any])
        let pins = try XCTUnwrap(shown["pins"] as? [[String: Any]])
        let city = try XCTUnwrap(pins.first { $0["kind"] as? String == "city" })
        return (
            try XCTUnwrap(city["title"] as? String), try XCTUnwrap(city["latitude"] as? Double), try XCTUnwrap(city["longitude"] as? Double)
        )
    }

    private func history() throws -> [[String: Any]] {
        try XCTUnwrap(try cli.json(["move-city", "--history", "--format", "json"]) as? [[String: Any]])
    }

    // MARK: The book's London

    func testFirstUseShowsTheBooksLondonWithHeathrow() throws {
        let output = try cli.succeed(["destination", "show"])
        XCTAssertTrue(output.hasPrefix("London (current)\n"), output)
        XCTAssertTrue(output.contains("airport  green  London Heathrow Airport (LHR)  51.471184, -0.452542  fixed"), output)
        XCTAssertTrue(output.contains("city     red    London"), output)
        XCTAssertTrue(output.contains("51.500153, -0.126236  movable"), output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: cli.statePath))

        let json = try XCTUnwrap(try cli.json(["destination", "show", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(json["name"] as? String, "London")
        XCTAssertEqual(json["current"] as? Bool, true)
        let pins = try XCTUnwrap(json["pins"] as? [[String: Any]])
        XCTAssertEqual(pins.map { $0["kind"] as? String }, ["airport", "city"])
        XCTAssertEqual(pins.map { $0["colour"] as? String }, ["green", "red"])
        XCTAssertEqual(pins.map { $0["movable"] as? Bool }, [false, true])
        XCTAssertTrue(pins.allSatisfy { $0.keys.contains("subtitle") })
    }

    func testMoveReportsTheDistanceAndUndoBringsLondonBack() throws {
        let output = try cli.succeed(["move-city", "51.5010", "-0.1919"])
        XCTAssertTrue(output.contains("from  London"), output)
        XCTAssertTrue(output.contains("51.500153, -0.126236"), output)
        XCTAssertTrue(output.contains("51.501, -0.1919"), output)
        XCTAssertTrue(output.contains("moved 4.5 km W"), output)
        XCTAssertEqual(try city().latitude, 51.501)
        XCTAssertEqual(try history().count, 1)

        let undone = try cli.succeed(["move-city", "--undo"])
        XCTAssertTrue(undone.contains("Undid"), undone)
        let restored = try city()
        XCTAssertEqual(restored.name, "London")
        XCTAssertEqual(restored.latitude, 51.500153)
        XCTAssertEqual(restored.longitude, -0.126236)
        let moves = try history()
        XCTAssertEqual(moves.count, 1, "the undone move stays in the history")
        XCTAssertNotNil(moves.first?["undoneAt"] as? String)

        let nothing = try cli.run(["move-city", "--undo"])
        XCTAssertNotEqual(nothing.status, 0)
        XCTAssertTrue(nothing.stderr.contains("London has no city move to undo"), nothing.stderr)
    }

    func testMoveCityJSONGivesTheFigures() throws {
        let move = try XCTUnwrap(try cli.json(["move-city", "51.5010", "-0.1919", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(move["destination"] as? String, "London")
        XCTAssertEqual(try XCTUnwrap(move["distanceMetres"] as? Double), 4_540, accuracy: 60)
        XCTAssertEqual((move["from"] as? [String: Any])?["latitude"] as? Double, 51.500153)
        XCTAssertEqual((move["to"] as? [String: Any])?["longitude"] as? Double, -0.1919)
    }

    func testHistoryListsEveryMoveOldestFirst() throws {
        try cli.succeed(["move-city", "51.5010", "-0.1919"])
        try cli.succeed(["move-city", "51.4875,-0.1687"])
        let text = try cli.succeed(["move-city", "--history"])
        let lines = text.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, text)
        XCTAssertTrue(lines[1].contains("#1") && lines[1].contains("51.501, -0.1919"), text)
        XCTAssertTrue(lines[2].contains("#2") && lines[2].contains("51.4875, -0.1687"), text)
    }

    /// Depends on the real reverse geocoder: the Done criteria with place names.
    func testKensingtonRenamesTheCityAndUndoBringsBackLondon() throws {
        let output = try cli.succeed(["move-city", "51.5010", "-0.1919"])
        XCTAssertTrue(output.contains("to    Kensington"), output)
        XCTAssertTrue(output.contains("moved 4.5 km"), output)
        XCTAssertEqual(try city().name, "Kensington")

        let distance = try cli.succeed(["distance", "--from", "51.47", "-0.45"])
        XCTAssertEqual(distance, "You are now 18.2 km from Kensington\n")

        try cli.succeed(["move-city", "--undo"])
        let restored = try city()
        XCTAssertEqual(restored.name, "London")
        XCTAssertEqual(restored.latitude, 51.500153)
        XCTAssertEqual(restored.longitude, -0.126236)
    }

    /// Depends on the real reverse geocoder: at sea the City keeps its name, with a warning.
    func testAMoveOutToSeaKeepsTheNameAndWarns() throws {
        let result = try cli.run(["move-city", "50.0", "-30.0"])
        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertTrue(result.stderr.contains("keeps its name 'London'"), result.stderr)
        XCTAssertEqual(try city().name, "London")
    }

    /// Depends on the real reverse geocoder: pins get subtitles from the geocode.
    func testShowGivesSubtitlesFromTheGeocode() throws {
        let json = try XCTUnwrap(try cli.json(["destination", "show", "--format", "json"]) as? [String: Any])
        let pins = try XCTUnwrap(json["pins"] as? [[String: Any]])
        XCTAssertTrue(pins.allSatisfy { ($0["subtitle"] as? String)?.contains("United Kingdom") == true }, "\(pins)")
    }

    // MARK: Distance

    func testDistanceSpeaksLikeTheApp() throws {
        XCTAssertEqual(try cli.succeed(["distance"]), "You are now 22.8 km from London\n", "from the airport by default")
        XCTAssertEqual(try cli.succeed(["distance", "--from", "51.47", "-0.45"]), "You are now 22.7 km from London\n")
        XCTAssertEqual(
            try cli.succeed(["distance", "--from", "51.5", "-0.12", "--to", "airport"]),
            "You are now 23.2 km from London Heathrow Airport\n")
        XCTAssertEqual(try cli.succeed(["distance", "--from", "51.500153", "-0.126236"]), "You are now 0 m from London\n")

        let json = try XCTUnwrap(try cli.json(["distance", "--from", "51.47", "-0.45", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(json["distanceMetres"] as? Double), 22_700, accuracy: 100)
        XCTAssertEqual(json["sentence"] as? String, "You are now 22.7 km from London")
        XCTAssertEqual(json["compassPoint"] as? String, "E")
        XCTAssertEqual((json["to"] as? [String: Any])?["name"] as? String, "London")
    }

    func testDistanceAfterAMoveMeasuresToTheNewSpot() throws {
        try cli.succeed(["move-city", "51.5010", "-0.1919"])
        let json = try XCTUnwrap(try cli.json(["distance", "--from", "51.47", "-0.45", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(try XCTUnwrap(json["distanceKilometres"] as? Double), 18.2, accuracy: 0.05)
    }

    // MARK: Region

    func testRegionJSONHasBothPinsAndThePaddingRule() throws {
        let json = try XCTUnwrap(try cli.json(["region", "--format", "json"]) as? [String: Any])
        let pins = try XCTUnwrap(json["pins"] as? [[String: Any]])
        XCTAssertEqual(pins.map { $0["kind"] as? String }, ["airport", "city"])
        XCTAssertEqual((json["rule"] as? [String: Any])?["padding"] as? Double, 0.005)
        XCTAssertEqual((json["rule"] as? [String: Any])?["minimumSpan"] as? Double, 0.01)
        let span = try XCTUnwrap(json["span"] as? [String: Double])
        XCTAssertEqual(try XCTUnwrap(span["latitudeDelta"]), 51.500153 - 51.471184 + 0.005, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(span["longitudeDelta"]), 0.452542 - 0.126236 + 0.005, accuracy: 1e-6)
        let center = try XCTUnwrap(json["center"] as? [String: Double])
        XCTAssertEqual(try XCTUnwrap(center["latitude"]), 51.4856685, accuracy: 1e-6)
        XCTAssertEqual(try XCTUnwrap(center["longitude"]), -0.289389, accuracy: 1e-6)
        XCTAssertEqual(json["crossesAntimeridian"] as? Bool, false)
    }

    func testRegionIncludesExtraPoints() throws {
        let json = try XCTUnwrap(try cli.json(["region", "--include", "51.6", "-0.5", "51.3,0.1", "--format", "json"]) as? [String: Any])
        let span = try XCTUnwrap(json["span"] as? [String: Double])
        XCTAssertEqual(try XCTUnwrap(span["latitudeDelta"]), 0.305, accuracy: 1e-9)
        XCTAssertEqual(try XCTUnwrap(span["longitudeDelta"]), 0.605, accuracy: 1e-9)
        XCTAssertEqual((json["included"] as? [Any])?.count, 2)
        let text = try cli.succeed(["region"])
        XCTAssertTrue(text.contains("  span         0.033969° latitude × 0.331306° longitude\n"), text)
    }

    func testFijiRegionCrossesTheAntimeridianNarrowly() throws {
        // --city-at needs no localities table; the region is the point here.
        try cli.succeed(["destination", "create", "Fiji", "--airport", "TVU", "--city-at", "-18.14161", "178.44149"])
        try assertFijiRegionIsNarrow()
    }

    /// Depends on the places database's localities (the importer): --city finds Suva by name.
    func testFijiByCityNameCrossesTheAntimeridianNarrowly() throws {
        let output = try cli.succeed(["destination", "create", "Fiji", "--airport", "TVU", "--city", "Suva"])
        XCTAssertTrue(output.contains("Suva"), output)
        try assertFijiRegionIsNarrow()
    }

    private func assertFijiRegionIsNarrow(file: StaticString = #filePath, line: UInt = #line) throws {
        let json = try XCTUnwrap(try cli.json(["region", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(json["destination"] as? String, "Fiji", file: file, line: line)
        let span = try XCTUnwrap(json["span"] as? [String: Double])
        let longitudeDelta = try XCTUnwrap(span["longitudeDelta"])
        XCTAssertLessThan(longitudeDelta, 2, file: file, line: line)
        let center = try XCTUnwrap(json["center"] as? [String: Double])
        XCTAssertGreaterThan(abs(try XCTUnwrap(center["longitude"])), 179, "centred near the antimeridian", file: file, line: line)
        XCTAssertEqual(json["crossesAntimeridian"] as? Bool, true, file: file, line: line)
    }

    // MARK: Destinations

    func testCreateUseRenameDeleteAndList() throws {
        let created = try cli.succeed(["destination", "create", "Fiji", "--airport", "tvu", "--city-at", "-18.14161", "178.44149"])
        XCTAssertTrue(created.hasPrefix("Created Fiji (now current)\n"), created)
        XCTAssertTrue(created.contains("airport  green  Matei Airport (TVU)  -16.6906, -179.877    fixed\n"), created)

        let list = try cli.succeed(["destination", "list"])
        XCTAssertTrue(list.contains("*  Fiji"), list)
        XCTAssertTrue(list.contains("\n   London       LHR"), list)

        XCTAssertEqual(try cli.succeed(["destination", "use", "london"]), "London is now the current destination.\n")
        XCTAssertEqual(try cli.succeed(["destination", "rename", "Fiji", "Taveuni"]), "Renamed Fiji to Taveuni.\n")
        XCTAssertTrue(try cli.succeed(["destination", "show", "Taveuni"]).hasPrefix("Taveuni\n"))

        let names = try XCTUnwrap(try cli.json(["destination", "list", "--format", "json"]) as? [[String: Any]])
        XCTAssertEqual(names.map { $0["name"] as? String }, ["London", "Taveuni"])
        XCTAssertEqual(names.map { $0["current"] as? Bool }, [true, false])

        XCTAssertEqual(
            try cli.succeed(["destination", "delete", "London"]),
            "Deleted London.\nTaveuni is now the current destination.\n")
        XCTAssertEqual(try cli.succeed(["distance", "--format", "json"]).contains("\"destination\" : \"Taveuni\""), true)

        let duplicate = try cli.run(["destination", "create", "taveuni", "--airport", "LHR", "--city-at", "51.5", "-0.12"])
        XCTAssertNotEqual(duplicate.status, 0)
        XCTAssertTrue(duplicate.stderr.contains("a destination named 'Taveuni' already exists"), duplicate.stderr)
    }

    func testMovesAndRegionsOfANamedDestination() throws {
        try cli.succeed(["destination", "create", "Fiji", "--airport", "TVU", "--city-at", "-18.14161", "178.44149"])
        try cli.succeed(["move-city", "51.5010", "-0.1919", "--destination", "London"])
        XCTAssertEqual(try city("London").latitude, 51.501)
        XCTAssertEqual(try city("Fiji").latitude, -18.14161, "the current destination was left alone")
        let region = try XCTUnwrap(try cli.json(["region", "--destination", "London", "--format", "json"]) as? [String: Any])
        XCTAssertEqual(region["destination"] as? String, "London")
    }

    func testTheDefaultStateFileIsUnderXDGDataHome() throws {
        let result = try cli.run(["destination", "list"], environment: ["TRAVEL411_STATE": ""])
        XCTAssertEqual(result.status, 0, result.stderr)
        let expected = cli.folder.appendingPathComponent("xdg/travel411/travel.sqlite").path
        XCTAssertTrue(FileManager.default.fileExists(atPath: expected))
        XCTAssertFalse(FileManager.default.fileExists(atPath: cli.statePath))

        let explicit = cli.folder.appendingPathComponent("other.sqlite").path
        try cli.succeed(["destination", "list", "--state", explicit])
        XCTAssertTrue(FileManager.default.fileExists(atPath: explicit))
    }

    // MARK: Airports

    func testAirportsShowGivesTheDetails() throws {
        let output = try cli.succeed(["airports", "show", "lhr"])
        XCTAssertTrue(output.hasPrefix("LHR/EGLL  London Heathrow Airport\n"), output)
        for expected in [
            "city         London", "subdivision  England", "country      GB", "elevation    83 ft (25 m)",
            "time zone    Europe/London", "position     51.4706, -0.46194", "placemark",
        ] {
            XCTAssertTrue(output.contains(expected), "\(expected) in\n\(output)")
        }
        let json = try XCTUnwrap(try cli.json(["airports", "show", "NFNM", "--format", "json"]) as? [String: Any])
        XCTAssertEqual((json["airport"] as? [String: Any])?["iata"] as? String, "TVU")
        XCTAssertNotNil(json["placemark"] as? [String: Any])
    }

    func testAirportsNearListsNearestFirstWithBearings() throws {
        let output = try cli.succeed(["airports", "near", "51.47", "-0.40", "--limit", "3"])
        let lines = output.split(separator: "\n")
        XCTAssertEqual(lines.count, 4, output)
        XCTAssertTrue(lines[0].hasPrefix("CODE"), output)
        XCTAssertTrue(lines[1].hasPrefix("LHR   EGLL  London Heathrow Airport, GB"), output)
        XCTAssertTrue(lines[1].contains(" W ("), output)
        let json = try XCTUnwrap(
            try cli.json(["airports", "near", "-16.7", "-179.9", "--limit", "1", "--format", "json"]) as? [[String: Any]])
        XCTAssertEqual((json.first?["airport"] as? [String: Any])?["iata"] as? String, "TVU", "found across the antimeridian")
    }
}
