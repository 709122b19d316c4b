/// Sorts a chunk's row keys (a position on the curve in the upper 32 bits, the row in the lower) by their position,
/// rows of one position in their order: the rows are keyed in order, so this is the keys' own order.
///
/// A least-significant-digit radix sort, three passes of 11, 11 and 10 bits, each skipped when every key has the
/// same digit (a chunk of one region shares its upper bits). A batch sorts each chunk of about 30,000 rows, and
/// the standard library's comparison sort took as long as a tenth of a four-field batch's rows.
enum CurveKeySort {
    private static let digits: [(shift: UInt64, bits: UInt64)] = [(32, 11), (43, 11), (54, 10)]

    /// Sorts `keys[0..<count]`, using `scratch` (room for `count` keys) as the passes' other buffer.
    static func sort(_ keys: UnsafeMutablePointer<UInt64>, count: Int, scratch: UnsafeMutablePointer<UInt64>) {
        guard count > 1 else { return }
        var source = keys, destination = scratch
        var counts = [Int](repeating: 0, count: 1 << 11)
        counts.withUnsafeMutableBufferPointer { counts in
            for (shift, bits) in digits {
                let mask = (UInt64(1) << bits) &- 1
                let buckets = 1 << Int(bits)
                counts.update(repeating: 0)
                for index in 0..<count { counts[Int(truncatingIfNeeded: source[index] >> shift & mask)] &+= 1 }
                if counts[Int(truncatingIfNeeded: source[0] >> shift & mask)] == count { continue }
                var start = 0
                for bucket in 0..<buckets {
                    let size = counts[bucket]
                    counts[bucket] = start
                    start &+= size
                }
                for index in 0..<count {
                    let key = source[index]
                    let bucket = Int(truncatingIfNeeded: key >> shift & mask)
                    destination[counts[bucket]] = key
                    counts[bucket] &+= 1
                }
                swap(&source, &destination)
            }
        }
        if source != keys { keys.update(from: source, count: count) }
    }
}
