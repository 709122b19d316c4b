/// Values appended one at a time to memory the owner frees (`deallocate`), for a chunk's per-row tables
/// (`PointsAhead`): an array's append checked its buffer's uniqueness and bounds for every cell and row, a tenth of
/// reading a chunk. Held in a local while it is filled, so nothing is checked but the capacity. For plain values
/// only (no references): the memory is freed without deinitializing them.
struct GrowingBuffer<Element> {
    private(set) var base: UnsafeMutablePointer<Element>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    /// Frees the memory; the owner calls it once, when it is done with the buffer.
    func deallocate() { base.deallocate() }

    @inline(__always)
    mutating func append(_ element: Element) {
        if count == capacity { grow() }
        (base + count).initialize(to: element)
        count &+= 1
    }

    @inline(__always)
    mutating func removeAll() { count = 0 }

    /// Drops the elements from `newCount` on.
    @inline(__always)
    mutating func truncate(to newCount: Int) { count = min(count, newCount) }

    @inline(__always)
    subscript(index: Int) -> Element { base[index] }

    var elements: UnsafeBufferPointer<Element> { UnsafeBufferPointer(start: base, count: count) }

    @inline(never)
    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity &* 2)
        larger.moveInitialize(from: base, count: count)
        base.deallocate()
        base = larger
        capacity &*= 2
    }
}
