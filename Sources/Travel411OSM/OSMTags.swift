/// An element's tags as the classifier reads them: the few that libosmium hands over (`OSMFeatureClassifier.keysRead`),
/// in the file's order, found by comparing keys in turn. The classifier looks up some 40 keys of each element, and
/// a dictionary hashed each of them; a handful of comparisons costs less. A key given twice keeps its last value, as
/// a dictionary's would.
package struct OSMTags: Sequence, ExpressibleByDictionaryLiteral {
    private var pairs: [(key: String, value: String)] = []

    package init() {}

    package init(dictionaryLiteral elements: (String, String)...) {
        for (key, value) in elements { self[key] = value }
    }

    package var count: Int { pairs.count }

    package var keys: LazyMapSequence<[(key: String, value: String)], String> { pairs.lazy.map(\.key) }

    package mutating func reserveCapacity(_ capacity: Int) {
        pairs.reserveCapacity(capacity)
    }

    package subscript(key: String) -> String? {
        get {
            for pair in pairs where pair.key == key { return pair.value }
            return nil
        }
        set {
            let index = pairs.firstIndex { $0.key == key }
            switch (index, newValue) {
            case (let index?, let value?): pairs[index].value = value
            case (let index?, nil): pairs.remove(at: index)
            case (nil, let value?): pairs.append((key, value))
            case (nil, nil): break
            }
        }
    }

    package func makeIterator() -> IndexingIterator<[(key: String, value: String)]> {
        pairs.makeIterator()
    }
}
