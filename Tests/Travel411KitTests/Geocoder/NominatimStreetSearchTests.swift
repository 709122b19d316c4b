import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store

/// A database imported from an OpenStreetMap extract answers the street-level fields as Nominatim 5.3.3 does on
/// the same extract. Each case is a point of `Scripts/nominatim-compare`'s seeded sets, with Nominatim's
/// answer there as its own server gave it (docs/osm.md), and the rule it shows.
@Suite struct NominatimStreetSearchTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var rule: String
        var latitude: Double, longitude: Double, zoom: Int
        var name: String?
        var road: String?
        var houseNumber: String?
        var postcode: String?
        var testDescription: String { rule }
    }

    static let helsinkiCases = [
        Case(
            rule: "an unnamed bench is the nearest object: no number, its parent street's road and postcode",
            latitude: 60.175170, longitude: 24.946020, zoom: 18, name: "Kaisaniemenranta", road: "Kaisaniemenranta",
            postcode: "00530"),
        Case(
            rule: "a pedestrian square mapped as a multipolygon relation is a street",
            latitude: 60.170771, longitude: 24.943375, zoom: 17, name: "Rautatientori", road: "Rautatientori", postcode: "00014"),
        Case(
            rule: "an unnamed area=yes square is no street; the street's postcode is the centroid nearest its midpoint",
            latitude: 60.171947, longitude: 24.942349, zoom: 16, name: "Vilhonkatu", road: "Vilhonkatu", postcode: "00101"),
        Case(
            rule: "inside a named building with an address: the building answers",
            latitude: 60.175580, longitude: 24.939828, zoom: 18, name: "Alma-talo", road: "Alvar Aallon katu", houseNumber: "3",
            postcode: "00100"),
        Case(
            rule: "zoom 16 looks at major streets only (a footway, Opintoputki, is nearer)",
            latitude: 60.170817, longitude: 24.948336, zoom: 16, name: "Vuorikatu", road: "Vuorikatu", postcode: "00014"),
        Case(
            rule: "zoom 17 looks at every street: the Opintoputki footway",
            latitude: 60.170817, longitude: 24.948336, zoom: 17, name: "Opintoputki", road: "Opintoputki", postcode: "00014"),
        Case(
            rule: "a restaurant with an address names the spot",
            latitude: 60.166165, longitude: 24.950632, zoom: 18, name: "Ravintola Bank", road: "Unioninkatu", houseNumber: "20",
            postcode: "00131"),
    ]

    static let liechtensteinCases = [
        Case(
            rule: "no street within 0.007°: the municipality answers with its one postcode",
            latitude: 47.053428, longitude: 9.560486, zoom: 18, name: "Triesen", postcode: "9495"),
        Case(
            rule: "a municipality with one postcode point inside it",
            latitude: 47.160691, longitude: 9.568345, zoom: 18, name: "Triesenberg", postcode: "9497"),
        Case(
            rule: "a street's postcode from the landuse area carrying addr:postcode 9485",
            latitude: 47.192782, longitude: 9.543461, zoom: 18, name: "Keltenstrasse", road: "Keltenstrasse", postcode: "9485"),
    ]

    static func answer(_ path: String, _ c: Case) throws -> Placemark {
        let geocoder = try ReverseGeocoder(databasePath: path)
        let coordinate = Coordinate(latitude: c.latitude, longitude: c.longitude)
        return geocoder.placemark(from: geocoder.record(for: coordinate, maximumRank: NominatimDetail.maximumRank(zoom: c.zoom)))
    }

    @Test(arguments: helsinkiCases)
    func helsinki(_ c: Case) throws {
        let placemark = try Self.answer(try OSMExtractImportTests.helsinkiImport.get().path, c)
        #expect(placemark.name == c.name)
        #expect(placemark.thoroughfare == c.road)
        #expect(placemark.subThoroughfare == c.houseNumber)
        #expect(placemark.postalCode == c.postcode)
    }

    @Test(arguments: liechtensteinCases)
    func liechtenstein(_ c: Case) throws {
        let placemark = try Self.answer(try OSMExtractImportTests.liechtensteinImport.get().path, c)
        #expect(placemark.name == c.name)
        #expect(placemark.thoroughfare == c.road)
        #expect(placemark.subThoroughfare == c.houseNumber)
        #expect(placemark.postalCode == c.postcode)
    }

    /// An address point or POI whose `addr:street` names no street near, or that has none, belongs to the
    /// nearest named street, measured in degrees from its node or its box (0.015°, else 0.1°; `ObjectBoxStreets`):
    /// decided at import, it is what a search among the written streets finds, for every such object.
    @Test(arguments: ["helsinki", "liechtenstein"])
    func anObjectWithoutAParentBelongsToTheNearestNamedStreet(_ extract: String) throws {
        let path = try Self.importPath(extract)
        let geocoder = try ReverseGeocoder(databasePath: path)
        let objects = try #require(geocoder.lookup.objectLevel()), streets = try #require(geocoder.lookup.streetLevel())
        let objectCount = try Self.objectCount(path)
        let named: (UInt32) -> Bool = { !(streets.names.bytes(Int($0), PlacesSchema.StreetField.name.rawValue)?.isEmpty ?? true) }
        let minor: (UInt32) -> Bool = {
            streets.names.bytes(Int($0), PlacesSchema.StreetField.rank.rawValue).map { String(decoding: $0, as: UTF8.self) } == "27"
        }
        func field(_ id: Int, _ field: PlacesSchema.ObjectField) -> UInt32? {
            ReverseGeocoder.number(objects.names.bytes(id, field.rawValue))
        }
        var orphans = 0
        for id in 0..<objectCount {
            guard field(id, .parent) == nil else {
                #expect(field(id, .nearestStreet) == nil, "object \(id) has a parent street")
                continue
            }
            orphans += 1
            let centre = try #require(ReverseGeocoder.centre(of: UInt32(id), objects: objects))
            let extent = ReverseGeocoder.extent(objects.names.bytes(id, PlacesSchema.ObjectField.extent.rawValue))
            // A street of the object's own country (`NominatimPartitions`; each of these countries has its own partition).
            let country = objects.names.bytes(id, PlacesSchema.ObjectField.country.rawValue).map { Array($0) }
            let ofItsCountry: (UInt32) -> Bool = { street in
                let field = PlacesSchema.StreetPostcodeField.country.rawValue
                let own = geocoder.withStreetPostcodes { $0.bytes(Int(street), field).map { Array($0) } } ?? nil
                return named(street) && (country == nil || own == nil || own == country)
            }
            let nearest = ObjectNearestStreets.reachesDegrees.lazy.compactMap { reach -> UInt32? in
                guard let extent, extent.minX < extent.maxX || extent.minY < extent.maxY else {
                    return ObjectNearestStreets.nearest(
                        toNode: centre, reach: reach, streets: streets.index, isMinor: minor, accept: ofItsCountry)
                }
                let object = ObjectBoxStreets.Object(box: extent, centre: centre)
                return ObjectBoxStreets.nearest(to: object, reach: reach, streets: streets.index, isMinor: minor, accept: ofItsCountry)
            }.first
            #expect(field(id, .nearestStreet) == nearest, "object \(id)")
        }
        // Most POIs carry no addr:street: the bench of Kaisaniemenranta above is one.
        #expect(orphans > (extract == "helsinki" ? 1_000 : 100))
        // The levels read the geocoder's database, open while it lives.
        withExtendedLifetime(geocoder) {}
    }

    /// Of the ways its `addr:street` names, an object belongs to the one whose line passes nearest, as Nominatim's
    /// `getNearestNamedRoadPlaceId` orders them, not the one whose centre is nearest: the Hilton Helsinki Strand
    /// (node 55211772, addr:street John Stenbergin ranta) lies by way 81149133, while the centre of way 122869878
    /// of that name is nearer. Nominatim 5.3.3 on this extract answers the hotel, with its house number, at points
    /// where that way is the nearest street.
    @Test func anObjectBelongsToTheWayOfItsStreetThatPassesNearest() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.importPath("helsinki"))
        let objects = try #require(geocoder.lookup.objectLevel()), streets = try #require(geocoder.lookup.streetLevel())
        func text(_ bytes: UnsafeBufferPointer<UInt8>?) -> String { bytes.map { String(decoding: $0, as: UTF8.self) } ?? "" }
        let hilton = try #require(
            (0..<(try Self.objectCount(Self.importPath("helsinki")))).first {
                text(objects.names.bytes($0, PlacesSchema.ObjectField.element.rawValue)) == "N55211772"
            })
        let parent = try #require(ReverseGeocoder.number(objects.names.bytes(hilton, PlacesSchema.ObjectField.parent.rawValue)))
        #expect(text(streets.names.bytes(Int(parent), PlacesSchema.StreetField.element.rawValue)) == "W81149133")
        withExtendedLifetime(geocoder) {}
    }

    /// An object's postcode comes from any of Nominatim's postcode keys (`ADDRESS_TAGS.core.postcode`,
    /// `lib-lua/themes/nominatim/presets.lua`): the Sports Academy Helsinki pub (node 1369465685) has no
    /// addr:postcode but `postal_code=00100`; a TIGER road (way 6713131 of valhalla's Harrisburg test data, tags
    /// as written there) has its `tiger:zip_left`; a boundary's `postal_code` names its area, not a point.
    @Test func anObjectsPostcodeComesFromNominatimsPostcodeKeys() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.importPath("helsinki"))
        let objects = try #require(geocoder.lookup.objectLevel())
        func text(_ id: Int, _ field: PlacesSchema.ObjectField) -> String {
            objects.names.bytes(id, field.rawValue).map { String(decoding: $0, as: UTF8.self) } ?? ""
        }
        let pub = try #require((0..<(try Self.objectCount(Self.importPath("helsinki")))).first { text($0, .element) == "N1369465685" })
        #expect(text(pub, .postcode) == "00100")
        withExtendedLifetime(geocoder) {}
        let road: OSMTags = [
            "highway": "residential", "name": "J Avenue", "tiger:cfcc": "A41", "tiger:county": "York, PA", "tiger:zip_left": "17070",
            "tiger:zip_right": "17070",
        ]
        #expect(OSMFeatureClassifier.postcode(road) == "17070")
        #expect(OSMFeatureClassifier.postcode(["boundary": "administrative", "admin_level": "8", "postal_code": "6800"]) == nil)
    }

    /// The buildings and areas holding a point, found among those whose extent covers its cell (`ObjectCovers`)
    /// with the ray ending at the farthest of them, are those the full ray finds (narrower than its reach),
    /// at 4,000 seeded points of central Helsinki (604 of them inside one).
    @Test func theOutlinesCoveringACellHoldWhatTheFullRayFinds() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.helsinkiImport.get().path)
        let objects = try #require(geocoder.lookup.objectLevel()), covers = try #require(geocoder.lookup.objectCovers())
        let reach = ReverseGeocoder.nominatimSearchDegrees
        func narrow(_ ids: [UInt32], _ point: Coordinate) -> [UInt32] {
            ids.filter { id in
                ReverseGeocoder.extent(objects.names.bytes(Int(id), PlacesSchema.ObjectField.extent.rawValue)).map {
                    $0.maxX <= point.longitude + reach
                } ?? false
            }
        }
        var inside = 0
        for point in Self.centralHelsinki(4_000, seed: 411) {
            let full = narrow(objects.index.outlinesHolding(point, reachDegrees: reach), point)
            let covered =
                ObjectCovers.candidates(at: point, covers: covers).map {
                    narrow(objects.index.outlinesHolding(point, reachDegrees: reach, among: $0.lines, scanningTo: $0.lastX), point)
                } ?? []
            #expect(covered == full, "at \(point.latitude), \(point.longitude)")
            if !full.isEmpty { inside += 1 }
        }
        #expect(inside > 500)
        withExtendedLifetime(geocoder) {}
    }

    /// An object's category as its record keeps it (`amenity=bench`), split as Nominatim's class and type; a
    /// record without a key (damaged) has none, and does not stop the answer.
    @Test func anObjectsCategoryIsItsKeyAndValue() {
        #expect(ReverseGeocoder.keyAndValue("amenity=bench").map { [$0.0, $0.1] } == ["amenity", "bench"])
        #expect(ReverseGeocoder.keyAndValue("building").map { [$0.0, $0.1] } == ["building", "yes"])
        #expect(ReverseGeocoder.keyAndValue("building=").map { [$0.0, $0.1] } == ["building", "yes"])
        #expect(ReverseGeocoder.keyAndValue("note=a=b").map { [$0.0, $0.1] } == ["note", "a=b"])
        #expect(ReverseGeocoder.keyAndValue("=") == nil)
        #expect(ReverseGeocoder.keyAndValue("") == nil)
    }

    /// `count` seeded points uniform in the Helsinki extract's box.
    static func centralHelsinki(_ count: Int, seed: UInt64) -> [Coordinate] {
        var random = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            Coordinate(
                latitude: Double.random(in: 60.1642..<60.1791, using: &random),
                longitude: Double.random(in: 24.9352..<24.9534, using: &random))
        }
    }

    /// The database imported from the extract `helsinki` or `liechtenstein`.
    static func importPath(_ extract: String) throws -> String {
        try (extract == "helsinki" ? OSMExtractImportTests.helsinkiImport : OSMExtractImportTests.liechtensteinImport).get().path
    }

    /// How many objects (address points and POIs) the database holds.
    static func objectCount(_ path: String) throws -> Int { try recordCount(path, of: .objects, pageLevel: 1) }

    /// How many records a line index holds (its records are pages of `PageKind.streetRecords` at `pageLevel`): full
    /// pages of 256 records, then the last page's.
    static func recordCount(_ path: String, of index: PlacesSchema.LineIndex, pageLevel: Int64) throws -> Int {
        let database = try SQLiteDatabase(path: path, mode: .readOnly)
        let pages = try #require(
            try database.query("SELECT record_pages FROM travel411_line_indexes WHERE level = ?", [.text(index.rawValue)]).first?.first?
                .int64Value)
        let stored = try #require(
            database.blobStorage(
                table: "travel411_pages", column: "blob",
                rowID: PlacesSchema.PageKind.streetRecords.key(level: pageLevel, page: Int(pages) - 1)))
        let lastPage = try PageCompression.page(UnsafeRawBufferPointer(start: stored.base, count: stored.count))
        return (Int(pages) - 1) * PagedRecords.pageSize + (try RecordTable(storage: lastPage).recordCount)
    }

    /// Each street's list of addresses (`StreetAddresses`) holds exactly the objects whose parent is the street, or
    /// without one whose nearest street it is (Nominatim's `parent_place_id`), and that have a house number, with the centre and extent their records give, every centre in reach found by
    /// its longitude: checked object by object on the Helsinki and Liechtenstein imports.
    @Test(arguments: ["helsinki", "liechtenstein"])
    func eachStreetListsTheAddressesWhoseParentItIs(_ extract: String) throws {
        let path = try Self.importPath(extract)
        let geocoder = try ReverseGeocoder(databasePath: path)
        let objects = try #require(geocoder.lookup.objectLevel()), addresses = try #require(geocoder.lookup.streetAddresses())
        var expected: [UInt32: [StreetAddresses.Entry]] = [:]
        for id in 0..<(try Self.objectCount(path)) {
            guard
                let parent = ReverseGeocoder.number(objects.names.bytes(id, PlacesSchema.ObjectField.parent.rawValue))
                    ?? ReverseGeocoder.number(objects.names.bytes(id, PlacesSchema.ObjectField.nearestStreet.rawValue)),
                !(objects.names.bytes(id, PlacesSchema.ObjectField.houseNumber.rawValue)?.isEmpty ?? true)
            else { continue }
            expected[parent, default: []].append(
                StreetAddresses.Entry(
                    object: UInt32(id), centre: ReverseGeocoder.centre(of: UInt32(id), objects: objects),
                    extent: ReverseGeocoder.extent(objects.names.bytes(id, PlacesSchema.ObjectField.extent.rawValue))))
        }
        // The streets with addresses of their own: the extracts are fixed, so are their counts. Helsinki's were 415
        // while an address went to the way of its street whose centre is nearest; to the way passing nearest, the
        // short ways of a street (a bridge, a piece between crossings) have none (an independent count over the
        // extract's nodes and ways: 413 → 359). The addresses whose street is only their nearest (no `addr:street`
        // of a street near) add 19 streets (Liechtenstein 8): 365 → 384, 51 → 59. Measuring the lines of up to 16
        // ways of an `addr:street`'s name, not 4 (`OSMParentStreets.maximumCandidates`), and a corner node's rank-26
        // street before a footway as near: 384 → 376.
        #expect(expected.count == (extract == "helsinki" ? 376 : 59))
        for (street, entries) in expected {
            let field = try #require(addresses.bytes(Int(street), 0))
            let list = try #require(StreetAddresses(field))
            for entry in entries {
                var found: [StreetAddresses.Entry] = []
                list.forEach(nearLongitude: entry.centre?.longitude ?? 0, reach: 1e-9) { found.append($0) }
                #expect(found.contains(entry), "object \(entry.object) of street \(street)")
            }
            var all: [StreetAddresses.Entry] = []
            list.forEach(nearLongitude: 0, reach: 360) { all.append($0) }
            // Beside them, the nodes carrying a building's number (`OSMInheritedStreetNumberTests`).
            #expect(Set(all.filter { $0.building == nil }.map(\.object)) == Set(entries.map(\.object)), "street \(street)")
        }
        withExtendedLifetime(geocoder) {}
    }

    /// A search for points only (POI and address nodes) finds what a search asking each object's record whether
    /// it is a point finds, at 4,000 seeded points of central Helsinki.
    @Test func aSearchForPointsFindsWhatTheRecordsCallPoints() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.helsinkiImport.get().path)
        let objects = try #require(geocoder.lookup.objectLevel())
        let isPoint: (UInt32) -> Bool = { objects.names.bytes(Int($0), PlacesSchema.ObjectField.extent.rawValue)?.isEmpty ?? true }
        var found = 0
        for point in Self.centralHelsinki(4_000, seed: 412) {
            let asked = objects.index.nearestInDegrees(to: point, radiusDegrees: 0.001, accept: isPoint)
            let points = objects.index.nearestInDegrees(to: point, radiusDegrees: 0.001, pointsOnly: true, accept: isPoint)
            #expect(points?.id == asked?.id && points?.degrees == asked?.degrees, "at \(point.latitude), \(point.longitude)")
            if asked != nil { found += 1 }
        }
        #expect(found > 2_000)
        withExtendedLifetime(geocoder) {}
    }

    /// Oberplanken, a place node of Planken, names no street of Schaan or Eschen next door; nor does Planken's
    /// village node.
    @Test func aPlaceNodeNamesOnlyItsOwnMunicipality() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let keltenstrasse = geocoder.placemark(for: Coordinate(latitude: 47.192782, longitude: 9.543461))
        #expect(keltenstrasse.subLocality == nil)
        let oberplanken = geocoder.placemark(for: Coordinate(latitude: 47.184648, longitude: 9.546736))
        #expect(oberplanken.subLocality == "Oberplanken" && oberplanken.locality == "Planken")
    }

    /// The object answering is named as Nominatim names it: element, main tag, rank, point and box, as
    /// Nominatim's own answer there (node 311101212, boundingbox 60.1661695-60.1662695, 24.9509331-24.9510331).
    @Test func theAnsweringObjectIsNamedAsNominatimNamesIt() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.helsinkiImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.166165, longitude: 24.950632))
        let feature = try #require(placemark.feature)
        #expect(feature.elementType == .node && feature.elementID == 311_101_212)
        #expect(feature.category == "amenity" && feature.type == "restaurant" && feature.rank == 30)
        #expect(feature.location == Coordinate(latitude: 60.1662195, longitude: 24.9509831))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2))
        #expect(answer.contains(#""osm_type":"node","osm_id":311101212,"lat":"60.1662195","lon":"24.9509831""#))
        #expect(answer.contains(#""category":"amenity","type":"restaurant","place_rank":30"#))
        #expect(answer.contains(#""boundingbox":["60.1661695","60.1662695","24.9509331","24.9510331"]"#))
        #expect(answer.contains(#""address":{"amenity":"Ravintola Bank","house_number":"20","road":"Unioninkatu""#))
        #expect(answer.contains(#""display_name":"Ravintola Bank, 20, Unioninkatu, Kaartinkaupunki, Helsinki,"#))
        // GeocodeJSON types the answer by its address rank: a point of interest is a `house`, with a number or without
        // (the statue of Aleksis Kivi, node 60131847), as Nominatim's `GEOCODEJSON_RANKS` has it.
        let statue = geocoder.placemark(for: Coordinate(latitude: 60.1716805, longitude: 24.9439182))
        let statueJSON = NominatimFormatter.answer(statue, options: NominatimOptions(format: .geocodejson))
        #expect(statueJSON.contains(#""osm_id":60131847,"osm_key":"amenity","osm_value":"#), "\(statueJSON)")
        #expect(statueJSON.contains(#""type":"house""#), "\(statueJSON)")

        // A named building heads its address too, as Nominatim's (`building`: Alma-talo).
        let building = NominatimFormatter.answer(
            geocoder.placemark(for: Coordinate(latitude: 60.175580, longitude: 24.939828)), options: NominatimOptions(format: .jsonv2))
        #expect(building.contains(#""display_name":"Alma-talo, 3, Alvar Aallon katu, Kaisaniemi, Helsinki,"#))
        #expect(building.contains(#""address":{"building":"Alma-talo","house_number":"3","road":"Alvar Aallon katu""#))

        // A street answers with its way, its class and the point of it nearest to the query.
        let street = geocoder.placemark(
            from: geocoder.record(for: Coordinate(latitude: 60.171947, longitude: 24.942349), maximumRank: 27))
        #expect(street.feature?.elementType == .way && street.feature?.elementID == 29_498_962)
        #expect(street.feature?.category == "highway" && street.feature?.type == "unclassified" && street.feature?.rank == 26)
    }

    /// With no street or building within 0.007°, the municipality answers as its boundary relation, as
    /// Nominatim's does (relation 37, Triesen, in the renumbered 2013 extract).
    @Test func aMunicipalityAnswersAsItsBoundary() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 47.053428, longitude: 9.560486))
        #expect(placemark.feature == nil)
        #expect(placemark.localityFeature?.elementType == .relation && placemark.localityFeature?.elementID == 37)
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2))
        #expect(answer.contains(#""osm_type":"relation","osm_id":37,"#))
        #expect(answer.contains(#""category":"boundary","type":"administrative","place_rank":16"#))
    }

    /// Above street level the answer is a suburb or municipality with its own postcode, as Nominatim gives it:
    /// a place node the nearest postcode point whose box holds it, a boundary its one postcode point inside.
    @Test(arguments: [
        (60.166165, 24.950632, 14, "Kaartinkaupunki", "00130"), (60.175580, 24.939828, 14, "Kaisaniemi", "00014"),
        (60.166165, 24.950632, 10, "Helsinki", "00100"), (60.175580, 24.939828, 12, "Helsinki", "00100"),
    ])
    func aSuburbOrCityAnswersWithItsOwnPostcode(latitude: Double, longitude: Double, zoom: Int, name: String, postcode: String) throws {
        try Self.expectAreaPostcode(
            OSMExtractImportTests.helsinkiImport.get().path, Coordinate(latitude: latitude, longitude: longitude), zoom: zoom,
            name: name, postcode: postcode)
    }

    @Test func aMunicipalityBoundaryAnswersWithItsOnePostcode() throws {
        let path = try OSMExtractImportTests.liechtensteinImport.get().path
        // Schaan has one postcode point inside (9494); Eschen has two (9492 Eschen, 9485 Nendeln), so none.
        try Self.expectAreaPostcode(path, Coordinate(latitude: 47.166, longitude: 9.509), zoom: 10, name: "Schaan", postcode: "9494")
        try Self.expectAreaPostcode(path, Coordinate(latitude: 47.207, longitude: 9.527), zoom: 10, name: "Eschen", postcode: nil)
        // Zoom 5 and 3 are the state and the country: no postcode, as Nominatim (rank 8 and 4).
        try Self.expectAreaPostcode(path, Coordinate(latitude: 47.166, longitude: 9.509), zoom: 5, name: nil, postcode: nil)
    }

    private static func expectAreaPostcode(_ path: String, _ point: Coordinate, zoom: Int, name: String?, postcode: String?) throws {
        var settings = GeocoderSettings()
        settings.detail = NominatimDetail(zoom: zoom)
        let geocoder = try ReverseGeocoder(databasePath: path, settings: settings)
        // `where --zoom`: the placemark at that detail.
        let placemark = geocoder.placemark(from: geocoder.record(for: point, maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
        #expect(placemark.postalCode == postcode)
        if let name { #expect(placemark.name == name) }
        // `serve`: the whole placemark, cut to the zoom's detail by the answer.
        let full = try ReverseGeocoder(databasePath: path)
        let whole = full.placemark(from: full.record(for: point, maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
        let answer = try #require(NominatimPlace(whole, detail: NominatimDetail(zoom: zoom)))
        #expect(answer.address.first { $0.key == "postcode" }?.value == postcode)
        if let name { #expect(answer.name == name) }
    }

    /// A municipality is keyed in the address as Nominatim keys it: by its linked place node's type (Vaduz's
    /// `town`, Gamprin's `village`), `city` when no node of its name lies inside it (Mauren); GeocodeJSON names it
    /// only as the answer's `name` and `level8`, as Nominatim's leaves the answer's own line out of the address
    /// (`obj_place_id` in `_write_geocodejson_address`).
    @Test(arguments: [
        (47.158490, 9.545307, "town", "Vaduz"), (47.216644, 9.512290, "village", "Gamprin"), (47.204898, 9.582462, "city", "Mauren"),
    ])
    func aMunicipalityIsKeyedByItsPlaceType(latitude: Double, longitude: Double, key: String, name: String) throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(
            from: geocoder.record(
                for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: 10)))
        let jsonv2 = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: 10))
        #expect(jsonv2.contains(#""addresstype":"\#(key)","name":"\#(name)""#))
        #expect(jsonv2.contains(#""address":{"\#(key)":"\#(name)""#))
        let geocodeJSON = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .geocodejson, zoom: 10))
        #expect(geocodeJSON.contains(#""name":"\#(name)""#))
        #expect(geocodeJSON.contains(#""admin":{"level8":"\#(name)""#))
        #expect(!geocodeJSON.contains(#""city":"#))
    }

    /// The extract gave Liechtenstein's boundary, so its subdivisions come from the extract alone: Natural
    /// Earth's coarse first-level areas (its municipalities) named a point of Gamprin `Planken`.
    @Test func aCountryFromTheExtractTakesNoNaturalEarthSubdivisions() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 47.192782, longitude: 9.543461))
        #expect(placemark.locality == "Gamprin")
        #expect(placemark.administrativeArea == nil && placemark.administrativeAreaCode == nil)
        #expect(placemark.subAdministrativeArea == "Wahlkreis Unterland")
    }

    /// An area answer lies where Nominatim's does: at its place node (Helsinki, with a city's box of ± 0.16°), at
    /// the node a boundary is linked to (Schaan), else at a point on the boundary's surface (Mauren), each
    /// Nominatim 5.3.3's `lat`, `lon` and `boundingbox` on the same extracts.
    @Test(arguments: [
        (
            "helsinki", 60.166165, 24.950632, 10, #""lat":"60.1674098","lon":"24.9425769""#,
            #"["60.0074098","60.3274098","24.7825769","25.1025769"]"#
        ),
        (
            "helsinki", 60.166165, 24.950632, 14, #""lat":"60.1652138","lon":"24.9472225""#,
            #"["60.1452138","60.1852138","24.9272225","24.9672225"]"#
        ),
        (
            "liechtenstein", 47.077776, 9.611022, 10, #""lat":"47.1663397","lon":"9.5103120""#,
            #"["47.0607574","47.1942267","9.4858412","9.6247778"]"#
        ),
        (
            "liechtenstein", 47.204898, 9.582462, 10, #""lat":"47.2133314","lon":"9.5527020""#,
            #"["47.1951714","47.2314697","9.5293256","9.5848481"]"#
        ),
        // At zoom 3 the extract's country boundary answers, relation 47, at Nominatim's point.
        ("liechtenstein", 47.077776, 9.611022, 3, #""osm_type":"relation","osm_id":47,"lat":"47.1593412","lon":"9.5469395""#, nil),
    ])
    func anAreaAnswersAtItsCentre(extract: String, latitude: Double, longitude: Double, zoom: Int, point: String, box: String?) throws {
        let path = try Self.importPath(extract)
        let geocoder = try ReverseGeocoder(databasePath: path)
        let placemark = geocoder.placemark(
            from: geocoder.record(
                for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: zoom))
        #expect(answer.contains(point))
        if let box { #expect(answer.contains(#""boundingbox":\#(box)"#)) }
        // A suburb node's place_rank is its search rank, 19, as Nominatim's.
        if zoom == 14 { #expect(answer.contains(#""place_rank":19"#)) }
    }

    /// Rotenboden, a village node inside Triesenberg that is not Triesenberg's own, is a part of it: the
    /// placemark's subLocality, and in Nominatim's address the `village`, which the municipality (keyed
    /// `village` too) then leaves, as in Nominatim's answer at this point; its display name keeps both.
    @Test func aVillageInsideAnotherMunicipalityIsAPartOfIt() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 47.131501, longitude: 9.543568))
        #expect(placemark.locality == "Triesenberg" && placemark.subLocality == "Rotenboden")
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2))
        #expect(answer.contains(#""address":{"road":"Maseschastrasse","village":"Rotenboden","county":"Wahlkreis Oberland""#))
        // The display name keeps both, as Nominatim's: "Maseschastrasse, Rotenboden, Triesenberg, ...".
        #expect(answer.contains(#""display_name":"Maseschastrasse, Rotenboden, Triesenberg, Wahlkreis Oberland, 9497, Liechtenstein""#))
    }

    /// Nominatim's address of a street names the municipality and suburb where the street is, at its point
    /// nearest the query: Keltenstrasse, from a point of Gamprin, is Eschen's (and its part Nendeln's) there.
    /// `addressOfTheAnswer` (the server, `where --format nominatim`) answers so; without it the point answers
    /// the municipality it lies in.
    @Test func nominatimsAddressIsTheAnswersOwn() throws {
        let path = try OSMExtractImportTests.liechtensteinImport.get().path
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let point = Coordinate(latitude: 47.192782, longitude: 9.543461)
        let placemark = try ReverseGeocoder(databasePath: path, settings: settings).placemark(for: point)
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2))
        #expect(answer.contains(#""display_name":"Keltenstrasse, Nendeln, Eschen, Wahlkreis Unterland, 9485, Liechtenstein""#))
        #expect(try ReverseGeocoder(databasePath: path).placemark(for: point).locality == "Gamprin")
        // A street passing by a hamlet and a village inside the municipality names both, as Nominatim's does.
        let silumstrasse = try ReverseGeocoder(databasePath: path, settings: settings).placemark(
            for: Coordinate(latitude: 47.115555, longitude: 9.568110))
        #expect(
            NominatimFormatter.answer(silumstrasse, options: NominatimOptions(format: .jsonv2)).contains(
                #""display_name":"Silumstrasse, Steg, Rotenboden, Triesenberg, Wahlkreis Oberland, 9497, Liechtenstein""#))
    }

    /// Nominatim's address of a street names the place nodes inside the street's own municipality (the one
    /// holding its centroid) whose box the street passes through, also where the answer's point lies in another
    /// municipality; an object on a street is in the municipality holding it when the street runs through it.
    /// Each display name is Nominatim's at the point (`Scripts/nominatim-compare`, Liechtenstein, zoom 18).
    @Test(arguments: [
        // A path of Mauren's, at its point in Eschen: Mauren's village Schaanwald, not Eschen's Nendeln.
        (47.205117, 9.555113, "Paulahuette Lower Part, Schaanwald, Eschen, Wahlkreis Unterland, 9485, Liechtenstein"),
        // A street of Eschen, at its point in Gamprin: not Gamprin's village node Gamprin-Bendern.
        (47.218474, 9.513200, "Gamprin, Wahlkreis Unterland, 9492, Liechtenstein"),
        // Feldkircher Strasse is Schaan's: no village of Eschen's where it crosses Eschen.
        (47.192245, 9.539889, "Feldkircher Strasse, Eschen, Wahlkreis Unterland, 9498, Liechtenstein"),
        // A street cutting a corner of Nendeln's box, its point nearest the node outside the box.
        (47.200813, 9.508440, "Nendeln, Eschen, Wahlkreis Unterland, 9492, Liechtenstein"),
        // A bench in Schaan on Malbunstrasse, which runs through Schaan, nearest the bench in Triesenberg.
        (47.112750, 9.601899, "Malbunstrasse, Schaan, Wahlkreis Oberland, Liechtenstein"),
    ])
    func placeNodesArePartsOfTheStreetsOwnMunicipality(latitude: Double, longitude: Double, displayName: String) throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path, settings: settings)
        let placemark = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2))
        #expect(answer.contains(#""display_name":"\#(displayName)""#))
    }

    /// Nominatim's address names the neighbourhood node whose ± 500 m area holds the answer's point, between the
    /// road and the suburb, as its answer at this point does; no placemark field holds it.
    @Test func nominatimsAddressNamesTheNeighbourhood() throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.helsinkiImport.get().path, settings: settings)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.171566, longitude: 24.943374))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2))
        #expect(answer.contains(#""address":{"road":"Rautatientori","neighbourhood":"Keskusta","suburb":"Kaisaniemi","city":"Helsinki""#))
        #expect(answer.contains(#""display_name":"Rautatientori, Keskusta, Kaisaniemi, Helsinki,"#))
    }

    /// A pedestrian square answers at a point on its surface, Nominatim's centroid of an area, not at its point
    /// nearest the query as a line does: Rautatientori (relation 2919118) where Nominatim's answer puts it.
    @Test func aSquareAnswersAtItsCentre() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.helsinkiImport.get().path)
        let placemark = geocoder.placemark(
            from: geocoder.record(
                for: Coordinate(latitude: 60.171566, longitude: 24.943374), maximumRank: NominatimDetail.maximumRank(zoom: 16)))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: 16))
        #expect(answer.contains(#""osm_type":"relation","osm_id":2919118,"lat":"60.1713252","lon":"24.9440966""#))
    }

    /// An extract of a town's parts only (Kouvola's suburb, hamlet and neighbourhood nodes, no municipality):
    /// Nominatim's answer names no city there, and a suburb is no city ("Ristinkallio, Ristinkallio" before).
    @Test func aTownsPartsAreNoCity() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.kouvolaImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 60.536715, longitude: 26.947311))
        #expect(placemark.thoroughfare == "Haarakatu" && placemark.subLocality == "Ristinkallio" && placemark.locality == nil)
        #expect(placemark.postalCode == "48770")
    }

    /// At zoom 14 Nominatim answers with the finest place node within its reach (a hamlet 0.02°, a village
    /// or suburb 0.04°) inside the municipality holding the point, the nearest of its kind: farther than the
    /// nodes' address cells reach (Nendeln, Malbun), and a hamlet before a nearer suburb (Kannikko).
    @Test(arguments: [
        (
            "kouvola", 60.529909, 26.947980, #""osm_type":"node","osm_id":3684572670"#,
            #""name":"Kannikko","display_name":"Kannikko, 48600,"#, 20
        ),
        ("liechtenstein", 47.218474, 9.513200, #""osm_type":"node","osm_id":689,"#, #""name":"Nendeln""#, 19),
        ("liechtenstein", 47.098878, 9.627179, #""osm_type":"node","osm_id":7367,"#, #""name":"Malbun""#, 20),
    ])
    func zoom14AnswersWithTheNominatimPlaceNode(
        extract: String, latitude: Double, longitude: Double, element: String, name: String, rank: Int
    ) throws {
        let path = try (extract == "kouvola" ? OSMExtractImportTests.kouvolaImport : OSMExtractImportTests.liechtensteinImport).get().path
        let geocoder = try ReverseGeocoder(databasePath: path)
        let placemark = geocoder.placemark(
            from: geocoder.record(
                for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: 14)))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: 14))
        #expect(answer.contains(element) && answer.contains(name) && answer.contains(#""place_rank":\#(rank),"#))
    }

    /// At zooms 16-18 with no street or object within reach, Nominatim's area search looks for the same place
    /// nodes inside the municipality (`_lookup_area_address`, ranks up to 25): Oberplanken in Planken, Rotenboden
    /// in Triesenberg, as its answers at these points, not the municipality.
    @Test(arguments: [
        (47.168112, 9.574040, 18, #""osm_type":"node","osm_id":217,"#, "Oberplanken, Planken, Wahlkreis Oberland, 9498, Liechtenstein"),
        (
            47.145625, 9.552956, 16, #""osm_type":"node","osm_id":22126,"#,
            "Rotenboden, Triesenberg, Wahlkreis Oberland, 9497, Liechtenstein"
        ),
    ])
    func withNoStreetNearThePlaceNodeAnswers(
        latitude: Double, longitude: Double, zoom: Int, element: String, displayName: String
    ) throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(
            from: geocoder.record(
                for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: zoom))
        #expect(answer.contains(element) && answer.contains(#""display_name":"\#(displayName)""#))
    }

    @Test func nominatimsRanksByZoom() {
        #expect((0...18).map(NominatimDetail.maximumRank(zoom:)) == [2, 2, 2, 4, 4, 8, 10, 10, 12, 12, 16, 17, 18, 19, 22, 25, 26, 27, 30])
    }
}
