import Foundation
import Testing

@testable import Travel411Answers
@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411NominatimAPI

/// A boundary whose `label` member is a suburb node answers in the node's stead, under its own name and by its own
/// search rank: Nominatim's `find_linked_place` links the label, `placex_update` gives the boundary the node's address
/// rank (20) and sets the node's `linked_place_id`, which every reverse search skips, and the boundary's names come
/// before the node's. Real data: Ankara's Bahçelievler Mahallesi (relation 6779580, admin_level 8, search rank 16 by
/// settings/address-levels.json's default) with its `place=suburb` node "Bahçelievler Mah." (4546433330), an
/// openstreetmap.org export of 2021 (Tests/Fixtures/SOURCES.md). The answers are Nominatim 5.3.3's on the same file.
@Suite struct OSMLinkedSuburbBoundaryTests {
    static let extract = OSMShapefileImportTests.fixtures.appendingPathComponent("tr-ankara-bahcelievler-2021.osm.pbf")
    static let imported = Result { try OSMExtractImportTests.importExtract(extract, as: "tr-ankara-bahcelievler.gpkg") }

    /// Inside the boundary, the suburb is the boundary's name at zoom 18, and the boundary itself answers from zoom 10
    /// (its search rank, 16, is zoom 10's highest) to 14, with the postcode Nominatim gives it.
    @Test func theBoundaryAnswersUnderItsOwnNameFromZoom10() throws {
        let path = try Self.imported.get().path
        let street = try ExtractAnswer.address(in: path, 39.929635, 32.823884)
        #expect(street["road"] == "35. Sokak" && street["suburb"] == "Bahçelievler Mahallesi", "\(street)")
        for zoom in [10, 12, 14] {
            let answer = try ExtractAnswer.jsonv2(in: path, 39.929635, 32.823884, zoom: zoom)
            #expect(answer["osm_type"] as? String == "relation" && answer["osm_id"] as? Int == 6_779_580, "zoom \(zoom): \(answer)")
            #expect(answer["place_rank"] as? Int == 16, "zoom \(zoom): \(answer)")
            let address = try #require(answer["address"] as? [String: String])
            #expect(address["suburb"] == "Bahçelievler Mahallesi" && address["postcode"] == "06490", "zoom \(zoom): \(address)")
        }
        let atNine = try ExtractAnswer.jsonv2(in: path, 39.929635, 32.823884, zoom: 9)
        #expect(atNine["osm_type"] == nil, "\(atNine)")
    }

    /// Outside the boundary the linked node names nothing: the street's point has no suburb at zoom 18, and zoom 14
    /// answers only the country (the node 360 m away answered both before).
    @Test func theLinkedNodeAnswersNowhereOfItsOwn() throws {
        let path = try Self.imported.get().path
        let street = try ExtractAnswer.address(in: path, 39.933805, 32.812969)
        #expect(street["suburb"] == nil && street["postcode"] == "07510", "\(street)")
        let atFourteen = try ExtractAnswer.jsonv2(in: path, 39.933805, 32.812969, zoom: 14)
        #expect(atFourteen["osm_type"] == nil && atFourteen["addresstype"] as? String == "country", "\(atFourteen)")
    }
}
