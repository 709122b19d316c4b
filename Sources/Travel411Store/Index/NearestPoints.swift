import Travel411Core

/// The nearest-point search of one point level: the localities' k-d tree (`PointIndex`, read whole for
/// batches), or the postcodes' and addresses' tiles (`PointTiles`, read as lookups touch them). Both answer
/// by the same rule, so the geocoder asks every point level the same way.
package enum NearestPoints: Sendable {
    case tree(PointIndex)
    case tiles(PointTiles)

    /// The nearest point within `maxChord` that `filter` accepts, with its group (0 for tiles); equal
    /// distances go to the lower id.
    @inline(__always) package func nearest<Filter: PointFilter>(
        to q: PointIndex.Query, maxChord: Double = 2.0001, filter: Filter
    ) -> (id: UInt32, group: UInt32)? {
        switch self {
        case .tree(let index): return index.nearest(to: q, maxChord: maxChord, filter: filter)
        case .tiles(let tiles): return tiles.nearest(to: q, maxChord: maxChord, filter: filter)
        }
    }

    /// The same with the standard filter, which the other targets call: specialised here, as they cannot.
    package func nearest(
        to q: PointIndex.Query, maxChord: Double = 2.0001, filter: PointIndex.NearestFilter = PointIndex.NearestFilter()
    ) -> (id: UInt32, group: UInt32)? {
        switch self {
        case .tree(let index): return index.nearest(to: q, maxChord: maxChord, filter: filter)
        case .tiles(let tiles): return tiles.nearest(to: q, maxChord: maxChord, filter: filter)
        }
    }

    /// The nearest point anywhere, with the standard filter; the tree bounds its search per tile
    /// (`PointIndex.nearestAnywhere`).
    package func nearestAnywhere(to q: PointIndex.Query, at coordinate: Coordinate) -> (id: UInt32, group: UInt32)? {
        switch self {
        case .tree(let index): return index.nearestAnywhere(to: q, at: coordinate)
        case .tiles(let tiles): return tiles.nearest(to: q)
        }
    }

    /// The nearest point within `maxChord` whose record id passes `accept` (a closure per candidate).
    package func nearest(to q: PointIndex.Query, maxChord: Double, where accept: @escaping (UInt32) -> Bool) -> UInt32? {
        nearest(to: q, maxChord: maxChord, filter: ClosureFilter(accept: accept))?.id
    }
}
