import Testing

@testable import Travel411Geocoder
@testable import Travel411Store

/// A batch's lockstep lookups and cache hints walk the bits of `ordinals(readBy:)` rather than asking every
/// ordinal's `need`: the two must name the same levels for every set of needs.
@Suite struct AreaLevelNeedsTests {
    @Test func theOrdinalsReadAreThoseWhoseNeedIsAsked() {
        for raw in 0...UInt16.max {
            let needs = PlacemarkNeeds(rawValue: raw)
            let bits = PlacesSchema.AreaLevel.ordinals(readBy: needs)
            for ordinal in 0..<PlacesSchema.AreaLevel.count {
                let read = bits & (1 << ordinal) != 0
                #expect(read == needs.contains(PlacesSchema.AreaLevel.need(ordinal: ordinal)), "needs \(raw), ordinal \(ordinal)")
            }
        }
    }
}
