import Foundation
import Testing
import Travel411OSMReader
import Travel411TestSupport

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store

/// `travel411 import west.osm.pbf east.osm.pbf`: two extracts that overlap, as neighbouring countries' do, read
/// as one. The reference is osmium-tool's `osmium merge` of the same two files (Tests/Fixtures/osm/merge).
@Suite struct OSMMergedExtractsTests {
    static let folder = OSMShapefileImportTests.fixtures.appendingPathComponent("merge")
    static let west = folder.appendingPathComponent("vaduz-west.osm.pbf")
    static let east = folder.appendingPathComponent("vaduz-east.osm.pbf")
    static let merged = folder.appendingPathComponent("vaduz-merged.osm.pbf")

    /// Every feature the reader hands over, whole, in order.
    static func features(_ paths: [URL]) throws -> [OSMFeature] {
        var features: [OSMFeature] = []
        try OSMExtractReader(paths: paths.map(\.path)).read { features.append($0) }
        return features
    }

    /// A geocoder on the database of `paths` imported together, as `name` in `scratch`.
    static func geocoder(_ paths: [URL], _ name: String, in scratch: OSMShapefileImportTests.Scratch) throws -> ReverseGeocoder {
        _ = try Importer(options: ImportOptions(paths: paths, databasePath: scratch.path(name), extractReader: .libosmium)).run()
        return try ReverseGeocoder(databasePath: scratch.path(name))
    }

    /// Every field `where` prints, `osmType` and `osmId` too, at a zoom.
    static func fields(_ geocoder: ReverseGeocoder, _ point: Coordinate, zoom: Int) -> [String?] {
        let placemark = geocoder.placemark(from: geocoder.record(for: point, maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
        return PlacemarkField.allCases.map { $0.text(in: placemark) }
    }

    @Test func twoExtractsReadAsOneAreOsmiumsMerge() throws {
        let both = try Self.features([Self.west, Self.east])
        let reference = try Self.features([Self.merged])
        #expect(both.count == reference.count)
        #expect(both == reference)
        // Read one after the other, the shared objects would come twice.
        let separately = try Self.features([Self.west]).count + Self.features([Self.east]).count
        #expect(separately > both.count)
    }

    @Test func theOrderOfTheExtractsDoesNotMatter() throws {
        #expect(try Self.features([Self.east, Self.west]) == Self.features([Self.west, Self.east]))
    }

    @Test func anExtractGivenTwiceIsReadOnce() throws {
        #expect(try Self.features([Self.west, Self.west]) == Self.features([Self.west]))
    }

    /// The database of both extracts holds each object once and answers as the merged file's does.
    @Test func theDatabaseOfBothAnswersAsTheMergedFiles() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let both = scratch.path("both.gpkg")
        let reference = scratch.path("reference.gpkg")
        let summary = try Importer(options: ImportOptions(paths: [Self.west, Self.east], databasePath: both, extractReader: .libosmium))
            .run()
        let referenceSummary = try Importer(
            options: ImportOptions(paths: [Self.merged], databasePath: reference, extractReader: .libosmium)
        ).run()
        #expect(summary.layers.map(\.features) == referenceSummary.layers.map(\.features))
        #expect(summary.layers.map(\.table).contains("vaduz_west_vaduz_east_streets"))
        let database = try SQLiteDatabase(path: both, mode: .readOnly)
        let duplicates = try database.query(
            "SELECT COUNT(*) FROM (SELECT osm_type, osm_id FROM vaduz_west_vaduz_east_streets GROUP BY 1, 2 HAVING COUNT(*) > 1)")
        #expect(duplicates.first?.first?.int64Value == 0)
        // Both extracts are its sources, so that `import --append` rebuilds from them.
        let sources = try database.query("SELECT DISTINCT path FROM travel411_sources WHERE layer = 'vaduz_west_vaduz_east_streets'")
        #expect(
            sources.compactMap { $0[0].stringValue.map { URL(fileURLWithPath: $0).lastPathComponent } }.sorted() == [
                "vaduz-east.osm.pbf", "vaduz-west.osm.pbf",
            ])
        let geocoder = try ReverseGeocoder(databasePath: both)
        let referenceGeocoder = try ReverseGeocoder(databasePath: reference)
        var compared = 0
        for latitude in stride(from: 47.125, through: 47.165, by: 0.004) {
            for longitude in stride(from: 9.495, through: 9.555, by: 0.004) {
                let point = Coordinate(latitude: latitude, longitude: longitude)
                #expect(geocoder.placemark(for: point) == referenceGeocoder.placemark(for: point), "at \(latitude), \(longitude)")
                compared += 1
            }
        }
        #expect(compared > 100)
    }

    /// Extracts of two countries in one database answer each as alone: a country's suburbs come from its own
    /// boundaries or place nodes (`OSMLevelSources`), so München's suburb boundaries leave Liechtenstein's suburbs
    /// drawn around its place nodes (Masescha's, in Triesenberg) as they are (issue 35); they left it none.
    @Test func extractsOfTwoCountriesAnswerEachAsAlone() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let triesenberg = OSMShapefileImportTests.fixtures.appendingPathComponent("liechtenstein-triesenberg-2021.osm.pbf")
        let munchen = OSMShapefileImportTests.fixtures.appendingPathComponent("munchen-bezirksteile-2020.osm.pbf")
        let geocoder = { (paths: [URL], name: String) in try Self.geocoder(paths, name, in: scratch) }
        let both = try geocoder([triesenberg, munchen], "both.gpkg")
        let masescha = Coordinate(latitude: 47.131501, longitude: 9.543568)
        #expect(both.placemark(for: masescha).subLocality == "Masescha")
        let cases = [
            (try geocoder([triesenberg], "triesenberg.gpkg"), [masescha]),
            (try geocoder([munchen], "munchen.gpkg"), [Coordinate(latitude: 48.1374, longitude: 11.5755)]),
        ]
        for (alone, points) in cases {
            for point in points {
                for zoom in [18, 14, 10] {
                    #expect(Self.fields(both, point, zoom: zoom) == Self.fields(alone, point, zoom: zoom), "at \(point), zoom \(zoom)")
                }
            }
        }
    }

    /// A French street by Monaco's border, in a database of Monaco's and Andorra's extracts, answers France and France's
    /// time zone, as in Monaco's alone: the country grid then has several pieces of France, and the zones name the first
    /// of them (`ReverseGeocoder.soleTimeZone(ofCountry:zones:)`), not the one by Monaco; it answered Europe/Monaco.
    @Test func aCountryOfSeveralPiecesKeepsItsOwnTimeZone() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let monaco = OSMShapefileImportTests.fixtures.appendingPathComponent("monaco-2020-07-19.osm.pbf")
        let andorra = OSMShapefileImportTests.fixtures.appendingPathComponent("andorra-localities-2020-05.osm.pbf")
        let options = ImportOptions(paths: [monaco, andorra], databasePath: scratch.path("both.gpkg"), extractReader: .libosmium)
        _ = try Importer(options: options).run()
        let placemark = try ReverseGeocoder(databasePath: scratch.path("both.gpkg"))
            .placemark(for: Coordinate(latitude: 43.749440, longitude: 7.438433))
        #expect(placemark.thoroughfare == "Avenue Princesse Grace")
        #expect(placemark.isoCountryCode == "FR" && placemark.timeZone == "Europe/Paris")
    }

    /// Each file's extent is its own when several are read as one: the reader reports every file's node extent.
    @Test func eachFileKeepsItsExtent() throws {
        let monaco = OSMShapefileImportTests.fixtures.appendingPathComponent("monaco-2020-07-19.osm.pbf")
        let andorra = OSMShapefileImportTests.fixtures.appendingPathComponent("andorra-localities-2020-05.osm.pbf")
        let summary = try OSMExtractReader(paths: [monaco.path, andorra.path]).read { _ in }
        let extents = summary.fileExtents.compactMap { $0 }
        #expect(extents.count == 2)
        #expect(extents.first.map { $0.minY > 43.5 && $0.maxY < 43.8 && $0.minX > 7.3 && $0.maxX < 7.55 } == true)
        #expect(extents.last.map { $0.minY > 42.3 && $0.maxY < 42.8 && $0.minX > 1.3 && $0.maxX < 1.9 } == true)
    }

    /// Points near Monaco's extract but outside it answer as with Monaco's extract alone when Andorra's shares the
    /// database: the extracts' rules hold in each file's extent (`osm_coverage`, one box per file), not in one box
    /// from Andorra to Monaco, which took in the French coast beside Monaco (issue 35). And Llívia (Spain's exclave in
    /// France, east of Andorra) answers as with Andorra's alone: the country grid's pieces are those meeting each
    /// file's extent; the one box took in Llívia's piece (Spain, where Andorra's alone answers Natural Earth's France).
    /// Andorra's own points, from an extract without objects, answer as with it alone.
    @Test func theSpaceBetweenTwoExtractsIsNeitherOnes() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let monaco = OSMShapefileImportTests.fixtures.appendingPathComponent("monaco-2020-07-19.osm.pbf")
        let andorra = OSMShapefileImportTests.fixtures.appendingPathComponent("andorra-localities-2020-05.osm.pbf")
        let geocoder = { (paths: [URL], name: String) in try Self.geocoder(paths, name, in: scratch) }
        let both = try geocoder([monaco, andorra], "both.gpkg")
        let alone = try geocoder([monaco], "monaco.gpkg")
        let llivia = Coordinate(latitude: 42.485127, longitude: 1.987750)
        let andorraAlone = try geocoder([andorra], "andorra.gpkg")
        for zoom in [18, 14, 10] {
            #expect(Self.fields(both, llivia, zoom: zoom) == Self.fields(andorraAlone, llivia, zoom: zoom), "Llívia, zoom \(zoom)")
        }
        // Andorra's extract holds no address or POI: alone, its points answered by the nearby-feature rules (no
        // postcode), and beside Monaco's, whose objects made the objects' level, as Nominatim. Every extract's import
        // now writes the level, empty or not. Nominatim 5.3.3 on this cut answers Segudet (node 64954570), AD300.
        let segudet = Coordinate(latitude: 42.557348, longitude: 1.551009)
        for point in [segudet, Coordinate(latitude: 42.471567, longitude: 1.631008)] {
            for zoom in [18, 14, 10] {
                #expect(Self.fields(both, point, zoom: zoom) == Self.fields(andorraAlone, point, zoom: zoom), "at \(point), zoom \(zoom)")
            }
        }
        #expect(andorraAlone.placemark(for: segudet).postalCode == "AD300")
        let coverage = try #require(OSMAnswerRules.read(databasePath: scratch.path("both.gpkg"))?.coverage)
        #expect(coverage.count == 2)
        #expect(!coverage.contains { $0.contains(x: 4.5, y: 43.2) })  // between the two, in the Camargue
        for point in [
            Coordinate(latitude: 43.70, longitude: 7.30), Coordinate(latitude: 43.66, longitude: 7.45),
            Coordinate(latitude: 43.79, longitude: 7.52), Coordinate(latitude: 43.76, longitude: 7.36),
        ] {
            for zoom in [18, 14, 10] {
                #expect(Self.fields(both, point, zoom: zoom) == Self.fields(alone, point, zoom: zoom), "at \(point), zoom \(zoom)")
            }
        }
    }

    /// A fault in the second file names that file.
    @Test func aBrokenSecondExtractIsNamed() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let truncated = URL(fileURLWithPath: scratch.path("truncated.osm.pbf"))
        try Data(try Data(contentsOf: Self.east).prefix(40_000)).write(to: truncated)
        #expect {
            try OSMExtractReader(paths: [Self.west.path, truncated.path]).read { _ in }
        } throws: { error in
            (error as? OSMExtractError)?.file == truncated.path
        }
    }
}
