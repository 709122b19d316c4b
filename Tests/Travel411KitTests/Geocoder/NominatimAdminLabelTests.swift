import Testing

@testable import Travel411Geocoder

/// The keys of Nominatim 5.3.3's `ADMIN_LABELS` (nominatim_api/v1/classtypes.py) by address rank, as its answers
/// key a boundary that no `place` tag or linked node names.
@Suite struct NominatimAdminLabelTests {
    @Test func theDefaultLabelsByHalfTheRank() {
        let keys = (6...25).map { NominatimAdminLabel.key(addressRank: $0, countryCode: nil) }
        #expect(
            keys == [
                "region", "region", "state", "state", "state_district", "state_district", "county", "county", "municipality",
                "municipality", "city", "city", "city_district", "city_district", "suburb", "suburb", "neighbourhood",
                "neighbourhood", "city_block", "city_block",
            ])
    }

    /// Norway and Sweden have their own for ranks 6-9; other countries and ranks take the default.
    @Test func norwayAndSwedenKeyTheirRanksSixToNineThemselves() {
        for code in ["no", "SE"] {
            #expect(NominatimAdminLabel.key(addressRank: 6, countryCode: code) == "state")
            #expect(NominatimAdminLabel.key(addressRank: 8, countryCode: code) == "county")
            #expect(NominatimAdminLabel.key(addressRank: 12, countryCode: code) == "county")
        }
        #expect(NominatimAdminLabel.key(addressRank: 8, countryCode: "fi") == "state")
        #expect(NominatimAdminLabel.key(addressRank: 30, countryCode: nil) == "administrative")
    }
}
