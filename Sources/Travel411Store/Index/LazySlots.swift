import Synchronization

/// A fixed number of slots, each filled at most once and then read from any thread without a lock: the
/// caches of lookups that read a database's pages when first touched, and the pages a batch read up front.
///
/// Two threads that miss the same slot both make a value; the first to store it wins and the other's is
/// dropped, so every reader sees one value per slot for the slot's whole life. Slots are never emptied.
///
/// Reads borrow the stored object through `Unmanaged._withUnsafeGuaranteedRef` instead of taking a
/// reference: the slot owns it for the life of `LazySlots`, and batch workers sharing one page would
/// otherwise contend on its reference count for every point: with plain references (here and in
/// ReverseGeocoder's hot references) a batch took 10-13 % longer on 2 cores (docs/development.md).
// @unchecked Sendable: each slot is an Atomic (compare-and-exchange from empty, once, then only loads);
// the raw allocation holding them is created in init and freed in deinit, never resized.
package final class LazySlots<Value: AnyObject & Sendable>: @unchecked Sendable {
    package let count: Int
    private let slots: UnsafeMutablePointer<Atomic<UnsafeRawPointer?>>

    package init(count: Int) {
        self.count = max(0, count)
        slots = .allocate(capacity: max(count, 1))
        for index in 0..<self.count { (slots + index).initialize(to: Atomic(nil)) }
    }

    deinit {
        for index in 0..<count {
            if let raw = slots[index].load(ordering: .acquiring) { Unmanaged<Value>.fromOpaque(raw).release() }
        }
        slots.deinitialize(count: count)
        slots.deallocate()
    }

    /// Whether the slot holds a value.
    func isFilled(_ index: Int) -> Bool {
        index >= 0 && index < count && slots[index].load(ordering: .acquiring) != nil
    }

    /// Stores `value` unless the slot is filled already.
    package func fill(_ index: Int, with value: Value) {
        guard index >= 0, index < count else { return }
        _ = store(index, value)
    }

    /// `body` applied to the slot's value, made by `make` if the slot is empty; nil (and the slot left
    /// empty) when `make` gives nil.
    @inline(__always)
    package func withValue<R>(at index: Int, orMake make: () -> Value?, _ body: (Value) -> R) -> R? {
        guard index >= 0, index < count else { return nil }
        if let raw = slots[index].load(ordering: .acquiring) {
            return Unmanaged<Value>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
        }
        guard let made = make() else { return nil }
        return Unmanaged<Value>.fromOpaque(store(index, made))._withUnsafeGuaranteedRef(body)
    }

    /// The slot's value, made by `make` if the slot is empty, without a reference: it stays valid for the
    /// life of these slots, which never empty a slot. For a caller that reads one value many times over.
    @inline(__always)
    func unretainedValue(at index: Int, orMake make: () -> Value?) -> Unmanaged<Value>? {
        guard index >= 0, index < count else { return nil }
        if let raw = slots[index].load(ordering: .acquiring) { return Unmanaged<Value>.fromOpaque(raw) }
        guard let made = make() else { return nil }
        return Unmanaged<Value>.fromOpaque(store(index, made))
    }

    /// `body` applied to the slot's value if it was filled.
    @inline(__always)
    package func withValue<R>(at index: Int, _ body: (Value) -> R) -> R? {
        guard index >= 0, index < count, let raw = slots[index].load(ordering: .acquiring) else { return nil }
        return Unmanaged<Value>.fromOpaque(raw)._withUnsafeGuaranteedRef(body)
    }

    /// The slot's value: `value`, or the one another thread stored first.
    private func store(_ index: Int, _ value: Value) -> UnsafeRawPointer {
        let retained = UnsafeRawPointer(Unmanaged.passRetained(value).toOpaque())
        let (exchanged, original) = slots[index].compareExchange(
            expected: nil, desired: retained, ordering: .acquiringAndReleasing)
        if exchanged { return retained }
        Unmanaged<Value>.fromOpaque(retained).release()
        return original ?? retained
    }
}
