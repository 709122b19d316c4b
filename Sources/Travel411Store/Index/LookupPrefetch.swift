import CPrefetch
import Travel411Core

/// Cache-prefetch hints for the lookups of a point the batch will answer a few rows later.
///
/// A batch's time is mostly waits for memory (docs/where.md): every lookup starts with a chain of
/// dependent reads (grid, tile header, quadtree root; tile table, cell offsets, first entries) that miss
/// the cache. The lockstep lookups overlap the misses of one point; these hints overlap them with the
/// work on the points before it. Each stage reads only what the stage before brought in, and prefetches
/// the next link of the chain: the caller runs stage `n` on the point some rows after stage `n - 1`.
/// A hint changes no answer: a prefetch never faults and returns nothing.
///
/// Public with package members, as `AreaLookupLockstep`: the batch's module makes a spot for every point and the
/// geocoder's module gives every hint, and an `@inlinable` member is inlined into them only in a public type.
public enum LookupPrefetch {
    /// How many stages a point goes through before it is answered. Three more, following the quadtree
    /// down to the leaf's record and first vertex, took the lockstep walks from 12 % to 7 % of the samples
    /// but cost as much in the hints themselves, and were no faster in paired runs.
    @inlinable package static var stages: Int { 3 }

    @inlinable @inline(__always) package static func hint(_ address: UnsafeRawPointer) { travel411_prefetch(address) }

    /// Where a point lies in the grids every level shares, worked out once for all its hints: its 1° tile
    /// (the area grids' and the locality cells' tile), its 0.1° cell in that tile, and its quadrant of the
    /// tile. Truncation stands for rounding down, and edges may land in the tile next door: a hint for the
    /// wrong line costs a wasted prefetch, never a wrong answer.
    public struct Spot: Sendable {
        @usableFromInline let tile: Int32
        @usableFromInline let cell: Int16
        @usableFromInline let quadrant: Int16

        /// A point to skip (no valid coordinate).
        @inlinable package static var none: Spot { Spot(tile: -1, cell: 0, quadrant: 0) }

        @usableFromInline init(tile: Int32, cell: Int16, quadrant: Int16) {
            self.tile = tile
            self.cell = cell
            self.quadrant = quadrant
        }

        @inlinable @inline(__always) package init(_ coordinate: Coordinate) {
            let x = min(max(coordinate.longitude + 180, 0), 359.999_999), y = min(max(coordinate.latitude + 90, 0), 179.999_999)
            guard x.isFinite, y.isFinite else {
                self = .none
                return
            }
            let column = Int(x), row = Int(y)
            let tenthColumn = Int(x * 10) - column * 10, tenthRow = Int(y * 10) - row * 10
            tile = Int32(row * 360 + column)
            cell = Int16(min(max(tenthRow, 0), 9) * 10 + min(max(tenthColumn, 0), 9))
            quadrant = Int16((tenthColumn >= 5 ? 1 : 0) | (tenthRow >= 5 ? 2 : 0))
        }

        @inlinable package var isNone: Bool { tile < 0 }
    }
}

extension AreaLookupLockstep.GridRows {
    /// Stage 0 of every level's hints (`AreaLookupLockstep.Level.prefetch`): the point's grid references.
    @inlinable @inline(__always) package func prefetch(_ spot: LookupPrefetch.Spot) {
        LookupPrefetch.hint(references + Int(spot.tile) * Self.stride)
    }

    /// The grid reference of level `ordinal` at the spot's tile.
    @inlinable @inline(__always) package func reference(_ spot: LookupPrefetch.Spot, ordinal: Int) -> UInt32 {
        references[Int(spot.tile) * Self.stride + ordinal]
    }
}

extension AreaLookupLockstep.Level {
    /// Stage 0: the point's grid reference. Stage 1: a crossed tile's header, whose first line holds the
    /// root. Stage 2: the root's children, when the root is an internal node.
    @inlinable @inline(__always) package func prefetch(_ spot: LookupPrefetch.Spot, stage: Int) {
        let slot = grid + Int(spot.tile)
        if stage == 0 {
            LookupPrefetch.hint(slot)
            return
        }
        prefetch(spot, stage: stage, reference: slot.pointee)
    }

    /// Stages 1 and 2 of `prefetch(_:stage:)`, given the point's grid reference.
    @inlinable @inline(__always) package func prefetch(_ spot: LookupPrefetch.Spot, stage: Int, reference ref: UInt32) {
        guard AreaIndex.tag(ref) == AreaIndex.Tag.leafOrTile.rawValue else { return }
        let tileBase = arena + Int(AreaIndex.payload(ref)) * TileArena.alignment
        if stage == 1 {
            LookupPrefetch.hint(tileBase)
            return
        }
        let root = AreaTile.root(atBase: tileBase)
        guard AreaIndex.tag(root) == AreaIndex.Tag.internalNode.rawValue else { return }
        LookupPrefetch.hint(AreaTile.nodes(atBase: tileBase) + Int(AreaIndex.payload(root)) + Int(spot.quadrant))
    }
}
