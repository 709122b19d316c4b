import Foundation
import Testing

@testable import Travel411Import

/// A named landuse area is a place of Nominatim 5.3's (`landuse` is a fallback main tag of its full import style), and
/// settings/address-levels.json ranks `residential`, `industrial`, `commercial` and four more 24: its area search
/// answers such a polygon at zooms 15-17 where no street is in reach (`_lookup_area_address`, nominatim_api/reverse.py),
/// and `insert_addresslines` names it in the address of what it holds, keyed by its value (`get_label_tag`). travel411
/// never answered with one, nor named it. The expected answers are Nominatim 5.3.3's on the same fixtures
/// (Tests/Fixtures/SOURCES.md; session 63's compare).
@Suite struct OSMLanduseAreaTests {
    static let minsk = OSMExtractImportTests.importFixture("by-minsk-valadarskaha-2024.osm.pbf")
    static let makati = OSMExtractImportTests.importFixture("ph-makati-legazpi-2024.osm.pbf")

    /// At zoom 15 the polygon answers, with its own address: Minsk's printing works (way 634068696, `industrial`)
    /// names nothing but the country; Makati's San Lorenzo Village (`residential`) and Mile Long (`commercial`, its own
    /// `addr:postcode` 1200) name the quarter node San Lorenzo, whose box holds their centroids. Before: the country,
    /// the neighbourhood node Legazpi.
    @Test(
        arguments: [
            (53.898464, 27.550517, "minsk", "way 634068696", "landuse=industrial", "Мінская друкарская фабрыка Дзяржзнака, Беларусь"),
            (
                14.550304, 121.017831, "makati", "way 27274130", "landuse=residential",
                "San Lorenzo Village, San Lorenzo, Makati, 1223, Philippines"
            ),
            (14.555887, 121.014262, "makati", "way 35582245", "landuse=commercial", "Mile Long, San Lorenzo, Makati, 1200, Philippines"),
        ] as [(Double, Double, String, String, String, String)])
    func aNamedLanduseAreaAnswersAtZoom15(
        latitude: Double, longitude: Double, fixture: String, element: String, category: String, displayName: String
    ) throws {
        let path = try (fixture == "minsk" ? Self.minsk : Self.makati).get().path
        let object = try ExtractAnswer.jsonv2(in: path, latitude, longitude, zoom: 15)
        #expect("\(object["osm_type"] ?? "") \(object["osm_id"] ?? "")" == element, "\(object)")
        #expect("\(object["category"] ?? "")=\(object["type"] ?? "")" == category, "\(object)")
        #expect(object["place_rank"] as? Int == 24, "\(object)")
        // The country's name is left out: this answer is asked without a language, Nominatim's names it as written.
        let lines = (object["display_name"] as? String)?.components(separatedBy: ", ").dropLast()
        #expect(lines == displayName.components(separatedBy: ", ").dropLast(), "\(object)")
    }

    /// A street inside San Lorenzo Village names it between itself and its quarter, under `residential`, before the
    /// neighbourhood node Legazpi of the same rank (`insert_addresslines` orders a rank's lines `isguess`), at zooms
    /// 16-18.
    @Test(arguments: [16, 18])
    func aStreetInsideNamesIt(zoom: Int) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.makati.get().path, 14.550304, 121.017831, zoom: zoom)
        #expect(object["display_name"] as? String == "Tampingco Street, San Lorenzo Village, San Lorenzo, Makati, 1223, Philippines")
        let address = try #require(object["address"] as? [String: String])
        #expect(address["residential"] == "San Lorenzo Village" && address["neighbourhood"] == nil, "\(address)")
    }
}
