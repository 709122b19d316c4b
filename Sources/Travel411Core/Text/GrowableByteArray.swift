#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A growable byte array for building output and holding input blocks.
///
/// A class rather than `[UInt8]` because it owns raw memory: appends skip Array's uniqueness and
/// bounds checks on the hot path, and whole buffers are pooled and reused between chunks so that
/// steady-state batch work neither allocates nor page-faults.
public final class GrowableByteArray {
    @usableFromInline struct State {
        @usableFromInline var base: UnsafeMutablePointer<UInt8>
        @usableFromInline var count: Int
        @usableFromInline var capacity: Int

        @usableFromInline init(base: UnsafeMutablePointer<UInt8>, count: Int, capacity: Int) {
            self.base = base
            self.count = count
            self.capacity = capacity
        }
    }

    /// The state lives behind a `let` pointer: a class's `var` properties pay for a dynamic
    /// exclusivity check on every access, which costs more than the appends themselves. The accessors
    /// and appends are inlinable: every target writes through them per field, and a call per byte
    /// appended was 8 % of a batch's samples. Public, because other targets do not inline a `package`
    /// declaration's body even when it is `@inlinable` (Swift 6.3, release build).
    @usableFromInline let state: UnsafeMutablePointer<State>

    @inlinable public var base: UnsafeMutablePointer<UInt8> { state.pointee.base }
    @inlinable public var capacity: Int { state.pointee.capacity }
    @inlinable public var count: Int {
        get { state.pointee.count }
        set { state.pointee.count = newValue }
    }

    package init(capacity: Int) {
        let size = max(capacity, 64)
        guard let memory = malloc(size) else { fatalError("out of memory allocating \(size) bytes") }
        state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(to: State(base: memory.assumingMemoryBound(to: UInt8.self), count: 0, capacity: size))
    }

    deinit {
        free(state.pointee.base)
        state.deallocate()
    }

    var isEmpty: Bool { count == 0 }
    @inlinable public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Makes room for `extra` more bytes after `count`.
    @inlinable @inline(__always)
    public func reserve(_ extra: Int) {
        if count &+ extra > capacity { grow(toAtLeast: count &+ extra) }
    }

    @usableFromInline @inline(never)
    func grow(toAtLeast needed: Int) {
        let size = max(needed, capacity &* 2)
        guard let memory = realloc(base, size) else { fatalError("out of memory growing a buffer to \(size) bytes") }
        state.pointee.base = memory.assumingMemoryBound(to: UInt8.self)
        state.pointee.capacity = size
    }

    @inlinable @inline(__always)
    public func append(_ byte: UInt8) {
        reserve(1)
        base[count] = byte
        count &+= 1
    }

    @inlinable @inline(__always)
    public func append(_ start: UnsafePointer<UInt8>, count length: Int) {
        guard length > 0 else { return }
        reserve(length)
        let destination = base + count
        if length <= 16 {
            // Most fields are short: a call to memmove costs more than copying them inline, and two words that
            // overlap in the middle (both read before either is written) cost less than a loop over the bytes.
            if length >= 8 {
                copyOverlapping(UInt64.self, from: start, to: destination, count: length)
            } else if length >= 4 {
                copyOverlapping(UInt32.self, from: start, to: destination, count: length)
            } else {
                for index in 0..<length { destination[index] = start[index] }
            }
        } else if length <= 32 {
            // A row's input record, a run of kept texts, a long name: two sixteen-byte words, no call to memcpy.
            typealias Lanes = SIMD16<UInt8>
            let first = UnsafeRawPointer(start).loadUnaligned(as: Lanes.self)
            let last = UnsafeRawPointer(start + (length &- 16)).loadUnaligned(as: Lanes.self)
            UnsafeMutableRawPointer(destination).storeBytes(of: first, as: Lanes.self)
            UnsafeMutableRawPointer(destination + (length &- 16)).storeBytes(of: last, as: Lanes.self)
        } else {
            destination.update(from: start, count: length)
        }
        count &+= length
    }

    /// Copies `count` bytes, between one and two `Word`s, as the first and the last word of the range.
    @inlinable @inline(__always)
    func copyOverlapping<Word: FixedWidthInteger>(
        _: Word.Type, from source: UnsafePointer<UInt8>, to destination: UnsafeMutablePointer<UInt8>, count: Int
    ) {
        let size = MemoryLayout<Word>.size
        let first = UnsafeRawPointer(source).loadUnaligned(as: Word.self)
        let last = UnsafeRawPointer(source + (count &- size)).loadUnaligned(as: Word.self)
        UnsafeMutableRawPointer(destination).storeBytes(of: first, as: Word.self)
        UnsafeMutableRawPointer(destination + (count &- size)).storeBytes(of: last, as: Word.self)
    }

    @inlinable @inline(__always)
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress else { return }
        append(start, count: bytes.count)
    }

    @inline(__always)
    package func append(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { append($0) }
    }

    @inlinable @inline(__always)
    public func append(_ text: StaticString) {
        append(text.utf8Start, count: text.utf8CodeUnitCount)
    }

    /// Disfavoured, so that a literal (`append(" km ")`) takes the `StaticString` overload, copied inline, rather
    /// than this call, which builds a `String` first.
    @_disfavoredOverload
    package func append(_ text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Writes an integer in decimal, without going through `String`: two digits a step, from a table of the
    /// hundred pairs (a batch writes two or three of these a row: a distance in metres, a tenth of a kilometre).
    package func appendDecimal(_ value: Int) {
        reserve(20)
        if value < 0 {
            base[count] = UInt8(ascii: "-")
            count &+= 1
        }
        var magnitude = value.magnitude
        if magnitude < 10 {
            base[count] = UInt8(truncatingIfNeeded: magnitude) &+ 48
            count &+= 1
            return
        }
        var digitCount = 2
        var probe = magnitude
        while probe >= 100 {
            probe /= 100
            digitCount &+= 2
        }
        if probe < 10 { digitCount &-= 1 }
        var index = count &+ digitCount
        count = index
        let pairs = Self.digitPairs.utf8Start
        while magnitude >= 10 {
            let pair = Int(truncatingIfNeeded: magnitude % 100) &* 2
            magnitude /= 100
            index &-= 2
            base[index] = pairs[pair]
            base[index &+ 1] = pairs[pair &+ 1]
        }
        // An odd number of digits: the first one is left (a leading digit is never 0).
        if magnitude > 0 { base[index &- 1] = UInt8(truncatingIfNeeded: magnitude) &+ 48 }
    }

    /// "00" to "99", read in place (a constant, not an array behind a lazy initialiser).
    private static let digitPairs: StaticString =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"

    @inlinable public func removeAll() { count = 0 }

    /// Drops everything from `length` on; used to undo a partly written row.
    package func truncate(to length: Int) { count = min(count, length) }

    /// Moves bytes `[offset, count)` to the front.
    package func removeFirst(_ offset: Int) {
        precondition(offset <= count)
        let remaining = count - offset
        if remaining > 0 { memmove(base, base + offset, remaining) }
        count = remaining
    }
}
