import Foundation
import Testing
import Travel411TestSupport

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// An extract that names no town answers no town inside its data, as Nominatim on it does
/// (`ExtractPlacesOnly.swift`): the embedded data's places beyond it only describe the point.
@Suite struct ExtractPlacesOnlyTests {
    static let streetsImport = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("helsinki-streets-cut.osm.pbf"), as: "helsinki-streets-cut.gpkg")
    }

    /// Central Helsinki's streets alone: GeoNames' Helsinki lies in the extract's data and gives way to it, so Westend
    /// (Espoo), 10 km away, held these points in its catchment and was their town.
    @Test func theEmbeddedDatasPlacesBeyondTheExtractNameNoTownInIt() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.streetsImport.get().path)
        for point in [Coordinate(latitude: 60.169, longitude: 24.944), Coordinate(latitude: 60.1675, longitude: 24.9415)] {
            let placemark = geocoder.placemark(for: point)
            #expect(placemark.isoCountryCode == "FI")
            #expect(placemark.thoroughfare != nil)
            #expect(placemark.locality == nil, "\(point): \(placemark)")
            #expect(placemark.subLocality == nil)
            // The nearest real town still describes where the point is.
            #expect(placemark.nearestLocality?.name == "Westend")
        }
    }
}
