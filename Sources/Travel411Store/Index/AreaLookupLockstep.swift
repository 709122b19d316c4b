import Travel411Core

/// Several area lookups at once (a point's country, admin area and time zone; a coastal point's eight
/// probes), advanced one step at a time together.
///
/// A lookup is a chain of dependent reads: grid, tile header, a few quadtree nodes, the leaf's record,
/// its vertices; each one usually misses the core's cache, and one lookup after another waits for
/// every miss in turn. Taking one step of every lookup before the next step of any lets the processor
/// wait for their misses together. The answers are those of `AreaIndex.featureIndex`: the same data,
/// the same walk, the same crossing test.
///
/// Public types with package members, and the per-point steps `@inlinable`: the geocoder's module starts the
/// walks of every point, and this toolchain inlines an `@inlinable` member into another module only when its
/// type is public (of a `package` type, it calls the member's unspecialised entry point).
public enum AreaLookupLockstep {
    @inlinable package static var capacity: Int { 8 }

    /// What a lookup needs of a level whose tiles were all read up front (`AreaIndex.lockstepLevel`).
    // @unchecked Sendable: bare pointers into an AreaIndex's grid and arena, which are never written after
    // the index is built and which the geocoder holding this keeps alive.
    public struct Level: @unchecked Sendable {
        @usableFromInline let grid: UnsafePointer<UInt32>
        @usableFromInline let arena: UnsafeRawPointer

        init(grid: UnsafePointer<UInt32>, arena: UnsafeRawPointer) {
            self.grid = grid
            self.arena = arena
        }
    }

    /// The grid references of every level side by side, tile by tile (`stride` slots a tile, by level
    /// ordinal; 0, no polygon, for a level without a grid): a point's lookups of several levels start with
    /// one cache line rather than one line in each level's grid (259 KB each). A copy of the levels' own
    /// grids, so the same references and the same answers.
    // @unchecked Sendable: one allocation, filled in init and only read afterwards.
    public final class GridRows: @unchecked Sendable {
        @inlinable package static var stride: Int { 8 }
        @usableFromInline package let references: UnsafeMutablePointer<UInt32>
        /// The levels by ordinal, read through a bare pointer: a point's walks and hints take them from here rather
        /// than from an array of optionals (a bounds check and a test per level and point). A level without a grid
        /// holds a placeholder that nothing reads: `present` leaves it out.
        @usableFromInline package let levels: UnsafeMutablePointer<Level>
        /// Bit n set when the level of ordinal n has a grid.
        @usableFromInline package let present: UInt8

        /// `levels` by ordinal, at most `stride` of them.
        package init(levels: [Level?]) {
            let tiles = AreaIndex.columns * AreaIndex.rows
            references = .allocate(capacity: tiles * Self.stride)
            references.initialize(repeating: 0, count: tiles * Self.stride)
            self.levels = .allocate(capacity: Self.stride)
            let placeholder = Level(grid: UnsafePointer(references), arena: UnsafeRawPointer(references))
            self.levels.initialize(repeating: placeholder, count: Self.stride)
            var present: UInt8 = 0
            for (ordinal, level) in levels.prefix(Self.stride).enumerated() {
                guard let level else { continue }
                for tile in 0..<tiles { references[tile * Self.stride + ordinal] = level.grid[tile] }
                self.levels[ordinal] = level
                present |= 1 << ordinal
            }
            self.present = present
        }

        deinit {
            references.deallocate()
            levels.deallocate()
        }
    }

    /// Where a point lies in the grids every level shares: worked out once for all of its lookups.
    public struct Start {
        @usableFromInline let x: Double, y: Double
        @usableFromInline let column: Int, row: Int

        @inlinable @inline(__always) package init(longitude: Double, latitude: Double) {
            (x, y) = AreaIndex.clampedToWorld(longitude, latitude)
            (column, row) = AreaIndex.tile(x, y)
        }

        /// The point's tile, row-major from 90° S and 180° W (`GridRows`' order).
        @inlinable package var tile: Int { row * AreaIndex.columns + column }
    }

    /// One lookup and its progress.
    public struct Walk {
        @usableFromInline let level: Level
        @usableFromInline let x: Double, y: Double
        @usableFromInline var ref: UInt32
        @usableFromInline var tileBase: UnsafeRawPointer
        @usableFromInline var cellX: Double, cellY: Double, size: Double

        @inlinable @inline(__always) package init(level: Level, longitude: Double, latitude: Double) {
            let start = Start(longitude: longitude, latitude: latitude)
            self.init(level: level, start: start, reference: level.grid[start.tile])
        }

        /// `reference`: the level's grid reference of the start's tile (as `GridRows` holds it).
        @inlinable @inline(__always) package init(level: Level, start: Start, reference: UInt32) {
            self.level = level
            (x, y) = (start.x, start.y)
            cellX = Double(start.column) - 180
            cellY = Double(start.row) - 90
            size = 1
            tileBase = level.arena
            ref = reference
        }
    }

    /// Finishes the walks (each begun with its grid reference read), writing each one's polygon
    /// index, or -1, to `answers` (at least as long as `walks`).
    @inline(__always)
    package static func resolve(_ walks: UnsafeMutableBufferPointer<Walk>, answers: UnsafeMutableBufferPointer<Int32>) {
        let inProgress: Int32 = -2
        // The walks still at an internal node, by index: each round steps only them, and drops those it
        // brought to a leaf, rather than scanning every walk round after round.
        precondition(walks.count <= capacity, "more area walks than the lockstep's list holds")
        var descending: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &descending) { list in
            var active = 0
            // The headers of crossed tiles, whose first line holds the root; other references are answers.
            for i in walks.indices {
                let ref = walks[i].ref
                switch AreaIndex.tag(ref) {
                case AreaIndex.Tag.uniform.rawValue: answers[i] = Int32(AreaIndex.payload(ref))
                case AreaIndex.Tag.leafOrTile.rawValue:
                    walks[i].tileBase = walks[i].level.arena + Int(AreaIndex.payload(ref)) * TileArena.alignment
                    walks[i].ref = AreaTile.root(atBase: walks[i].tileBase)
                    answers[i] = inProgress
                    if AreaIndex.tag(walks[i].ref) == AreaIndex.Tag.internalNode.rawValue {
                        list[active] = UInt8(truncatingIfNeeded: i)
                        active += 1
                    }
                default: answers[i] = -1
                }
            }
            // One quadtree level of every walk still at an internal node, round after round.
            while active > 0 {
                var kept = 0
                for k in 0..<active {
                    let i = Int(list[k])
                    walks[i].size *= 0.5
                    let size = walks[i].size
                    var quadrant = 0
                    if walks[i].x >= walks[i].cellX + size {
                        quadrant |= 1
                        walks[i].cellX += size
                    }
                    if walks[i].y >= walks[i].cellY + size {
                        quadrant |= 2
                        walks[i].cellY += size
                    }
                    let ref = AreaTile.nodes(atBase: walks[i].tileBase)[Int(AreaIndex.payload(walks[i].ref)) + quadrant]
                    walks[i].ref = ref
                    list[kept] = UInt8(truncatingIfNeeded: i)
                    kept += AreaIndex.tag(ref) == AreaIndex.Tag.internalNode.rawValue ? 1 : 0
                }
                active = kept
            }
        }
        // Every leaf's record and first vertex together, then the crossing counts, which now mostly
        // read cached memory.
        var touched = 0.0
        for i in walks.indices where answers[i] == inProgress && AreaIndex.tag(walks[i].ref) == AreaIndex.Tag.leafOrTile.rawValue {
            touched += AreaTile(checkedBase: walks[i].tileBase).firstVertexX(ofRecord: Int(AreaIndex.payload(walks[i].ref)))
        }
        keepAlive(touched)
        for i in walks.indices where answers[i] == inProgress {
            let walk = walks[i]
            switch AreaIndex.tag(walk.ref) {
            case AreaIndex.Tag.uniform.rawValue: answers[i] = Int32(AreaIndex.payload(walk.ref))
            case AreaIndex.Tag.leafOrTile.rawValue:
                let answer = AreaTile(checkedBase: walk.tileBase).leafFeature(
                    Int(AreaIndex.payload(walk.ref)),
                    centreX: walk.cellX + walk.size * AreaIndex.referenceFractionX,
                    centreY: walk.cellY + walk.size * AreaIndex.referenceFractionY, x: walk.x, y: walk.y)
                answers[i] = Int32(answer ?? -1)
            default: answers[i] = -1
            }
        }
    }

    /// Makes the reads that only warm the cache count as used, so the optimiser keeps them.
    @inline(never) @_optimize(none)
    package static func keepAlive(_ value: Double) {}
}
