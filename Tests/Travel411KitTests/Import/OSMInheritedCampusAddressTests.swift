import Foundation
import Testing

@testable import Travel411Import

/// A node without an address inside an area with one carries the area's address whatever the area's size, as
/// Nominatim 5.3 gives it before indexing (`placex_indexing_prepare`, lib-sql/functions/placex_triggers.sql: any rank-30
/// polygon covering the node, no reach). An openstreetmap.org export of Lima (2024) around the campus of the Universidad
/// Nacional Mayor de San Marcos, a relation 0.009° wide with `addr:housenumber=375` on Avenida Carlos Germán Amezaga.
@Suite struct OSMInheritedCampusAddressTests {
    static let extractImport = OSMExtractImportTests.importFixture("lima-unmsm-2024.osm.pbf")

    /// Nominatim 5.3.3 on the same export answers the bench with the campus's address; travel411 took only areas
    /// reaching less than 0.007° east of the node (the answer search's reach) and answered the nearest street without a
    /// number (Calle Cornelio Borda).
    @Test(arguments: [(-12.053875, -77.086339, Int64(10_157_569_177))])
    func aNodeInsideTheCampusCarriesItsAddress(latitude: Double, longitude: Double, node: Int64) throws {
        let object = try ExtractAnswer.jsonv2(in: try Self.extractImport.get().path, latitude, longitude)
        let address = try #require(object["address"] as? [String: String])
        #expect(object["osm_type"] as? String == "node", "\(object)")
        #expect((object["osm_id"] as? NSNumber)?.int64Value == node, "\(object)")
        #expect(address["road"] == "Avenida Carlos Germán Amezaga", "\(address)")
        #expect(address["house_number"] == "375", "\(address)")
        #expect(address["postcode"] == "15081", "\(address)")
    }
}
