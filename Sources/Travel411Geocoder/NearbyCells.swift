import Travel411Core
import Travel411Store

/// The indices of a list of points by 0.1° cell, for searches that reach less than a cell from their point
/// (place nodes: 0.08° at most): the point's cell and the eight around it hold every candidate.
///
/// The cells are sorted keys with the runs of indices they hold, in memory of its own read through bare
/// pointers: a dictionary of arrays handed out a copy of a cell's array per lookup, nine a search, whose
/// references every thread of a batch took and dropped on the same arrays.
// @unchecked Sendable: raw allocations filled in init and only read afterwards, freed in deinit.
final class NearbyCells: @unchecked Sendable {
    static let cellDegrees = 0.1
    static var cellsPerDegree: Int { Int((1 / cellDegrees).rounded()) }
    private let keys: UnsafeMutablePointer<Int64>
    /// Cell n holds `indices[starts[n]..<starts[n + 1]]`.
    private let starts: UnsafeMutableBufferPointer<Int32>
    private let indices: UnsafeMutableBufferPointer<Int32>
    private let keyCount: Int

    init(_ points: [(x: Double, y: Double)]) {
        // By cell, then by the points' order within each cell.
        let sorted = points.enumerated().map {
            (cell: Self.cell(column: Self.cellIndex($1.x), row: Self.cellIndex($1.y)), index: Int32($0))
        }
        .sorted { ($0.cell, $0.index) < ($1.cell, $1.index) }
        var keys: [Int64] = [], starts: [Int32] = []
        for (position, entry) in sorted.enumerated() where keys.last != entry.cell {
            keys.append(entry.cell)
            starts.append(Int32(position))
        }
        starts.append(Int32(sorted.count))
        self.keys = .allocate(capacity: max(1, keys.count))
        self.keys.initialize(from: keys, count: keys.count)
        self.starts = .allocate(capacity: starts.count)
        _ = self.starts.initialize(from: starts)
        indices = .allocate(capacity: max(1, sorted.count))
        _ = indices.initialize(from: sorted.map(\.index))
        keyCount = keys.count
    }

    deinit {
        keys.deallocate()
        starts.deallocate()
        indices.deallocate()
    }

    /// Every index within a cell of (x, y), in the order the points were given within each cell.
    package func forEach(near x: Double, _ y: Double, _ body: (Int32) -> Void) {
        let column = Self.cellIndex(x), row = Self.cellIndex(y)
        for r in (row - 1)...(row + 1) {
            for c in (column - 1)...(column + 1) {
                guard let cell = sortedPosition(of: Self.cell(column: c, row: r), in: keys, count: keyCount) else { continue }
                for position in Int(starts[cell])..<Int(starts[cell + 1]) { body(indices[position]) }
            }
        }
    }

    /// The index near (x, y) of the smallest `measure`, nil where it gives none; the lowest index on a tie.
    func nearest(near x: Double, _ y: Double, measure: (Int32) -> Double?) -> Int32? {
        var best: (index: Int32, measure: Double)? = nil
        forEach(near: x, y) { index in
            guard let value = measure(index) else { return }
            if let known = best, known.measure < value || (known.measure == value && known.index < index) { return }
            best = (index, value)
        }
        return best?.index
    }

    /// The cell column of a longitude, or row of a latitude.
    static func cellIndex(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }
    private static func cell(column: Int, row: Int) -> Int64 { Int64(row) << 32 | Int64(column) & 0xFFFF_FFFF }
}
