import Synchronization
import Travel411Core

/// The sine and cosine of each place's latitude (`GreatCircle.latitudeSineAndCosine`), made the first time they
/// are asked for and kept: a batch asks the distance and bearing from its nearest place for every point, and many
/// points share a nearest place. Two calls of libm's trigonometry fewer for each point whose place was seen before,
/// the same bits (the same function of the same latitude).
///
/// Each place has two slots, sine then cosine, zero until made. A cosine of a latitude is never zero (π/2 is no
/// double; were one zero, it would only be made again), so a non-zero cosine says both are there: it is stored after
/// the sine, releasing, and loaded before it, acquiring. Two threads missing the same place both compute it and store
/// the same bits.
/// Public, its members package: the geocoder's module inlines the reads (see `AreaLookupLockstep`).
// @unchecked Sendable: the slots are Atomics, allocated in init and freed in deinit, never resized.
public final class PlaceLatitudeTrigonometry: @unchecked Sendable {
    @usableFromInline package let count: Int
    @usableFromInline let slots: UnsafeMutablePointer<Atomic<UInt64>>

    /// Room for places `0..<count`; a place beyond it is computed each time.
    package init(count: Int) {
        self.count = max(0, count)
        slots = .allocate(capacity: max(2 * self.count, 1))
        for index in 0..<2 * self.count { (slots + index).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: 2 * count)
        slots.deallocate()
    }

    /// Where place `place`'s sine and cosine are kept, with a cache hint sent for them (read a little later, by
    /// `sineAndCosine(at:latitude:)`); nil for a place beyond the table.
    @inlinable @inline(__always) package func prefetchSlot(_ place: Int) -> UnsafeMutablePointer<Atomic<UInt64>>? {
        guard place >= 0, place < count else { return nil }
        let slot = slots + 2 &* place
        LookupPrefetch.hint(UnsafeRawPointer(slot))
        return slot
    }

    /// The sine and cosine of `latitude` (degrees), the latitude of the place whose slot `prefetchSlot` gave: kept
    /// ones, or made now and kept. The table must be alive.
    @inlinable @inline(__always) package static func sineAndCosine(
        at slot: UnsafeMutablePointer<Atomic<UInt64>>, latitude: Double
    ) -> (sin: Double, cos: Double) {
        let cosine = (slot + 1).pointee.load(ordering: .acquiring)
        if cosine != 0 { return (Double(bitPattern: slot.pointee.load(ordering: .relaxed)), Double(bitPattern: cosine)) }
        let made = GreatCircle.latitudeSineAndCosine(latitude)
        slot.pointee.store(made.sin.bitPattern, ordering: .relaxed)
        (slot + 1).pointee.store(made.cos.bitPattern, ordering: .releasing)
        return made
    }
}
