import Foundation
import Testing
import Travel411TestSupport

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// Nominatim's country grid (Data/nominatim/country_osm_grid.sql.gz, nominatim-db 5.3.3) decides an extract's
/// countries where the extract holds no country boundary, as Nominatim's `get_country_code` does.
@Suite struct NominatimCountryGridTests {
    /// The pieces around Liechtenstein: its own, smallest, first; Switzerland's and Austria's after it.
    @Test func piecesMeetingABoxComeSmallestFirst() throws {
        let file = try #require(NominatimCountryGrid.embeddedFile)
        let box = BoundingBox(minX: 9.50, minY: 47.205, maxX: 9.575, maxY: 47.275)
        let pieces = try NominatimCountryGrid.pieces(meeting: box, file: file)
        #expect(pieces.first?.code == "LI")
        #expect(Set(pieces.map(\.code)).isSuperset(of: ["LI", "CH", "AT"]))
        #expect(zip(pieces, pieces.dropFirst()).allSatisfy { $0.area <= $1.area })
    }

    /// The north of Liechtenstein cut through its country boundary (`osm/liechtenstein-north.osm.pbf`): Natural
    /// Earth's coarse polygon put Schaanwald in Austria (the village, its postcode 9488 from Austria's side: one
    /// answer of two countries); the grid puts it in Liechtenstein, and the Swiss bank of the Rhine in Switzerland,
    /// as the whole extract's own country boundary does.
    @Test func anExtractCutInsideItsBorderTakesItsCountriesFromTheGrid() throws {
        let (path, summary) = try OSMTownNodeRulesTests.northImport.get()
        #expect(summary.layers.contains { $0.table.hasSuffix("_country_grid") && $0.level == .country && $0.features >= 3 })
        let geocoder = try ReverseGeocoder(databasePath: path)
        func answer(_ latitude: Double, _ longitude: Double) -> Placemark {
            geocoder.placemark(from: geocoder.record(for: Coordinate(latitude: latitude, longitude: longitude)))
        }
        let schaanwald = answer(47.215, 9.562)
        #expect(schaanwald.isoCountryCode == "LI")
        #expect(schaanwald.locality == "Schaanwald")
        #expect(schaanwald.postalCode == "9493")
        let rhineBank = answer(47.2413, 9.508)
        #expect(rhineBank.isoCountryCode == "CH")
        #expect(rhineBank.locality == nil)
    }

    /// A damaged row names the file and the line.
    @Test func aMalformedRowIsReportedWithItsLine() throws {
        let folder = try ProcessScratch.path("country-grid")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let sql = URL(fileURLWithPath: folder).appendingPathComponent("grid.sql")
        try "-- a dump\nCOPY public.country_osm_grid (country_code, area, geometry) FROM stdin;\nli\t0.02\tnot-hex\n\\.\n"
            .write(to: sql, atomically: true, encoding: .utf8)
        let gzip = Process()
        gzip.executableURL = URL(fileURLWithPath: "/bin/gzip")
        gzip.arguments = ["-f", sql.path]
        try gzip.run()
        gzip.waitUntilExit()
        let box = BoundingBox(minX: 9, minY: 47, maxX: 10, maxY: 48)
        #expect {
            _ = try NominatimCountryGrid.pieces(meeting: box, file: sql.appendingPathExtension("gz"))
        } throws: { error in
            "\(error)" == "grid.sql.gz, line 3: the geometry is not hexadecimal WKB"
        }
    }
}
