import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// An extract whose box cuts most of its municipalities (`osm/liechtenstein-north.osm.pbf`: Ruggell's and
/// Schellenberg's boundaries whole, Gamprin's, Eschen's and Mauren's cut), as the held-out north of Bayreuth is:
/// the village nodes outside every whole boundary are guessed municipalities around them, as Nominatim 5.3's
/// `insert_addresslines` takes them, and no municipality reaches farther than their areas.
@Suite struct OSMTownNodeRulesTests {
    static let north = OSMShapefileImportTests.fixtures.appendingPathComponent("liechtenstein-north.osm.pbf")
    static let northImport = Result { try OSMExtractImportTests.importExtract(north, as: "liechtenstein-north.gpkg") }

    /// Inside a whole boundary the boundary answers; outside, the village node whose ± 2 km box holds the point
    /// (Gamprin, whose boundary is cut), not the nearest town of the locality layer (Ruggell, whose boundary ends
    /// short of the point). (47.25, 9.515), which answered Gamprin when Natural Earth put it in Liechtenstein, is on
    /// the Swiss bank of the Rhine: `NominatimCountryGridTests`.
    @Test func villagesOutsideTheWholeBoundariesAreMunicipalities() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.northImport.get().path)
        func city(_ latitude: Double, _ longitude: Double) -> (name: String?, fromArea: Bool) {
            let record = geocoder.record(for: Coordinate(latitude: latitude, longitude: longitude))
            return (geocoder.placemark(from: record).locality, record.cityArea >= 0)
        }
        #expect(city(47.2410, 9.5450) == ("Schellenberg", true))
        #expect(city(47.2300, 9.5200) == ("Gamprin", true))
    }
}
