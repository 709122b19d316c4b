import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411OSM

/// `addr:interpolation` lines as Nominatim 5.3 numbers them (lib-sql/functions/interpolation.sql, `osmline_update`): cut
/// at every numbered node, the numbers strictly between two of them, of the scheme's parity, spread along the piece;
/// a point near the line answers the number at its place along it (nominatim_api/reverse.py,
/// `_find_interpolation_for_street`, `_interpolated_housenumber`).
@Suite struct OSMInterpolationLineTests {
    static let extractImport = OSMExtractImportTests.importFixture("cotonou-interpolations-2020.osm.pbf")

    static func numbers(_ scheme: String, _ housenumbers: [String?]) -> [Int] {
        let line = OSMInterpolation(scheme: scheme, firstNode: 1, lastNode: 2, housenumbers: housenumbers)
        let points = housenumbers.indices.map { Point2D(x: Double($0), y: 0) }
        return OSMLevelMapping.interpolatedNumbers(line, along: points).map(\.0)
    }

    @Test func eachPieceBetweenNumberedNodesHoldsTheNumbersOfItsParity() {
        #expect(Self.numbers("odd", ["1", nil, "9"]) == [3, 5, 7])
        #expect(Self.numbers("odd", ["2", "9"]) == [3, 5, 7])
        #expect(Self.numbers("even", ["1", "10"]) == [2, 4, 6, 8])
        #expect(Self.numbers("odd", ["1", "5", "11"]) == [3, 7, 9])
        #expect(Self.numbers("all", ["4", "1"]) == [2, 3])
        #expect(Self.numbers("3", ["1", "10"]) == [4, 7])
        // Two numbers a step apart hold none; a scheme Nominatim does not take gives none.
        #expect(Self.numbers("even", ["2", "4"]).isEmpty)
        #expect(Self.numbers("alphabetic", ["1", "9"]).isEmpty)
        #expect(Self.numbers("12", ["1", "90"]).isEmpty)
        #expect(Self.numbers("even", ["2", "12a", "10"]) == [4, 6, 8])
    }

    @Test func theNumbersLieEvenlyAlongTheirPiece() {
        let line = OSMInterpolation(scheme: "even", firstNode: 1, lastNode: 2, housenumbers: ["10", nil, "2"])
        let points = [Point2D(x: 0, y: 0), Point2D(x: 1, y: 0), Point2D(x: 4, y: 0)]
        let made = OSMLevelMapping.interpolatedNumbers(line, along: points)
        #expect(made.map(\.0) == [4, 6, 8])
        #expect(made.map(\.1.x) == [3, 2, 1])
    }

    /// Points near Cotonou's lines (no `addr:street` on them: their nodes' `12.168` or `12.164`, the `ref` of the streets
    /// Rue 12.168 and Rue 12.164, which parents each line by name), as Nominatim 5.3.3 answers them on the whole extract (the cached reference of session 36), each at the
    /// number's place on the line (`_interpolated_position`). The line nearest the point answers, by its distance, not
    /// its nearest number's (329 on the odd side where the even line's 322 lies nearer); its number is the one at the
    /// point's place along it (704, where the number nearest the street's point was 710). Before session 36: the nearest
    /// numbered node, 504, 211, 106 and 475.
    @Test(
        arguments: [
            (6.356004, 2.394745, Int64(520_756_018), "500", "Rue 12.168", 6.3559976, 2.3947488),
            (6.355097, 2.397309, Int64(520_783_690), "90", "Rue 12.164", 6.3551088, 2.3973102),
            (6.354787, 2.393903, Int64(520_783_688), "467", "Rue 12.164", 6.3549997, 2.3939000),
            (6.354930, 2.395143, Int64(520_783_688), "329", "Rue 12.164", 6.3548495, 2.3951097),
            (6.355990, 2.396289, Int64(520_756_018), "334", "Rue 12.168", 6.3560953, 2.3962905),
            (6.355974, 2.392892, Int64(520_756_018), "704", "Rue 12.168", 6.3560622, 2.3928939),
            (6.356042, 2.392173, Int64(520_756_018), "778", "Rue 12.168", 6.3561562, 2.3922441),
            (6.355792, 2.394623, Int64(520_783_689), "517", "Rue 12.168", 6.3557547, 2.3946293),
            (6.355763, 2.397224, Int64(520_783_689), "229", "Rue 12.168", 6.3557210, 2.3972136),
        ] as [(Double, Double, Int64, String, String, Double, Double)])
    func aPointNearALineAnswersItsNumberThere(
        latitude: Double, longitude: Double, way: Int64, number: String, road: String, answerLatitude: Double, answerLongitude: Double
    ) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "way", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == way, "\(object)")
        #expect(object["category"] as? String == "place" && object["type"] as? String == "house", "\(object)")
        #expect(address["house_number"] == number, "\(address)")
        #expect(address["road"] == road, "\(address)")
        // To the 7th decimal, give or take its rounding.
        let lat = try #require((object["lat"] as? String).flatMap(Double.init)),
            lon = try #require((object["lon"] as? String).flatMap(Double.init))
        #expect(abs(lat - answerLatitude) <= 2e-7 && abs(lon - answerLongitude) <= 2e-7, "\(object)")
    }

    /// Where along a line its point nearest the query lies, by length in degrees (`ST_LineLocatePoint`).
    @Test func theQueryIsLocatedAlongTheLineByLength() {
        let line = [Point2D(x: 0, y: 0), Point2D(x: 1, y: 0), Point2D(x: 1, y: 3)]
        #expect(ReverseGeocoder.located(Coordinate(latitude: 0.2, longitude: 0.5), along: line) == 0.125)
        #expect(ReverseGeocoder.located(Coordinate(latitude: 2, longitude: 1.5), along: line) == 0.75)
        #expect(ReverseGeocoder.located(Coordinate(latitude: 5, longitude: 5), along: line) == 1)
        #expect(ReverseGeocoder.located(Coordinate(latitude: 1, longitude: 1), along: [Point2D(x: 1, y: 1)]) == 0)
    }

    /// A piece runs from its first number's place to its last (`ST_LineSubstring`), a point when they are one.
    @Test func aPieceIsCutFromItsFirstNumberToItsLast() {
        let line = [Point2D(x: 0, y: 0), Point2D(x: 2, y: 0), Point2D(x: 2, y: 2)]
        #expect(
            OSMLevelMapping.substring(of: line, from: 0.25, to: 0.75) == [Point2D(x: 1, y: 0), Point2D(x: 2, y: 0), Point2D(x: 2, y: 1)])
        #expect(OSMLevelMapping.substring(of: line, from: 0.5, to: 0.5) == [Point2D(x: 2, y: 0)])
    }
}
