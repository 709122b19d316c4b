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

    static let ankaraImport = Result {
        try OSMExtractImportTests.importExtract(
            OSMShapefileImportTests.fixtures.appendingPathComponent("tr-ankara-bahcelievler-2021.osm.pbf"), as: "ankara-places.gpkg")
    }

    /// Central Helsinki's streets alone: no town of the extract reaches GeoNames' Helsinki and its quarters, so they
    /// stay (`ExtractPlaces`), to describe the points, never to name their town or suburb, which the extract does not
    /// name. Before, they gave way to the extract's data, and Westend (Espoo), 10 km away, described every point.
    @Test func theEmbeddedDatasPlacesDescribeButNameNoTownInTheExtract() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.streetsImport.get().path)
        let points = [
            (Coordinate(latitude: 60.169, longitude: 24.944), "Kaartinkaupunki"),
            (Coordinate(latitude: 60.1675, longitude: 24.9415), "Helsinki"),
        ]
        for (point, nearest) in points {
            let placemark = geocoder.placemark(for: point)
            #expect(placemark.isoCountryCode == "FI")
            #expect(placemark.thoroughfare != nil)
            #expect(placemark.locality == nil, "\(point): \(placemark)")
            #expect(placemark.subLocality == nil)
            #expect(placemark.nearestLocality?.name == nearest)
            #expect((placemark.nearestLocality?.distanceMetres ?? .infinity) < 600)
        }
    }

    /// Central Ankara's mahalle Bahçelievler without Ankara's town node: GeoNames' Bahçelievler describes the point
    /// ("15.0 km N of Gölbaşı" before); the suburb is the extract's own boundary, as Nominatim's on the extract.
    @Test func anExtractWithoutATownNodeIsDescribedFromTheTownItLiesIn() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.ankaraImport.get().path)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 39.925, longitude: 32.826))
        #expect(placemark.locality == nil)
        #expect(placemark.subLocality == "Bahçelievler Mahallesi")
        #expect(placemark.nearestLocality?.name == "Bahçelievler")
        #expect((placemark.nearestLocality?.distanceMetres ?? .infinity) < 500)
    }
}
