import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// Below street level Nominatim 5.3 looks for place nodes of a search rank up to the zoom's only (`max_rank` from
/// `zoom_to_rank`, nominatim_api/v1/helpers.py; `_lookup_area_address`, reverse.py): 18 at zoom 12, 19 at zoom 13.
/// A finer node (a hamlet, 20) found with the street level's 25 answered through its village instead.
/// Real data: Andorra's cut of four parishes and their place nodes (`OSMLocalityBeyondStreetsTests`).
@Suite struct OSMPlaceNodeZoomCapTests {
    /// Nominatim 5.3.3 on the whole extract answers these nodes (its osm_id), where travel411 answered the village
    /// Erts (zoom 13), Canillo's town node (zoom 13) and the village Pal (zoom 12).
    @Test(arguments: [
        (42.558277, 1.488135, 13, 64_954_521, "Xixerella"), (42.553570, 1.615558, 13, 64_954_409, "Prats"),
        (42.527081, 1.472487, 12, 64_954_563, "La Massana"),
        // Inside the area travel411 draws around Encamp's town node (18), the nearest village node within reach (19).
        (42.541343, 1.581277, 13, 64_954_601, "Meritxell"), (42.435419, 1.496288, 13, 64_954_593, "Aixirivall"),
        (42.541343, 1.581277, 12, 64_954_584, "Encamp"),
        // In no parish of the cut: the finest node in reach whatever parish its area was cut to (Ransol's and
        // Canillo's to Canillo's), where the uncut nodes alone gave Encamp's town node.
        (42.543580, 1.633327, 13, 64_954_457, "Ransol"), (42.543580, 1.633327, 12, 64_954_433, "Canillo"),
    ])
    func theZoomsRankCapsThePlaceNodeSearch(latitude: Double, longitude: Double, zoom: Int, osmID: Int, name: String) throws {
        let path = try OSMLocalityBeyondStreetsTests.cutImport.get().path
        let answer = try ExtractAnswer.jsonv2(in: path, latitude, longitude, zoom: zoom)
        #expect(answer["osm_id"] as? Int == osmID, "\(answer)")
        #expect(answer["name"] as? String == name, "\(answer)")
    }
}
