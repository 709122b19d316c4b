import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// An object's own `addr:city` names its municipality before the boundary holding it, as Nominatim's
/// `get_address_place` and `complete_address_details` decide (`OSMAddressCity`). Real data: the University of
/// British Columbia, an admin_level 8 boundary of its own (two relations), whose buildings carry
/// `addr:city=Vancouver`, beside Vancouver's boundary and city node, cut from pelias/openstreetmap's
/// vancouver_canada.osm.pbf. Nominatim 5.3.3 on the whole extract answers these points so.
@Suite struct OSMAddressCityTests {
    static let cut = OSMShapefileImportTests.fixtures.appendingPathComponent("ubc-vancouver-2015.osm.pbf")
    static let cutImport = Result { try OSMExtractImportTests.importExtract(cut, as: "ubc-vancouver.gpkg") }

    /// Buildings at the campus with `addr:city=Vancouver` (5879 Gray Avenue, the Hennings Building), and an entrance
    /// node without it (5920 Berton Avenue), which keeps the boundary holding it.
    @Test(arguments: [
        (49.252674, -123.233089, "Gray Avenue", "Vancouver"), (49.266146, -123.252464, "Agricultural Road", "Vancouver"),
        (49.254818, -123.236030, "Berton Avenue", "University of British Columbia"),
    ])
    func anObjectsAddrCityNamesItsCity(latitude: Double, longitude: Double, road: String, city: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.cutImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == road, "\(address)")
        #expect(address["city"] == city, "\(address)")
    }

    @Test func theExplanationSaysTheAddrCityChose() throws {
        var settings = GeocoderSettings()
        settings.addressOfTheAnswer = true
        let geocoder = try ReverseGeocoder(databasePath: try Self.cutImport.get().path, settings: settings)
        let lines = geocoder.explanation(for: Coordinate(latitude: 49.252674, longitude: -123.233089), zoom: 18)
        let city = try #require(lines.firstIndex { $0.hasPrefix("city: Vancouver") }, "\(lines)")
        #expect(lines[city + 1].contains("addr:city"), "\(lines)")
    }
}
