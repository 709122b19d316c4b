import Foundation
import Travel411Core
import Travel411Store

/// The question `noteDistrictFromLocality` asks of nearly every point in a batch, answered from two small
/// tables built at start-up: does the locality's first-level name (its record's `admin1`) equal the admin
/// polygon's `administrativeArea`, and has that polygon no second-level name? Asked of the records, it
/// read the locality's record (a cache miss per point); here it is one number per locality in a compact
/// array. Equal texts get equal numbers, so the answer is the byte comparison's.
final class LocalityAdminMatch: Sendable {
    /// Per admin polygon: the number of its `administrativeArea` text, or `noMatch` when the polygon has a
    /// second-level name (the rule does not apply).
    private let adminNumbers: [UInt32]
    /// Per locality: the number of its `admin1` text among the polygons' texts, `unknown` when no polygon
    /// has that text.
    private let localityNumbers: [UInt32]
    private static let noMatch = UInt32.max
    private static let unknown = UInt32.max - 1

    /// `admins`: every admin polygon's texts read up front; `localities`: every locality record read up front.
    init?(admins: PlacesLookup.AreaLevel, localities: PlacesLookup.PointLevel) {
        let adminCount = admins.preloadedCount
        guard adminCount > 0, let localityCount = localities.names?.count, localityCount > 0 else { return nil }
        var numbers = TextNumbers(capacity: adminCount)
        adminNumbers = (0..<adminCount).map { feature in
            guard admins.bytes(feature, .subAdministrativeArea).isEmpty else { return Self.noMatch }
            return numbers.number(of: admins.bytes(feature, .administrativeArea))
        }
        let admin1 = PlacesSchema.LocalityField.admin1.rawValue
        let records = localities.records
        // An absent field reads as the empty text, as the records compare it (`RecordTableView.equals`); a
        // record that cannot be read equals nothing.
        localityNumbers = (0..<localityCount).map { locality in
            guard let text = records.bytes(locality, admin1) else { return Self.unknown }
            return numbers.existingNumber(of: text) ?? Self.unknown
        }
    }

    /// Whether the point takes its district from `locality`: the answer of comparing the locality's
    /// `admin1` with the polygon's `administrativeArea`, when the polygon has no second-level name; nil for
    /// a polygon or locality these tables do not hold.
    @inline(__always) func districtFromLocality(_ locality: Int32, admin: Int32) -> Bool? {
        guard admin >= 0, Int(admin) < adminNumbers.count, locality >= 0, Int(locality) < localityNumbers.count else { return nil }
        let number = adminNumbers[Int(admin)]
        return number != Self.noMatch && localityNumbers[Int(locality)] == number
    }

    /// Texts numbered in the order first met, read in place while the tables are built: open addressing over an
    /// FNV-1a hash of the bytes, the bytes compared when the hashes are equal. Equal texts get equal numbers, as
    /// with a dictionary of the texts, whose hashing (SipHash, per locality) was most of a batch's start-up
    /// after the levels were read.
    private struct TextNumbers {
        private var slots: [Int32]
        private var texts: [UnsafeBufferPointer<UInt8>] = []
        private var hashes: [UInt64] = []
        private let mask: Int

        /// `capacity`: at most this many texts are numbered.
        init(capacity: Int) {
            var size = 16
            while size < 2 * capacity { size *= 2 }
            slots = Array(repeating: -1, count: size)
            mask = size - 1
        }

        private static func hash(_ text: UnsafeBufferPointer<UInt8>) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in text { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return hash
        }

        private static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
            guard a.count == b.count else { return false }
            guard let x = a.baseAddress, let y = b.baseAddress else { return true }
            return memcmp(x, y, a.count) == 0
        }

        /// The slot holding `text`, or the empty slot where it would go.
        private func slot(of text: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int {
            var slot = Int(truncatingIfNeeded: hash ^ hash >> 29) & mask
            while slots[slot] >= 0 {
                let known = Int(slots[slot])
                if hashes[known] == hash, Self.equal(texts[known], text) { return slot }
                slot = (slot + 1) & mask
            }
            return slot
        }

        /// The text's number, given it now when it has none.
        mutating func number(of text: UnsafeBufferPointer<UInt8>) -> UInt32 {
            let hash = Self.hash(text)
            let slot = slot(of: text, hash: hash)
            if slots[slot] >= 0 { return UInt32(slots[slot]) }
            slots[slot] = Int32(texts.count)
            texts.append(text)
            hashes.append(hash)
            return UInt32(texts.count - 1)
        }

        /// The text's number; nil when it has none.
        func existingNumber(of text: UnsafeBufferPointer<UInt8>) -> UInt32? {
            let slot = slot(of: text, hash: Self.hash(text))
            return slots[slot] >= 0 ? UInt32(slots[slot]) : nil
        }
    }
}
