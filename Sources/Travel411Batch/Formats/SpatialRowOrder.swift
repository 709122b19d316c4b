import Travel411Core
import Travel411Store

/// The order a chunk's rows are answered in, and the gathering of their answers back into the input's order.
///
/// A batch's lookups wait for memory: the tiles, cells and names they read are far bigger than the caches. Rows
/// answered along a Hilbert curve over their points (`HilbertCurve`, the feature tables' order), so that rows near each other on the ground come one after
/// another, find what their neighbours read still in the cache; points in the input's order, scattered over the
/// world, almost never do. Each row's answer is the same whichever order it is answered in; only where it is
/// written first differs, and `gather` puts the rows back in the input's order (docs/where.md, "Performance").
final class SpatialRowOrder {
    /// Fewer rows than this are answered in their own order: too few to share much, and a pipe's few rows (an
    /// interactive program's) should not wait for a sort or a copy.
    static let minimumRows = 256
    /// How many answers ahead `gather` asks for an answer's first bytes.
    private let gatherRowsAhead = 8

    private var keys: UnsafeMutablePointer<UInt64>
    private var sortScratch: UnsafeMutablePointer<UInt64>
    private var rowOrder: UnsafeMutablePointer<Int>
    private var answerStarts: UnsafeMutablePointer<Int>
    private var answerEnds: UnsafeMutablePointer<Int>
    private var capacity: Int
    /// Whether the last `order` is not the input's: the answers are then gathered (`noteAnswer`, `gather`).
    private(set) var isReordered = false

    init() {
        capacity = 4096
        keys = .allocate(capacity: capacity)
        sortScratch = .allocate(capacity: capacity)
        rowOrder = .allocate(capacity: capacity)
        answerStarts = .allocate(capacity: capacity)
        answerEnds = .allocate(capacity: capacity)
    }

    deinit { deallocate() }

    /// The order to answer `count` rows in: the rows' indices, along the curve (rows without a point last, in
    /// their order) when there are at least `minimumRows`, else in the input's order. Valid until the next call.
    func order(count: Int, point: (Int) -> SIMD2<Double>) -> UnsafeBufferPointer<Int> {
        reserve(count)
        isReordered = count >= Self.minimumRows
        guard isReordered else {
            for row in 0..<count { rowOrder[row] = row }
            return UnsafeBufferPointer(start: rowOrder, count: count)
        }
        for row in 0..<count {
            let latitudeAndLongitude = point(row)
            let curve =
                latitudeAndLongitude.x.isNaN
                ? UInt64(UInt32.max) : UInt64(HilbertCurve.index(longitude: latitudeAndLongitude.y, latitude: latitudeAndLongitude.x))
            keys[row] = curve << 32 | UInt64(row)
        }
        CurveKeySort.sort(keys, count: count, scratch: sortScratch)
        for index in 0..<count { rowOrder[index] = Int(truncatingIfNeeded: keys[index] & 0xFFFF_FFFF) }
        return UnsafeBufferPointer(start: rowOrder, count: count)
    }

    /// Notes where row `row`'s answer lies in the buffer the rows were answered into.
    @inline(__always)
    func noteAnswer(of row: Int, from start: Int, to end: Int) {
        answerStarts[row] = start
        answerEnds[row] = end
    }

    /// Appends the answers of rows `0..<count`, noted in `answers`, to `output` in the rows' order.
    func gather(_ count: Int, from answers: GrowableByteArray, to output: GrowableByteArray) {
        output.reserve(answers.count)
        for row in 0..<count {
            // The answers lie all over `answers`: the next ones' first bytes are asked for before they are copied.
            if row &+ gatherRowsAhead < count { LookupPrefetch.hint(answers.base + answerStarts[row &+ gatherRowsAhead]) }
            output.append(answers.base + answerStarts[row], count: answerEnds[row] &- answerStarts[row])
        }
    }

    private func reserve(_ count: Int) {
        guard count > capacity else { return }
        deallocate()
        capacity = max(count, capacity * 2)
        keys = .allocate(capacity: capacity)
        sortScratch = .allocate(capacity: capacity)
        rowOrder = .allocate(capacity: capacity)
        answerStarts = .allocate(capacity: capacity)
        answerEnds = .allocate(capacity: capacity)
    }

    private func deallocate() {
        keys.deallocate()
        sortScratch.deallocate()
        rowOrder.deallocate()
        answerStarts.deallocate()
        answerEnds.deallocate()
    }
}
