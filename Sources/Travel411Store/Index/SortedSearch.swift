import Foundation
import Travel411Core

/// The first position of `range` where `isBefore` is false; it must hold for a prefix of the range and not after
/// (a binary search over anything sorted: keys, a row's cells, longitudes).
@inline(__always)
func partitionPoint(in range: Range<Int>, _ isBefore: (Int) -> Bool) -> Int {
    var lo = range.lowerBound, hi = range.upperBound
    while lo < hi {
        let mid = (lo + hi) >> 1
        if isBefore(mid) { lo = mid + 1 } else { hi = mid }
    }
    return lo
}

/// Where `key` is in `count` sorted keys, nil when it is not there: a directory's tiles, a tile's cells, a place
/// node's cell.
@inline(__always)
package func sortedPosition<Key: Comparable>(of key: Key, in keys: UnsafePointer<Key>, count: Int) -> Int? {
    let position = partitionPoint(in: 0..<count) { keys[$0] < key }
    return position < count && keys[position] == key ? position : nil
}
