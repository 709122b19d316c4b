import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// Cache hints for the first reads `record(for:needs:)` will make for this point: its locality cell and
    /// its area levels' grid references, tile headers and quadtree roots (`LookupPrefetch`). A batch calls
    /// stage 0 for a point some rows ahead, stage 1 for it a few rows later, and so on, so that the reads
    /// come from the cache when the point's turn comes. Nothing when not everything was read up front; no
    /// answer depends on it.
    @inline(__always)
    package func prefetch(_ spot: LookupPrefetch.Spot, stage: Int, needs: PlacemarkNeeds) {
        switch stage {
        case 0: prefetch(stages: (spot, .none, .none), needs: needs)
        case 1: prefetch(stages: (.none, spot, .none), needs: needs)
        case 2: prefetch(stages: (.none, .none, spot), needs: needs)
        default: break
        }
    }

    /// A row's hints in one call: `prefetch(_:stage:needs:)` of stage 0 for `stages.0`, stage 1 for `stages.1` and
    /// stage 2 for `stages.2` (a spot `.none` gets none), in that order. The batch gives every row's three hints at
    /// once; called stage by stage, each call checked the needs and borrowed the levels again.
    @inline(__always)
    package func prefetch(
        stages spots: (LookupPrefetch.Spot, LookupPrefetch.Spot, LookupPrefetch.Spot), needs: PlacemarkNeeds
    ) {
        // The grid rows are made whenever everything was read (`hot.isComplete`). The cells are borrowed, as
        // `findNearestPlace` borrows them: an optional copy took a reference per call.
        guard hot.isComplete, let gridRows = hot.gridRows else { return }
        let cells =
            needs.contains(.localities)
            ? hot.localities?._withUnsafeGuaranteedRef { $0.cells.map(Unmanaged.passUnretained) } ?? nil : nil
        // The levels' grid references lie side by side (`AreaLookupLockstep.GridRows`): stage 0 is one hint for all.
        gridRows._withUnsafeGuaranteedRef { rows in
            let wanted = rows.present & PlacesSchema.AreaLevel.ordinals(readBy: needs)
            if !spots.0.isNone {
                cells?._withUnsafeGuaranteedRef { $0.prefetch(spots.0, stage: 0) }
                rows.prefetch(spots.0)
            }
            for stage in 1...2 {
                let spot = stage == 1 ? spots.1 : spots.2
                guard !spot.isNone else { continue }
                cells?._withUnsafeGuaranteedRef { $0.prefetch(spot, stage: stage) }
                var bits = wanted
                while bits != 0 {
                    let ordinal = bits.trailingZeroBitCount
                    bits &= bits &- 1
                    rows.levels[ordinal].prefetch(spot, stage: stage, reference: rows.reference(spot, ordinal: ordinal))
                }
            }
        }
    }
}
