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
        var numbers: [TextKey: UInt32] = [:]
        adminNumbers = (0..<adminCount).map { feature in
            guard admins.bytes(feature, .subAdministrativeArea).isEmpty else { return Self.noMatch }
            let key = TextKey(bytes: admins.bytes(feature, .administrativeArea))
            if let known = numbers[key] { return known }
            let number = UInt32(numbers.count)
            numbers[key] = number
            return number
        }
        let admin1 = PlacesSchema.LocalityField.admin1.rawValue
        let records = localities.records
        // An absent field reads as the empty text, as the records compare it (`RecordTableView.equals`); a
        // record that cannot be read equals nothing.
        localityNumbers = (0..<localityCount).map { locality in
            guard let text = records.bytes(locality, admin1) else { return Self.unknown }
            return numbers[TextKey(bytes: text)] ?? Self.unknown
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

    /// A text compared and hashed by its bytes, read in place while the tables are built.
    private struct TextKey: Hashable {
        let bytes: UnsafeBufferPointer<UInt8>

        static func == (a: TextKey, b: TextKey) -> Bool { a.bytes.elementsEqual(b.bytes) }

        func hash(into hasher: inout Hasher) { hasher.combine(bytes: UnsafeRawBufferPointer(bytes)) }
    }
}
