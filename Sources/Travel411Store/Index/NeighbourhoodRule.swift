import Travel411Core

/// Which places are neighbourhoods of a more populous place rather than towns of their own
/// (docs/fields.md, locality). Decided once at import, from positions and populations only.
///
/// A point belongs to the place whose catchment it lies deepest in: the smallest distance / catchment
/// radius. Between a place S and a more populous place B that reaches it, S wins the points of a
/// disc around it (the Apollonius circle of the two weighted distances), of radius k·D / (1 − k²), with
/// D the distance between them and k = S's catchment / B's. S is a town of its own when that disc can
/// hold its own core (its people at 3,000 per km²); otherwise it is a neighbourhood of B and answers
/// only as a subLocality. Soho (19,634 people, 0.9 km from London's point) wins 80 m around itself,
/// far less than its 1.4 km core: a neighbourhood. Windsor (33,348, 2.9 km from Slough's point) wins
/// 2.1 km, more than its 1.9 km core: a town beside Slough, not a part of it. A place is only ever a
/// neighbourhood of a place of its own country and first-level area (`FirstLevelAreas`): Jersey City,
/// New Jersey, beside New York City, New York, is a city of its own however near.
package enum NeighbourhoodRule {
    /// Whether a place with `catchment` and `core` radii (metres) is a neighbourhood of a more
    /// populous place with catchment `largerCatchment` whose point is `distance` metres away.
    /// A place that the larger catchment does not reach is never its neighbourhood.
    package static func isNeighbourhood(catchment: Double, core: Double, largerCatchment: Double, distance: Double) -> Bool {
        guard distance <= largerCatchment else { return false }
        let k = catchment / largerCatchment
        // A catchment as large as the larger one's (equal populations) wins half the plane.
        guard k < 1 else { return false }
        return k * distance / (1 - k * k) < core
    }
}
