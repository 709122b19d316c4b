import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder

/// Nominatim's area search answers with the place node of the highest search rank within its reach, the nearest of
/// that rank, among the nodes inside the area holding the point (`_lookup_area_address`, `lookup_country`,
/// `nominatim_api/reverse.py` 5.3), a locality or quarter too (`FinePlaceNodes`, at zooms 14-15), with the node's
/// own postcode.
/// Each point is one of `Scripts/nominatim-compare`'s seeded Liechtenstein points, with Nominatim 5.3.3's answer
/// there.
@Suite struct FinePlaceNodeTests {
    static func answer(latitude: Double, longitude: Double, zoom: Int) throws -> String {
        let geocoder = try ReverseGeocoder(databasePath: try OSMExtractImportTests.liechtensteinImport.get().path)
        let placemark = geocoder.placemark(
            from: geocoder.record(
                for: Coordinate(latitude: latitude, longitude: longitude), maximumRank: NominatimDetail.maximumRank(zoom: zoom)))
        return NominatimFormatter.answer(placemark, options: NominatimOptions(format: .jsonv2, zoom: zoom))
    }

    /// At zoom 15 (ranks up to 25) the locality Sassfürkle (rank 25), 0.010° away in Schaan's mountain exclave,
    /// answers before the municipality, named above it; no postcode point's box holds it, so it has none. (The
    /// seeded points are asked at zooms 18, 14 and 10: this is the rule on that point, not a cached answer;
    /// Nominatim's at zoom 18, where no street is near, is this locality too.)
    @Test func aLocalityAnswersAtZoom15() throws {
        let answer = try Self.answer(latitude: 47.118394, longitude: 9.620213, zoom: 15)
        #expect(answer.contains(#""osm_type":"node","osm_id":23312,"#))
        #expect(answer.contains(#""category":"place","type":"locality","place_rank":25,"#))
        #expect(answer.contains(#""display_name":"Sassfürkle, Schaan, Wahlkreis Oberland, Liechtenstein""#))
        #expect(!answer.contains("postcode"))
    }

    /// At zoom 14 (rank 22 at most) a locality is too fine: the municipality answers, with its one postcode.
    @Test func aLocalityIsTooFineForZoom14() throws {
        let answer = try Self.answer(latitude: 47.118394, longitude: 9.620213, zoom: 14)
        #expect(answer.contains(#""osm_type":"relation","osm_id":44,"#))
        #expect(answer.contains(#""display_name":"Schaan, Wahlkreis Oberland, 9494, Liechtenstein""#))
    }

    /// A node outside the municipality holding the point does not answer there: Sassfürkle lies 0.019° from this
    /// point of Balzers, within its reach, but in Schaan (Nominatim's answer at zoom 18 is Balzers too).
    @Test func aLocalityOfAnotherMunicipalityDoesNotAnswer() throws {
        let answer = try Self.answer(latitude: 47.138330, longitude: 9.613303, zoom: 15)
        #expect(answer.contains(#""osm_type":"relation","osm_id":45,"#))
        #expect(answer.contains(#""display_name":"Balzers, Wahlkreis Oberland, 9496, Liechtenstein""#))
    }
}
