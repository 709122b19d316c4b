import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store

/// The municipalities, suburbs and place nodes of an extract answer as Nominatim 5.3.3's on the same extract: the
/// area and place-node cases of `NominatimStreetSearchTests`, apart so that each file keeps to one subject.
extension NominatimStreetSearchTests {
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
        let answer = try #require(
            NominatimPlace(whole, detail: NominatimDetail(zoom: zoom), maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
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
