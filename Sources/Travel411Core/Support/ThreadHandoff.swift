/// A value handed to exactly one other thread, which is its only user from then on (a batch worker's
/// processor, the request's batch geocoder). `Thread`'s block must be `@Sendable`, and Swift cannot see
/// that the creating thread lets go of the value; the hand-off is what makes it safe, not the type.
package struct ThreadHandoff<Value>: @unchecked Sendable {
    package let value: Value

    package init(value: Value) { self.value = value }
}

/// Slots that the iterations of `DispatchQueue.concurrentPerform` fill, each iteration only its own index,
/// so no two threads ever touch the same element. Valid only inside the `withUnsafeMutableBufferPointer`
/// call that made the buffer; what it buys is one allocation for all results, without a lock per write.
package struct DisjointSlots<Element>: @unchecked Sendable {
    private let buffer: UnsafeMutableBufferPointer<Element>

    package init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }

    package subscript(index: Int) -> Element {
        get { buffer[index] }
        nonmutating set { buffer[index] = newValue }
    }
}
