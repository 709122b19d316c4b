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
                let number = objects.names.bytes(id, PlacesSchema.ObjectField.houseNumber.rawValue), !number.isEmpty,
                // A number the sanitizer makes a name is none of its street's (`StreetAddressesBuilder`).
                !OSMFeatureClassifier.isName(houseNumber: String(decoding: number, as: UTF8.self))
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
        // street before a footway as near: 384 → 376. Buildings cut by the extract's edge closed over the nodes it has
        // (as osm2pgsql closes them), their centres on their surface: 376 → 377.
        #expect(expected.count == (extract == "helsinki" ? 377 : 59))
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
}
