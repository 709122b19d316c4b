import Foundation
import Testing
import Travel411TestSupport

@testable import Travel411Answers
@testable import Travel411Batch
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Store

/// A database's answers name the licences of what it was imported from (Data/README.md's attributions), not
/// those of the embedded data whatever the database holds.
@Suite struct DataLicenceTests {
    @Test func theEmbeddedDataNamesItsFiveSources() {
        #expect(TestPlaces.geocoder.licence == .embedded)
        #expect(DataLicence.embedded.text.contains("GeoNames (CC-BY 4.0)"))
        #expect(DataLicence.embedded.text.contains("Contains National Statistics data"))
    }

    /// An extract imported alone holds OpenStreetMap's data, Natural Earth's countries and GeoNames' places beyond
    /// the extract, nothing of Ordnance Survey; the server and `where --format nominatim` say so.
    @Test func anExtractAloneNamesOpenStreetMap() throws {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let text = "Data: Natural Earth (public domain); GeoNames (CC-BY 4.0); © OpenStreetMap contributors (ODbL 1.0)"
        #expect(geocoder.licence.text == text)
        let placemark = geocoder.placemark(for: Coordinate(latitude: 47.14, longitude: 9.52))
        let answer = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, licence: geocoder.licence))
        #expect(answer.contains(#""licence":""# + text + #"","#))
        let xml = NominatimFormatter.answer(placemark, options: NominatimOptions(format: .xml, licence: geocoder.licence))
        #expect(xml.contains(#"attribution=""# + text + #"""#))
    }

    @Test func openStreetMapAloneIsNominatimsOwnText() {
        let licence = DataLicence.of(layerDescriptions: [
            "OpenStreetMap street from helsinki.osm.pbf", "Geofabrik gis_osm_roads_free_1 from roads.shp",
        ])
        #expect(licence.text == "Data © OpenStreetMap contributors, ODbL 1.0. http://osm.org/copyright")
    }

    /// A layer mapped with `--level` comes from a file whose licence travel411 cannot know: it is named.
    @Test func aLayerOfUnknownOriginIsNamedByItsFile() {
        let licence = DataLicence.of(layerDescriptions: [
            "mapped by --level city --name-field NAME from parishes.shp", "GeoNames places from geonames_cities1000.shp",
            "mapped by --level suburb --name-field NAME from parishes.shp",
        ])
        #expect(licence.text == "Data: GeoNames (CC-BY 4.0); parishes.shp")
        #expect(DataLicence.of(layerDescriptions: []).text == "Data: no source recorded")
    }
}
