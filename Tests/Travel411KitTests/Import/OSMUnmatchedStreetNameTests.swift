import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import

/// An object whose `addr:street` names no street near has no road in Nominatim's address: Nominatim 5.3's road is its
/// parent street's name (`_setup_address_details`, nominatim_api/results.py, adds no unmatched `addr:street`), and
/// `find_parent_for_poi` (`lib-sql/functions/placex_triggers.sql`) finds no named street for it. In an export of
/// Madinah's Haram, the Prophet's Mosque (way 461699097) is tagged `addr:street=قبرالجسد الطاهر محمدبن عبدالله المصطفى ص اله`
/// among footways without names; it and the nodes inside it that carry its address answered that name as their road.
/// The export itself (Tests/Fixtures/SOURCES.md); the expected answers are Nominatim 5.3.3's on it (session 58).
@Suite struct OSMUnmatchedStreetNameTests {
    static let haram = OSMExtractImportTests.importFixture("sa-madinah-haram-2026.osm.pbf")
    static let street = "قبرالجسد الطاهر محمدبن عبدالله المصطفى ص اله"

    /// The mosque, and a library and an office inside it. Before: the road was the mosque's `addr:street`.
    @Test(arguments: [
        (24.470005, 39.611383, "way 461699097"), (24.469716, 39.610147, "node 5124149571"),
        (24.468636, 39.611499, "node 6252533234"),
    ])
    func noRoadInNominatimsAddress(latitude: Double, longitude: Double, element: String) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.haram.get().path, latitude, longitude)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["road"] == nil, "\(address)")
        #expect(address["neighbourhood"] == "الحرم الشريف", "\(address)")
        #expect(!(object["display_name"] as? String ?? "").contains(Self.street))
    }

    /// travel411's own fields keep the name the object gives its street.
    @Test func travel411sThoroughfareKeepsIt() throws {
        let geocoder = try ReverseGeocoder(databasePath: try Self.haram.get().path)
        #expect(geocoder.placemark(for: Coordinate(latitude: 24.470005, longitude: 39.611383)).thoroughfare == Self.street)
    }
}
