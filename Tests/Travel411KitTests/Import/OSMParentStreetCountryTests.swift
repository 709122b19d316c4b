import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI
@testable import Travel411Store

/// An address point's or POI's parent street is of the object's own country, as Nominatim looks for it in the
/// object's partition only (`find_parent_for_poi`: `NominatimPartitions`), on the real extracts of Monaco, whose
/// buildings stand a few metres from French streets, and of Liechtenstein, with Switzerland and Austria around it.
@Suite struct OSMParentStreetCountryTests {
    static let monaco = OSMShapefileImportTests.fixtures.appendingPathComponent("monaco-2020-07-19.osm.pbf")
    static let monacoImport = Result { try OSMExtractImportTests.importExtract(monaco, as: "monaco.gpkg") }

    /// The objects of the database whose parent street (the one its `addr:street` names, else the nearest named one)
    /// is of another country than the object, each as "N123 MC: street 45 Avenue X of FR"; and how many objects have
    /// both a parent street and a country.
    static func crossings(_ path: String) throws -> (compared: Int, crossing: [String]) {
        let geocoder = try ReverseGeocoder(databasePath: path)
        let count = try NominatimStreetSearchTests.objectCount(path)
        func text(_ bytes: UnsafeBufferPointer<UInt8>?) -> String? {
            bytes.flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        }
        var compared = 0
        var crossing: [String] = []
        for object in 0..<count {
            let fields = geocoder.withObjects { objects in
                [PlacesSchema.ObjectField.element, .country, .parent, .nearestStreet].map { text(objects.names.bytes(object, $0.rawValue)) }
            }
            guard let fields, let country = fields[1], let street = (fields[2] ?? fields[3]).flatMap({ Int($0) }) else { continue }
            let streetCountry = geocoder.withStreetPostcodes { text($0.bytes(street, PlacesSchema.StreetPostcodeField.country.rawValue)) }
            guard let streetCountry = streetCountry ?? nil else { continue }
            compared += 1
            guard streetCountry != country else { continue }
            let name = geocoder.withStreets { text($0.names.bytes(street, PlacesSchema.StreetField.name.rawValue)) } ?? nil
            crossing.append("\(fields[0] ?? "?") \(country): street \(street) \(name ?? "?") of \(streetCountry)")
        }
        return (compared, crossing)
    }

    /// No object of either extract has a parent street of another country. Before, 10 Monaco objects took French
    /// streets and a French one Monaco's, 2 of them by their `addr:street` (Avenue Princesse Grace runs on into
    /// France); in Liechtenstein a Swiss object took a Liechtenstein street and 4 Liechtenstein ones Austrian streets.
    @Test(arguments: ["monaco", "liechtenstein"])
    func noObjectsParentStreetIsOfAnotherCountry(_ extract: String) throws {
        let path = try (extract == "monaco" ? Self.monacoImport : OSMExtractImportTests.liechtensteinImport).get().path
        let (compared, crossing) = try Self.crossings(path)
        #expect(compared > 1_000)
        #expect(crossing.isEmpty, "\(crossing)")
    }

    /// At objects by the border, Nominatim answers (zoom 18) name a street and a postcode of the object's own country:
    /// the Centre de Gérontologie (way 572949998) was "Avenue Jacques Abba, ..., 06320, Monaco", a building of
    /// Fontvieille (way 221348098) "Port de Cap d'Ail, ..., 06320, Monaco", a node in La Rousse (1736033542) "Boulevard du
    /// Ténao, ..., 06320, Monaco", and a French node by the Boulevard du Général Leclerc (477551001) "Avenue
    /// Saint-Charles, 98000, France".
    @Test(arguments: [
        (43.7296565, 7.4093700, "Avenue Pasteur", "98020", "mc"), (43.7259658, 7.4164294, "Avenue des Guelfes", "98020", "mc"),
        (43.7514280, 7.4377845, "Boulevard d'Italie", "98000", "mc"),
        (43.7423326, 7.4261309, "Boulevard du Général Leclerc", "06320", "fr"),
    ])
    func anObjectByTheBorderAnswersWithAStreetOfItsCountry(
        latitude: Double, longitude: Double, road: String, postcode: String, country: String
    ) throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.monacoImport.get().path, settings: settings)
        let placemark = geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: 18))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == road, "\(address)")
        #expect(address["postcode"] == postcode, "\(address)")
        #expect(address["country_code"] == country, "\(address)")
    }

    /// The partitions are Nominatim's `country_settings.yaml`'s: Monaco's and France's differ, the two countries
    /// that share one (Serbia, Kosovo) share it, a country the file does not list is in partition 0 as
    /// `get_partition` puts it, and a place of no known country is compared with none.
    @Test func partitionsAreNominatimsCountrySettings() throws {
        let partitions = NominatimPartitions(settings: try #require(NominatimCountrySettings.embedded))
        #expect(partitions.partition(of: "MC") == 242)
        #expect(partitions.partition(of: "fr") == 4)
        #expect(partitions.partition(of: "RS") == partitions.partition(of: "XK"))
        #expect(partitions.partition(of: "ZZ") == 0)
        #expect(!NominatimPartitions.mayParent(street: partitions.partition(of: "FR"), object: partitions.partition(of: "MC")))
        #expect(NominatimPartitions.mayParent(street: NominatimPartitions.unknown, object: partitions.partition(of: "MC")))
        // Without Nominatim's settings every country is in one partition, as an import with `--no-partitions`.
        #expect(NominatimPartitions(settings: nil).partition(of: "MC") == NominatimPartitions(settings: nil).partition(of: "FR"))
    }
}
