import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// How many stages of cache hints a point should go through before `record(for:)` answers it.
    package static var prefetchStages: Int { LookupPrefetch.stages }

    /// Cache hints for the first reads `record(for:needs:)` will make for this point: its locality cell and
    /// its area levels' grid references, tile headers and quadtree roots (`LookupPrefetch`). A batch calls
    /// stage 0 for a point some rows ahead, stage 1 for it a few rows later, and so on, so that the reads
    /// come from the cache when the point's turn comes. Nothing when not everything was read up front; no
    /// answer depends on it.
    @inline(__always)
    package func prefetch(_ spot: LookupPrefetch.Spot, stage: Int, needs: PlacemarkNeeds) {
        guard hot.isComplete else { return }
        if needs.contains(.localities) {
            // Borrowed, as `findNearestPlace` borrows them: an optional copy of the cells took a reference per call.
            hot.localities?._withUnsafeGuaranteedRef { level in
                if let cells = level.cells.map(Unmanaged.passUnretained) {
                    cells._withUnsafeGuaranteedRef { $0.prefetch(spot, stage: stage) }
                }
            }
        }
        // The levels' grid references lie side by side (`AreaLookupLockstep.GridRows`): one hint for all of them.
        guard let gridRows = hot.gridRows else { return }
        gridRows._withUnsafeGuaranteedRef { rows in
            if stage == 0 {
                rows.prefetch(spot)
                return
            }
            var bits = rows.present & PlacesSchema.AreaLevel.ordinals(readBy: needs)
            while bits != 0 {
                let ordinal = bits.trailingZeroBitCount
                bits &= bits &- 1
                rows.levels[ordinal].prefetch(spot, stage: stage, reference: rows.reference(spot, ordinal: ordinal))
            }
        }
    }
}
