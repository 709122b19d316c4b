import Travel411Core

/// One batch worker's texts of a run of fields, printed one after another, whose texts follow a few of the record's
/// area numbers and nothing else (the country, its code, whether it is the territorial waters', the time zone, the
/// inland water, the ocean), kept for the numbers they were printed for: a row with the same numbers copies the
/// run's bytes, its delimiters included, instead of writing its fields one by one (`ReverseGeocoder.appendTexts`).
///
/// A direct-mapped table of `slotCount` slots: on the bench's million points the every-field row's run from the
/// country to the ocean has 1,773 different texts, of which 1,024 slots hold those of 88 % of the rows
/// (docs/development.md). A slot holds the key, the text's length and at most `textCapacity` bytes; a longer text
/// is written field by field every time. Bare memory, no reference to count per row: its owner (one per worker)
/// frees it with `deallocate`.
package struct PlacemarkTextMemo {
    /// The run's fields, by position in the row's field list: the first run of two or more such fields.
    let run: Range<Int>
    /// The `key(of:)` lanes those fields' texts follow, -1 each; the others 0.
    private let lanes: SIMD4<Int32>
    private let slots: UnsafeMutableRawPointer

    private static let slotCount = 1024
    private static let slotBytes = 128
    private static let keyBytes = MemoryLayout<SIMD4<Int32>>.size
    private static let textOffset = keyBytes + 4
    private static let textCapacity = slotBytes - textOffset
    /// An empty slot's key, which no record's is: its second lane, the time zone (at least -1) or 0, is never Int32.min.
    private static let emptyKey = SIMD4<Int32>(repeating: .min)

    /// Nil when no two such fields are printed one after another.
    package init?(fields: UnsafeBufferPointer<PlacemarkField>) {
        var start = 0
        while start < fields.count {
            var end = start
            var lanes = SIMD4<Int32>(repeating: 0)
            while end < fields.count, let more = Self.lanes(of: fields[end]) {
                lanes |= more
                end += 1
            }
            if end - start >= 2 {
                run = start..<end
                self.lanes = lanes
                slots = .allocate(byteCount: Self.slotCount * Self.slotBytes, alignment: 64)
                for slot in 0..<Self.slotCount {
                    slots.storeBytes(of: Self.emptyKey, toByteOffset: slot * Self.slotBytes, as: SIMD4<Int32>.self)
                }
                return
            }
            start = end + 1
        }
        return nil
    }

    package func deallocate() { slots.deallocate() }

    /// The lanes of `key(of:)` a field's text follows in `ReverseGeocoder.appendFieldText` (besides the geocoder's
    /// settings, the same for a whole batch); nil for a field whose text follows anything else.
    static func lanes(of field: PlacemarkField) -> SIMD4<Int32>? {
        switch field {
        case .country, .isoCountryCode, .countryFromTerritorialWaters: SIMD4(-1, 0, 0, 0)
        case .timeZone: SIMD4(0, -1, 0, 0)
        case .inlandWater: SIMD4(0, 0, -1, 0)
        case .ocean: SIMD4(0, 0, 0, -1)
        default: nil
        }
    }

    /// The record's numbers the run's texts follow: the country (its sign bit flipped when it is the territorial
    /// waters': a country is at least -1, so no two keys meet), the time zone, the inland water and the ocean.
    @inline(__always) func key(of record: PlacemarkRecord) -> SIMD4<Int32> {
        let country = record.country ^ (record.countryFromTerritorialWaters ? .min : 0)
        return SIMD4(country, record.timeZone, record.inlandWater, record.ocean) & lanes
    }

    /// The slot of `key`: its lanes mixed by odd multipliers, the top bits (a multiplicative hash, Knuth's).
    @inline(__always) func slot(of key: SIMD4<Int32>) -> UnsafeMutableRawPointer {
        let mixed = SIMD4<UInt32>(truncatingIfNeeded: key) &* SIMD4(0x9E37_79B1, 0x85EB_CA77, 0xC2B2_AE3D, 0x27D4_EB2F)
        return slots + Int((mixed.wrappedSum() &* 0x9E37_79B1) >> 22) &* Self.slotBytes
    }

    /// Appends the text the slot holds for `key` and returns true; false, appending nothing, when it holds another.
    @inline(__always) func append(_ key: SIMD4<Int32>, from slot: UnsafeMutableRawPointer, to buffer: GrowableByteArray) -> Bool {
        guard all(slot.load(as: SIMD4<Int32>.self) .== key) else { return false }
        let count = Int(slot.load(fromByteOffset: Self.keyBytes, as: Int32.self))
        buffer.append((slot + Self.textOffset).assumingMemoryBound(to: UInt8.self), count: count)
        return true
    }

    /// Keeps `count` bytes at `text` in the slot for `key`, in place of what it held; nothing when they are too many.
    @inline(__always) func keep(_ text: UnsafePointer<UInt8>, count: Int, for key: SIMD4<Int32>, in slot: UnsafeMutableRawPointer) {
        guard count <= Self.textCapacity else { return }
        slot.storeBytes(of: key, as: SIMD4<Int32>.self)
        slot.storeBytes(of: Int32(truncatingIfNeeded: count), toByteOffset: Self.keyBytes, as: Int32.self)
        (slot + Self.textOffset).copyMemory(from: text, byteCount: count)
    }
}
