import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// At zoom 18 where no street or object is within reach, Nominatim 5.3's area search (`_lookup_area_address`,
/// reverse.py) answers the place node of the finest search rank inside the point's polygon and within its reach: a
/// locality (25, 0.02°) before a village (19, 0.04°), with the locality's own address (`takeFinePlaceNodeInArea`).
/// Real data: four of Andorra's parishes (admin_level 7) and the place nodes around them, cut from valhalla's
/// andorra.osm.pbf; the cut has no streets, as the mountainsides the points lie on.
@Suite struct OSMLocalityBeyondStreetsTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("andorra-localities-2020-05.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "andorra-localities.gpkg") }

    /// Nominatim 5.3.3 on the whole extract answers these localities (where travel411 answered the villages el
    /// Serrat, Ransol, Engolasters), each with the municipality its own address names: the parish Ordino where no
    /// village's box holds the locality, the village el Tarter, and the town les Escaldes, whose distance counts half
    /// (a town's rank) against the nearer village Engolasters.
    @Test(arguments: [
        (42.642579, 1.570706, "pas del Monjo", "municipality", "Ordino"),
        (42.560518, 1.635921, "Jardí de Riba", "village", "el Tarter"),
        (42.501522, 1.590086, "Canal de la Bova", "town", "les Escaldes"),
    ])
    func aLocalityInReachAnswersBeforeAVillage(latitude: Double, longitude: Double, name: String, key: String, city: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["type"] as? String == "locality", "\(object)")
        #expect(address["locality"] == name, "\(address)")
        #expect(address[key] == city, "\(address)")
    }
}
