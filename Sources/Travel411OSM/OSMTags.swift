/// An element's tags as the classifier reads them: the few that libosmium hands over (`OSMFeatureClassifier.keysRead`),
/// in the file's order, found by comparing keys in turn. The classifier looks up some 40 keys of each element, and
/// a dictionary hashed each of them; a handful of comparisons costs less. Most of those keys are absent: a mask of
/// the keys' lengths and last bytes (`keyBit`) answers them without a comparison, and each tag's `Role` (a name, a
/// POI key) is known when it is added, from the reader's key list, not found again by each rule that asks. A key
/// given twice keeps its last value, as a dictionary's would.
package struct OSMTags: Sequence, ExpressibleByDictionaryLiteral {
    /// What a tag's key is to the classifier.
    package struct Role: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// A main or house name, which makes the element named (`OSMNameTags.isMain`).
        package static let mainName = Role(rawValue: 1)
        /// An extra name (`OSMNameTags.extraKeys`): a name, but not a named element.
        package static let extraName = Role(rawValue: 2)
        /// `name:xx`, a translation (`OSMFeatureClassifier.names(_:)`).
        package static let translation = Role(rawValue: 4)
        /// A key that can make a point of interest (`OSMFeatureClassifier.pointOfInterest`).
        package static let pointOfInterest = Role(rawValue: 8)
    }

    package struct Tag {
        package var key: String
        package var value: String
        package var role: Role
    }

    package private(set) var tags: [Tag] = []
    /// `keyBit` of every key held: a key whose bit is clear is absent.
    private var keyBits: UInt64 = 0

    package init() {}

    package init(dictionaryLiteral elements: (String, String)...) {
        for (key, value) in elements { self[key] = value }
    }

    package var count: Int { tags.count }

    package var keys: LazyMapSequence<[Tag], String> { tags.lazy.map(\.key) }

    package mutating func reserveCapacity(_ capacity: Int) {
        tags.reserveCapacity(capacity)
    }

    /// One bit of 64 for a key, from its length and last byte: keys that share a prefix (`addr:`) mostly differ there.
    @inline(__always)
    package static func keyBit(_ key: String) -> UInt64 {
        let utf8 = key.utf8
        // In place for a native string: `utf8.last` stepped the view's index back, not inlined, for every lookup.
        let last = utf8.withContiguousStorageIfAvailable { Int($0.last ?? 0) } ?? Int(utf8.last ?? 0)
        return 1 &<< UInt64(truncatingIfNeeded: (utf8.count &* 7 &+ last) & 63)
    }

    package subscript(key: String) -> String? {
        get {
            guard keyBits & Self.keyBit(key) != 0 else { return nil }
            for tag in tags where tag.key == key { return tag.value }
            return nil
        }
        set {
            guard let newValue else {
                tags.removeAll { $0.key == key }
                keyBits = tags.reduce(0) { $0 | Self.keyBit($1.key) }
                return
            }
            add(key, newValue, role: OSMFeatureClassifier.role(of: key), keyBit: Self.keyBit(key))
        }
    }

    /// Adds a tag whose key's role and bit are known already (the reader's, for the keys of its list).
    package mutating func add(_ key: String, _ value: String, role: Role, keyBit: UInt64) {
        if keyBits & keyBit != 0, let index = tags.firstIndex(where: { $0.key == key }) {
            tags[index].value = value
            return
        }
        tags.append(Tag(key: key, value: value, role: role))
        keyBits |= keyBit
    }

    package func makeIterator() -> LazyMapSequence<[Tag], (key: String, value: String)>.Iterator {
        tags.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }
}
