import Foundation
import Testing
import Travel411Core
import Travel411Import
import Travel411OSM
import Travel411OSMReader

/// The two real extracts, read whole. Addresses, places and boundaries were checked against GDAL's OSM driver,
/// which reads the files without libosmium (Scripts/osm-counts): Liechtenstein agrees element for element;
/// Helsinki, cut out of a city, differs only at its edge (GDAL keeps a closed way with nodes outside the extract
/// as a partial polygon, and drops three ways whose nodes are partly outside, which the reader keeps with the
/// nodes it has). Streets and POIs follow Nominatim's import style: its databases of the same files hold 1,562
/// (Liechtenstein) and 830 (Helsinki) streets of rank 26-27. Read with Nominatim's name tags (`OSMNameTags`), the
/// reader has Liechtenstein's 1,562 (track W1398 is named only by `loc_name=Rhiau`) and 833 in Helsinki, four named
/// only by `old_name:fi` or `loc_name` (service ways W29050020, W34572843, W317360904, steps W29478214) where it had 829
/// (the 830 was counted in an earlier session and not recounted); 830 since session 64, three unnamed squares cut by the
/// extract's edge being closed over the nodes it has, as osm2pgsql closes them (no streets, as unnamed squares).
@Suite struct OSMExtractReaderTests {
    private func counts(_ features: [OSMFeature], _ kind: OSMFeatureKind) -> [OSMElementType: Int] {
        features.filter { $0.kind == kind }.reduce(into: [:]) { $0[$1.element.type, default: 0] += 1 }
    }

    @Test func liechtensteinCounts() throws {
        let (features, summary) = try OSMFixtures.liechtensteinRead.get()
        #expect((summary.nodes, summary.ways, summary.relations) == (65_733, 7_121, 113))
        #expect(
            summary.features == [.street: 1_562, .address: 200, .place: 28, .adminBoundary: 18, .poi: 938, .postcodePoint: 12])
        #expect(counts(features, .street) == [.way: 1_562])
        #expect(counts(features, .address) == [.node: 68, .way: 132])
        // Eight named landuse areas are places too (`OSMElementFeatures.landuseArea`).
        #expect(counts(features, .place) == [.node: 20, .way: 8])
        // Named or not (a bench is one), as Nominatim answers with them at zoom 18; not the 14 roundabouts (a
        // `junction` on a highway way, which is a street only) nor an unnamed `historic=monument`; node 15577 (`historic=monument`), named only
        // by `loc_name`, is named. Nor the unnamed `highway=path` and `highway=track` nodes 61844 and 61926: street classes
        // Nominatim keeps only named (`MAIN_TAGS_STREETS.default`), on nodes too.
        #expect(counts(features, .poi) == [.node: 683, .way: 253, .relation: 2])
        let levels = features.compactMap(\.adminBoundary).reduce(into: [Int: Int]()) { $0[$1.adminLevel, default: 0] += 1 }
        #expect(levels == [2: 1, 6: 2, 8: 15])
        // Boundaries of the neighbours (Switzerland, Austria) whose members lie outside the country's extract.
        #expect(summary.warnings == [.relationMembersMissing: 24])
    }

    @Test func helsinkiCounts() throws {
        let (features, summary) = try OSMFixtures.helsinkiRead.get()
        #expect((summary.nodes, summary.ways, summary.relations) == (24_260, 5_130, 620))
        // An unnamed `historic=memorial` with a postcode is no POI (a fallback key needs a name), only its postcode's point.
        // Two unnamed pedestrian squares tagged `area=yes` (relations 2919182, 8064315) are no streets (`placex_insert`).
        // Three address nodes whose `addr:housenumber` is a name to Nominatim (`7 B, sisäpiha`, `4, katutaso/Street
        // level`: the `clean-housenumbers` sanitizer's `convert-to-name`) are no address points.
        // The named tree "Lasipalatsin salava" (node 1571992169) is a POI (`natural`, rank 30). Eight city blocks whose
        // rings cross themselves (once closed over their missing nodes) are places on lines, as Nominatim keeps them;
        // seven named landuse areas are places too (`OSMElementFeatures.landuseArea`). Three unnamed pedestrian squares
        // (`area=yes`) cut by the extract's edge are closed over the nodes it has, as osm2pgsql builds them, so no streets
        // either (833 before session 64, as lines).
        #expect(summary.features == [.street: 830, .address: 1_469, .place: 68, .poi: 2_184, .postcodePoint: 2])
        #expect(counts(features, .address) == [.node: 1_376, .way: 87, .relation: 6])
        #expect(counts(features, .place) == [.node: 7, .way: 56, .relation: 5])
        #expect(counts(features, .poi) == [.node: 2_036, .way: 144, .relation: 4])
        // Cut out of the city: the city's and district's boundaries and ways crossing the edge are incomplete. A
        // closed way is an area over the nodes it has (as osm2pgsql builds it); 14 of them then cross themselves.
        #expect(summary.warnings == [.wayNodesMissing: 322, .relationMembersMissing: 18, .invalidArea: 14])
        #expect(summary.warningExamples[.relationMembersMissing]?.count == OSMReadSummary.exampleLimit)
    }

    /// Only the tags the classifier reads cross into Swift (`OSMFeatureClassifier.keysRead`): a key it reads and
    /// the list forgot would change features here.
    @Test(arguments: [OSMFixtures.liechtenstein, OSMFixtures.helsinki])
    func theTagsReadMakeTheFeaturesEveryTagMakes(path: String) throws {
        let kept = try OSMFixtures.readAll(path)
        let every = try TemporaryFolder.with { folder in
            var features: [OSMFeature] = []
            var reader = OSMExtractReader(path: path, temporaryDirectory: folder.path)
            reader.handsOverEveryTag = true
            let summary = try reader.read { features.append($0) }
            return (features, summary)
        }
        #expect(kept.features.count == every.0.count)
        #expect(kept.features == every.0)
        #expect(kept.summary.features == every.1.features)
    }

    @Test func liechtensteinCountryAndMunicipalitiesArePolygons() throws {
        let (features, _) = try OSMFixtures.liechtensteinRead.get()
        let country = try #require(features.first { $0.adminBoundary?.adminLevel == 2 })
        #expect(country.element == OSMElementID(.relation, 47))
        #expect(country.name == "Liechtenstein")
        #expect(country.adminBoundary?.iso3166_1 == "LI")  // "li" in the 2013 data
        #expect(country.names["en"] == "Liechtenstein" && country.names["cs"] == "Lichtenštejnsko")

        let municipalities = features.filter { $0.adminBoundary?.adminLevel == 8 && $0.element.type == .relation }
        #expect(
            municipalities.compactMap(\.name).sorted() == [
                "Balzers", "Eschen", "Gamprin", "Mauren", "Planken", "Ruggell", "Schaan", "Schellenberg", "Triesen",
                "Triesenberg", "Vaduz",
            ])
        for municipality in municipalities {
            #expect(municipality.shape.rings.count >= 1)
            // Its point on the surface lies in it, in no other municipality, and in the country.
            let point = municipality.representativePoint
            #expect(
                municipalities.filter { evenOddContains(rings: $0.shape.rings, x: point.x, y: point.y) }.map(\.name) == [municipality.name])
            #expect(evenOddContains(rings: country.shape.rings, x: point.x, y: point.y))
        }

        // The villages' place nodes, as mapped, lie in their municipality and in no other.
        let villages = [
            "Vaduz": "Vaduz", "Schaan": "Schaan", "Planken": "Planken", "Eschen": "Eschen", "Nendeln": "Eschen",
            "Gamprin": "Gamprin", "Schellenberg": "Schellenberg", "Ruggell": "Ruggell", "Schaanwald": "Mauren",
            "Triesen": "Triesen", "Triesenberg": "Triesenberg", "Malbun": "Triesenberg", "Balzers": "Balzers",
        ]
        for (village, expected) in villages {
            let place = try #require(features.first { $0.kind == .place && $0.name == village }, "no place node \(village)")
            let point = place.representativePoint
            #expect(
                municipalities.filter { evenOddContains(rings: $0.shape.rings, x: point.x, y: point.y) }.map(\.name) == [expected],
                "\(village)")
        }
    }

    @Test func liechtensteinNamedFeaturesAsOSMHasThem() throws {
        let (features, _) = try OSMFixtures.liechtensteinRead.get()
        // way 333: building=yes, tourism=museum, addr:street=Städtle, addr:housenumber=32, addr:postcode=9490.
        let museum = features.filter { $0.element == OSMElementID(.way, 333) }
        #expect(museum.map(\.kind).sorted() == [.address, .poi])
        let poi = try #require(museum.first { $0.kind == .poi })
        #expect(poi.name == "Kunstmuseum Liechtenstein")
        #expect(poi.pointOfInterest == OSMPointOfInterest(key: "tourism", value: "museum"))
        #expect(poi.address == OSMAddress(housenumber: "32", street: "Städtle", postcode: "9490", city: "Vaduz"))
        #expect(abs(poi.representativePoint.x - 9.52215) < 0.0005 && abs(poi.representativePoint.y - 47.13948) < 0.0005)

        // relation 52: type=multipolygon, historic=castle, name=Schloss Vaduz: a POI on an assembled area.
        let castle = try #require(features.first { $0.element == OSMElementID(.relation, 52) })
        #expect(castle.kind == .poi && castle.name == "Schloss Vaduz")
        #expect(castle.pointOfInterest == OSMPointOfInterest(key: "historic", value: "castle"))

        let vaduz = try #require(features.first { $0.element == OSMElementID(.node, 58243) })
        // Vaduz is the capital (capital=yes), one rank above a town in Nominatim.
        #expect(vaduz.place == OSMPlace(type: "town", isCapital: true) && vaduz.name == "Vaduz")
        #expect(vaduz.shape == .point(Point2D(x: 9.5227962, y: 47.1392862)))

        let street = try #require(features.first { $0.element == OSMElementID(.way, 46) })
        #expect(street.kind == .street && street.name == "Landstrasse")
        #expect(street.highway == OSMHighway(highwayClass: "primary"))
        guard case .lineString(let points) = street.shape else {
            Issue.record("Landstrasse is not a line: \(street.shape)")
            return
        }
        #expect(points.count >= 2)
    }

    @Test func helsinkiNamedFeaturesAsOSMHasThem() throws {
        let (features, _) = try OSMFixtures.helsinkiRead.get()
        // node 1372477580: place=city, capital=yes, name=Helsinki, name:sv=Helsingfors, population=629725.
        let city = try #require(features.first { $0.element == OSMElementID(.node, 1_372_477_580) })
        #expect(city.place == OSMPlace(type: "city", population: 629_725, isCapital: true))
        #expect(city.names["sv"] == "Helsingfors")

        // way 8033120: building=museum, tourism=museum, name=Ateneum, addr:street=Kaivokatu 2, 00100 Helsinki.
        let ateneum = features.filter { $0.element == OSMElementID(.way, 8_033_120) }
        #expect(ateneum.map(\.kind).sorted() == [.address, .poi])
        #expect(ateneum.first?.address == OSMAddress(housenumber: "2", street: "Kaivokatu", postcode: "00100", city: "Helsinki"))
        #expect(ateneum.first?.names == ["ru": "Музей Атенеум"])

        // way 22906936: highway=primary, name=Mannerheimintie, name:sv=Mannerheimvägen.
        let street = try #require(features.first { $0.element == OSMElementID(.way, 22_906_936) })
        // Its other names, which an `addr:street` may spell (session 51, `OSMHighway.otherNames`): `name:fi` repeats
        // `name` and is left out; `loc_name=Mansku`, `name:sv` and the historic `old_name=Heikinkatu` stay, as Nominatim
        // keeps each in the street's name vector.
        #expect(street.highway == OSMHighway(highwayClass: "primary", otherNames: ["Mansku", "Mannerheimvägen", "Heikinkatu"]))
        #expect(street.names == ["fi": "Mannerheimintie", "sv": "Mannerheimvägen"])

        // Addresses on multipolygon buildings get a point on the building, not its centroid.
        let onRelations = features.filter { $0.kind == .address && $0.element.type == .relation }
        #expect(onRelations.count == 6)
    }

    @Test func readsOSMXMLAndItsCompressedForms() throws {
        let xml = OSMFixtures.path("test_multipolygon.osm")
        let plain = try OSMFixtures.readAll(xml)
        #expect((plain.summary.nodes, plain.summary.ways, plain.summary.relations) == (353, 140, 40))
        #expect(plain.summary.features == [.street: 1, .poi: 6, .place: 23])
        try TemporaryFolder.with { folder in
            for (tool, suffix) in [("gzip", "gz"), ("bzip2", "bz2")] {
                _ = try OSMFixtures.compress(xml, with: tool, into: folder.url, suffix: suffix)
                let read = try OSMFixtures.readAll(folder.url.appendingPathComponent("test_multipolygon.osm.\(suffix)").path)
                #expect(read.summary == plain.summary, "\(suffix)")
                #expect(read.features == plain.features, "\(suffix)")
            }
        }
    }

    @Test func theLocationIndexLivesInTheTemporaryFolderAndIsGoneAfterwards() throws {
        try TemporaryFolder.with { folder in
            var openDuringRead: [String] = []
            var reader = OSMExtractReader(path: OSMFixtures.liechtenstein, temporaryDirectory: folder.path)
            reader.inMemoryLocationsBelow = 0  // as for an extract of 8 MB or more
            var features: [OSMFeature] = []
            let summary = try reader.read { feature in
                if openDuringRead.isEmpty { openDuringRead = folder.openFiles() }
                features.append(feature)
            }
            // The same as with the locations in memory.
            let inMemory = try OSMFixtures.liechtensteinRead.get()
            var expected = inMemory.summary
            expected.nodeStore = .denseFile  // the fixture's node ids are 1 to 65,733
            #expect(summary == expected && features == inMemory.features)
            // One file for the locations (positive node ids; negative ones, which only files not yet uploaded from an
            // editor have, would get a second) and three for the relations and their member ways (`RelationAreaStore`),
            // unlinked from the start.
            let names = openDuringRead.map {
                URL(fileURLWithPath: $0).lastPathComponent.split(separator: "-").dropLast().joined(separator: "-")
            }
            #expect(
                names.sorted() == [
                    "travel411-osm-locations", "travel411-osm-member-way-index", "travel411-osm-member-ways", "travel411-osm-relations",
                ], "\(openDuringRead)")
            #expect(openDuringRead.allSatisfy { $0.hasSuffix("(deleted)") })
            #expect(folder.openFiles().isEmpty)
            #expect(try folder.contents().isEmpty)
        }
    }

    @Test func progressGoesThroughBothPassesToTheEnd() throws {
        var reports: [OSMReadProgress] = []
        var featuresBeforeTheSecondPass = 0
        var features = 0
        // On the reading thread, where the body sees the progress reports as they come (on its own thread, it
        // would see them later, and read `reports` while the reading thread writes it).
        var reader = OSMExtractReader(path: OSMFixtures.helsinki)
        reader.bodyOnOwnThread = false
        try reader.read(progress: { reports.append($0) }) { _ in
            features += 1
            if reports.last?.pass == 1 { featuresBeforeTheSecondPass += 1 }
        }
        let size = try #require(FileManager.default.attributesOfItem(atPath: OSMFixtures.helsinki)[.size] as? Int)
        #expect(reports.first?.pass == 1 && reports.last?.pass == 2)
        #expect(reports.last?.bytesRead == size && reports.allSatisfy { $0.fileSize == size })
        #expect(reports.map(\.fraction) == reports.map(\.fraction).sorted())
        #expect(reports.last?.fraction == 1)
        // `helsinkiCounts`' features.
        #expect(featuresBeforeTheSecondPass == 0 && features == 4_553)
    }

    /// The body on a thread of its own (the default) sees the same features in the same order as on the reading
    /// thread, and the summary counts the same.
    @Test func theBodyOnItsOwnThreadSeesWhatTheReadingThreadWould() throws {
        func read(ownThread: Bool) throws -> ([String], OSMReadSummary) {
            var reader = OSMExtractReader(path: OSMFixtures.liechtenstein)
            reader.bodyOnOwnThread = ownThread
            var seen: [String] = []
            let summary = try reader.read { feature in
                seen.append("\(feature.kind) \(feature.element) \(feature.name ?? "") \(feature.shape.rings.map(\.count))")
            }
            return (seen, summary)
        }
        let (pipelined, pipelinedSummary) = try read(ownThread: true)
        let (inline, inlineSummary) = try read(ownThread: false)
        #expect(pipelined.count == 2_758)
        #expect(pipelined == inline)
        #expect(pipelinedSummary.features == inlineSummary.features)
        #expect(pipelinedSummary.warnings == inlineSummary.warnings)
    }

    @Test func anErrorFromTheBodyStopsTheReadAndIsRethrown() throws {
        struct Enough: Error {}
        try TemporaryFolder.with { folder in
            var seen = 0
            #expect(throws: Enough.self) {
                try OSMExtractReader(path: OSMFixtures.helsinki, temporaryDirectory: folder.path).read { _ in
                    seen += 1
                    if seen == 10 { throw Enough() }
                }
            }
            #expect(seen == 10)
            #expect(folder.openFiles().isEmpty)
            let leftovers = try folder.contents()
            #expect(leftovers.isEmpty)
        }
    }

    @Test func interpolationLinesCarryTheirEndsHouseNumbersAndPostcodes() throws {
        try TemporaryFolder.with { folder in
            let path = try folder.write(
                "interpolation.osm",
                """
                <?xml version='1.0' encoding='UTF-8'?>
                <osm version='0.6'>
                  <node id='1' lat='47.14' lon='9.52'><tag k='addr:housenumber' v='2'/><tag k='addr:street' v='Städtle'/><tag k='addr:postcode' v='9490'/></node>
                  <node id='2' lat='47.14' lon='9.521'/>
                  <node id='3' lat='47.141' lon='9.522'><tag k='addr:housenumber' v='12'/><tag k='addr:street' v='Städtle'/></node>
                  <way id='7'><nd ref='1'/><nd ref='2'/><nd ref='3'/><tag k='addr:interpolation' v='even'/><tag k='addr:street' v='Städtle'/></way>
                </osm>
                """)
            var features: [OSMFeature] = []
            let summary = try OSMExtractReader(path: path, temporaryDirectory: folder.path).read { features.append($0) }
            #expect(summary.features == [.address: 2, .addressInterpolation: 1])
            let line = try #require(features.first { $0.kind == .addressInterpolation })
            #expect(
                line.interpolation
                    == OSMInterpolation(
                        scheme: "even", firstNode: 1, lastNode: 3, firstHousenumber: "2", lastHousenumber: "12",
                        housenumbers: ["2", nil, "12"], postcodes: ["9490", nil, nil], nodeStreet: "Städtle"))
            #expect(line.address?.street == "Städtle")
            #expect(line.shape == .lineString([Point2D(x: 9.52, y: 47.14), Point2D(x: 9.521, y: 47.14), Point2D(x: 9.522, y: 47.141)]))
            #expect(try folder.contents(except: ["interpolation.osm"]).isEmpty)
        }
    }

    @Test func postcodeBoundariesAndPlaceAreasWithTheirHoles() throws {
        try TemporaryFolder.with { folder in
            let path = try folder.write(
                "areas.osm",
                """
                <?xml version='1.0' encoding='UTF-8'?>
                <osm version='0.6'>
                  <node id='1' lat='0' lon='0'/><node id='2' lat='0' lon='1'/><node id='3' lat='1' lon='1'/><node id='4' lat='1' lon='0'/>
                  <node id='5' lat='0.2' lon='0.2'/><node id='6' lat='0.2' lon='0.8'/><node id='7' lat='0.8' lon='0.8'/><node id='8' lat='0.8' lon='0.2'/>
                  <way id='1'><nd ref='1'/><nd ref='2'/><nd ref='3'/><nd ref='4'/><nd ref='1'/></way>
                  <way id='2'><nd ref='5'/><nd ref='6'/><nd ref='7'/><nd ref='8'/><nd ref='5'/></way>
                  <relation id='1'><member type='way' ref='1' role='outer'/><tag k='type' v='boundary'/>
                    <tag k='boundary' v='postal_code'/><tag k='postal_code' v='9490'/></relation>
                  <relation id='2'><member type='way' ref='1' role='outer'/><member type='way' ref='2' role='inner'/>
                    <tag k='type' v='multipolygon'/><tag k='place' v='suburb'/><tag k='name' v='Ebenholz'/><tag k='population' v='1 250'/></relation>
                </osm>
                """)
            var features: [OSMFeature] = []
            let summary = try OSMExtractReader(path: path, temporaryDirectory: folder.path).read { features.append($0) }
            #expect(summary.features == [.postcodeBoundary: 1, .place: 1])
            #expect(summary.warnings.isEmpty)
            let postcode = try #require(features.first { $0.kind == .postcodeBoundary })
            #expect(postcode.postcode == "9490" && postcode.element == OSMElementID(.relation, 1))
            guard case .polygon(let square) = postcode.shape else {
                Issue.record("not a polygon: \(postcode.shape)")
                return
            }
            #expect(Set(square.exterior) == [Point2D(x: 0, y: 0), Point2D(x: 1, y: 0), Point2D(x: 1, y: 1), Point2D(x: 0, y: 1)])
            #expect(square.exterior.first == square.exterior.last && square.holes.isEmpty)

            let place = try #require(features.first { $0.kind == .place })
            #expect(place.place == OSMPlace(type: "suburb", population: 1_250))
            guard case .polygon(let ring) = place.shape, let hole = ring.holes.first else {
                Issue.record("no polygon with a hole: \(place.shape)")
                return
            }
            #expect(ring.holes.count == 1)
            #expect(Set(hole) == [Point2D(x: 0.2, y: 0.2), Point2D(x: 0.8, y: 0.2), Point2D(x: 0.8, y: 0.8), Point2D(x: 0.2, y: 0.8)])
            // Its point on the surface is in the ring between the outer square and the hole, not at the centre.
            let point = place.representativePoint
            #expect(evenOddContains(rings: place.shape.rings, x: point.x, y: point.y))
        }
    }
}
