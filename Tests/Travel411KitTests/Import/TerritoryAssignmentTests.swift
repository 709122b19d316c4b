import Foundation
import XCTest

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411Store
@testable import Travel411StoreWriters

/// tzdata's tables and the overseas-territory rule on their own: real zone.tab and iso3166.tab lines
/// (tzdata 2025b, as in Data/timezones) in files the test writes, and small rectangles standing for
/// the time-zone and country polygons.
final class TerritoryAssignmentTests: XCTestCase {
    private var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("territories-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: folder)
    }

    /// The head of the real zone.tab and the lines these tests use, in its order.
    private static let zoneTab = """
        # tzdb timezone descriptions (deprecated version)
        #
        # This file is in the public domain, so clarified as of
        # 2009-05-17 by Arthur David Olson.
        #
        # 2.  The first data column contains exactly one country code.
        #
        BE\t+5050+00420\tEurope/Brussels
        FR\t+4852+00220\tEurope/Paris
        GF\t+0456-05220\tAmerica/Cayenne
        MV\t+0410+07330\tIndian/Maldives
        PF\t-1732-14934\tPacific/Tahiti\tSociety Islands
        PF\t-0900-13930\tPacific/Marquesas\tMarquesas Islands

        SR\t+0550-05510\tAmerica/Paramaribo

        """

    private static let iso3166Tab = """
        # ISO 3166 alpha-2 country codes
        #
        # This file is in the public domain, so clarified as of
        # 2009-05-17 by Arthur David Olson.
        #
        BE\tBelgium
        FR\tFrance
        GF\tFrench Guiana
        MV\tMaldives
        PF\tFrench Polynesia
        SR\tSuriname

        """

    private func write(_ text: String, _ name: String, in directory: URL? = nil) throws {
        try text.write(to: (directory ?? folder).appendingPathComponent(name), atomically: true, encoding: .utf8)
    }

    private func tables() throws -> TimeZoneCountries {
        try write(Self.zoneTab, "zone.tab")
        try write(Self.iso3166Tab, "iso3166.tab")
        return try TimeZoneCountries.read(from: [folder])
    }

    // MARK: zone.tab and iso3166.tab

    func testReadsZonesAndNamesSkippingCommentsAndBlankLines() throws {
        let tables = try tables()
        XCTAssertEqual(tables.countryOfZone.count, 7)
        XCTAssertEqual(tables.countryOfZone["Indian/Maldives"], "MV")
        XCTAssertEqual(tables.countryOfZone["America/Cayenne"], "GF")
        XCTAssertEqual(tables.countryOfZone["Pacific/Marquesas"], "PF", "a fourth, comment column is allowed")
        XCTAssertEqual(tables.countryOfZone["America/Paramaribo"], "SR", "after a blank line")
        XCTAssertEqual(tables.nameOfCountry["GF"], "French Guiana")
        XCTAssertEqual(tables.nameOfCountry.count, 6)
        XCTAssertFalse(tables.isEmpty)
    }

    /// The first folder holding a zone.tab is read; without any, nothing is inferred from time zones.
    func testFolderWithoutZoneTab() throws {
        let empty = folder.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        XCTAssertTrue(try TimeZoneCountries.read(from: [empty]).isEmpty)
        XCTAssertTrue(try TimeZoneCountries.read(from: []).isEmpty)
        try write(Self.zoneTab, "zone.tab")
        let found = try TimeZoneCountries.read(from: [empty, folder])
        XCTAssertEqual(found.countryOfZone["Europe/Paris"], "FR")
        XCTAssertTrue(found.nameOfCountry.isEmpty, "no iso3166.tab beside it: codes without names")
    }

    /// zone.tab has one country per line; zone1970.tab lists several ("CH,DE,LI" for Europe/Zurich).
    /// Given one in its place, the import says which line it cannot read rather than guessing.
    func testSeveralCountriesOnALineAreRefused() throws {
        try write(Self.zoneTab + "CH,DE,LI\t+4723+00832\tEurope/Zurich\n", "zone.tab")
        XCTAssertThrowsError(try TimeZoneCountries.read(from: [folder])) { error in
            let message = "\(error)"
            XCTAssertTrue(message.contains("zone.tab: line 16:"), message)
            XCTAssertTrue(message.contains("expected a country code"), message)
            XCTAssertEqual((error as? any Travel411Error)?.exitStatus, .dataError)
        }
    }

    func testMalformedIso3166LineIsRefused() throws {
        try write(Self.zoneTab, "zone.tab")
        try write("# codes\nFR France\n", "iso3166.tab")
        XCTAssertThrowsError(try TimeZoneCountries.read(from: [folder])) { error in
            XCTAssertTrue("\(error)".contains("iso3166.tab: line 2:"), "\(error)")
        }
    }

    // MARK: Territories

    private func rectangle(_ west: Double, _ south: Double, _ east: Double, _ north: Double) -> Ring {
        [
            Point2D(x: west, y: south), Point2D(x: east, y: south), Point2D(x: east, y: north), Point2D(x: west, y: north),
            Point2D(x: west, y: south),
        ]
    }

    private func feature(_ layer: String, _ fid: Int64, _ name: String?, _ code: String?) -> LookupCollector.AreaFeature {
        LookupCollector.AreaFeature(layer: layer, fid: fid, name: name, code: code, countryCode: code)
    }

    /// Time zones as the time-zone layer has them (each following its country's coast and waters),
    /// here as rectangles, and Natural Earth's countries: France with metropolitan France, French Guiana
    /// and a sliver beyond the Belgian border, Suriname, Belgium. No polygon for the Maldives.
    private func assignment() throws -> TerritoryAssignment {
        let zoneNames = ["Europe/Paris", "America/Cayenne", "America/Paramaribo", "Indian/Maldives", "Etc/GMT+3", "Europe/Brussels"]
        let zoneRings = [
            rectangle(-5.5, 41, 9.6, 49.5), rectangle(-54, 2, -51, 6.5), rectangle(-58.5, 1.5, -54, 6.5),
            rectangle(72.3, -1, 74, 7.3), rectangle(-45, -10, -35, 10), rectangle(2.5, 49.5, 6.5, 51.6),
        ]
        var zones = AreaIndexBuilder()
        for (z, ring) in zoneRings.enumerated() { zones.add(feature: z, rings: [ring]) }
        let zoneFeatures = zoneNames.enumerated().map { feature("iana_time_zones", Int64($0.offset), $0.element, nil) }
        let countries = [
            feature("ne_10m_admin_0_countries", 0, "France", "FR"), feature("ne_10m_admin_0_countries", 1, "Suriname", "SR"),
            feature("ne_10m_admin_0_countries", 2, "Belgium", "BE"),
        ]
        let polygons = [
            [
                Polygon(exterior: rectangle(-4.8, 42.3, 8.2, 49.4)), Polygon(exterior: rectangle(-53.9, 2.1, -51.6, 5.8)),
                Polygon(exterior: rectangle(4.0, 49.6, 4.3, 49.9)),
            ],
            [Polygon(exterior: rectangle(-58.1, 1.8, -54.1, 6.0))],
            [Polygon(exterior: rectangle(2.6, 49.95, 6.4, 51.5))],
        ]
        return TerritoryAssignment(
            countries: countries, polygons: polygons, zones: try AreaIndex(built: zones.build()), zoneFeatures: zoneFeatures,
            tables: try tables())
    }

    /// French Guiana's part of France lies in America/Cayenne, whose country (GF) has no polygon of its
    /// own: it becomes French Guiana, named by iso3166.tab, and the summary says so.
    func testAnOverseasPartBecomesItsOwnTerritory() throws {
        let assignment = try assignment()
        XCTAssertEqual(assignment.features.count, 5)
        XCTAssertEqual(assignment.features[3].name, "French Guiana")
        XCTAssertEqual(assignment.features[3].code, "GF")
        XCTAssertEqual(assignment.territories, ["French Guiana (GF), from parts of France"])
        XCTAssertEqual(assignment.parts.map(\.feature), [0, 0, 1, 2, 3], "in ascending feature order, as the index wants them")
    }

    /// Every time zone stands for its zone.tab country's feature: its own polygon, the new territory, or
    /// (the Maldives) a feature without polygons that only the time zones lead to. `Etc/` zones have none.
    func testZonesMapToTheirCountriesFeatures() throws {
        let assignment = try assignment()
        XCTAssertEqual(assignment.countryOfZoneFeature, [0, 3, 1, 4, -1, 2])
        XCTAssertEqual(assignment.features[4].name, "Maldives")
        XCTAssertEqual(assignment.features[4].layer, "iso3166.tab")
        XCTAssertFalse(assignment.parts.contains { $0.feature == 4 })
    }

    /// A point inside a country polygon keeps that polygon's country, except for the territory the rule
    /// names: the French sliver in Belgium's time zone stays France (Belgium has a polygon of its own,
    /// the border is merely drawn differently), and Suriname stays Suriname.
    func testAPointInsideACountryPolygonKeepsItsCountry() throws {
        let assignment = try assignment()
        var builder = AreaIndexBuilder()
        assignment.forEachPart { builder.add(feature: $0, rings: $1) }
        let countries = try AreaIndex(built: builder.build())
        func country(_ latitude: Double, _ longitude: Double) -> String? {
            countries.featureIndex(longitude: longitude, latitude: latitude).flatMap { assignment.features[$0].code }
        }
        XCTAssertEqual(country(48.8566, 2.3522), "FR", "Paris")
        XCTAssertEqual(country(49.75, 4.15), "FR", "the sliver in Europe/Brussels")
        XCTAssertEqual(country(50.85, 4.35), "BE", "Brussels")
        XCTAssertEqual(country(5.852, -55.2038), "SR", "Paramaribo")
        XCTAssertEqual(country(4.9372, -52.326), "GF", "Cayenne")
        XCTAssertNil(country(4.175, 73.509), "Malé: no polygon; only the territorial waters rule answers it")
    }

    /// Without zone.tab nothing changes: every part stays with its feature and no zone has a country.
    func testWithoutZoneTabNothingChanges() throws {
        var zones = AreaIndexBuilder()
        zones.add(feature: 0, rings: [rectangle(-54, 2, -51, 6.5)])
        let assignment = TerritoryAssignment(
            countries: [feature("ne_10m_admin_0_countries", 0, "France", "FR")],
            polygons: [[Polygon(exterior: rectangle(-53.9, 2.1, -51.6, 5.8))]], zones: try AreaIndex(built: zones.build()),
            zoneFeatures: [feature("iana_time_zones", 0, "America/Cayenne", nil)], tables: TimeZoneCountries())
        XCTAssertEqual(assignment.features.map(\.code), ["FR"])
        XCTAssertEqual(assignment.parts.map(\.feature), [0])
        XCTAssertEqual(assignment.countryOfZoneFeature, [-1])
        XCTAssertTrue(assignment.territories.isEmpty)
    }
}
