import Testing
import Travel411Store

@testable import Travel411Import

/// Names of areas as people read them, whatever the shapefile's field holds.
@Suite struct AreaDisplayNameTests {
    /// Natural Earth's marine polygons (ne_10m_geography_marine_polys) write "Ross  Sea" with two spaces.
    @Test func aRunOfSpacesInANameIsOne() {
        #expect(LookupCollector.displayName("Ross  Sea", level: .ocean) == "Ross Sea")
        #expect(LookupCollector.displayName("NORTH  ATLANTIC OCEAN", level: .ocean) == "North Atlantic Ocean")
        #expect(LookupCollector.displayName("Lake  Geneva", level: .inlandWater) == "Lake Geneva")
        #expect(LookupCollector.displayName("Bled", level: .country) == "Bled")
    }
}
