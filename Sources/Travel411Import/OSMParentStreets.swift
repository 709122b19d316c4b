import Foundation
import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// The street an address or point of interest belongs to, decided at import as Nominatim decides it: of the
/// streets named as its `addr:street` (the same words, whatever the case, accents, spacing and punctuation, or one of
/// the street name's abbreviation variants: `NominatimNameVariants`) whose centre,
/// the point halfway along it, is within 0.015°, and which are of the object's country (`NominatimPartitions`), the
/// one nearest to it (`ObjectNearestStreets` measures the streets' lines when there are several). A long street is
/// several ways; the address belongs to one of them. An object whose `addr:street` names no street near has none
/// here: the lookup then takes the nearest named street, as Nominatim does.
///
/// Streets and objects grow with the extract, so both wait in sort runs on disk, by column of `reachDegrees`:
/// each column's streets come before the objects of the column to their left, and a sweep holds only the
/// streets of the three columns around the objects it answers. The answers are sorted back into the objects'
/// order. Names are compared by a hash of their key (`NameKeyHash`), so nothing in memory grows with their number.
struct OSMParentStreets {
    static let reachDegrees = 0.015

    /// A street's centre (`number` is the street's), or an object asking for its street (`number` is the object's).
    private struct Entry: BitwiseCopyable {
        var column: Int32
        var row: Int32
        var number: UInt32
        var isObject: Bool
        /// The name key's hash (`NameKeyHash`); after `isObject`, in the padding before it, the entry stays 40 bytes.
        var name: UInt64
        var x: Double
        var y: Double

        init(_ point: Point2D, name: UInt64, number: UInt32, isObject: Bool) {
            // Far inside Int32 (a longitude makes ±12,000), so that a neighbour's column is one too.
            let limit = Double(1 << 30)
            column = Int32(max(-limit, min(limit, floor(point.x / OSMParentStreets.reachDegrees))))
            row = Int32(max(-limit, min(limit, floor(point.y / OSMParentStreets.reachDegrees))))
            self.name = name
            self.number = number
            x = point.x
            y = point.y
            self.isObject = isObject
        }

        /// A street's column, or an object's plus one, times two, an object after the streets: once the objects
        /// of a column come, the streets of the column to their right have come too.
        var sweepKey: UInt64 {
            let column = Int64(self.column) + (isObject ? 1 : 0) - Int64(Int32.min)
            return UInt64(column) << 1 | (isObject ? 1 : 0)
        }
    }

    /// One of an object's streets: `rank` 0 the nearest by centre.
    private struct Answer: BitwiseCopyable {
        var object: UInt32
        var street: UInt32
        var rank: UInt32
    }

    /// At most this many streets of its name are kept for an object, nearest centre first. A street split into many
    /// short ways (London's Holborn Viaduct is 17) has its way nearest an address beyond the four nearest centres,
    /// where Nominatim measures every way of the name in reach by its line (`getNearestNamedRoadPlaceId`).
    static let maximumCandidates = 16

    private let entries: ExternalSorter<Entry>
    private let runPrefix: String
    private let bufferBytes: Int
    /// The abbreviation variants a street is also named by; nil: by its name as written only.
    private let variants: NominatimNameVariants?
    private let partitions: NominatimPartitions
    /// The name hashes of the latest street names' spellings (`add`): a name comes back street after street (a long
    /// street is many ways), and its variants took half of the read's features thread. Emptied when full, so that
    /// it stays small; a name's hashes are the same each time, so the entries are the same either way.
    /// Kept with the name's own bytes: a String key matches a canonically equivalent spelling too.
    private var spellingHashes: [String: (name: String, hashes: [UInt64])] = [:]
    private static let spellingHashesKept = 1 << 14
    /// How many streets' partitions `answers` keeps: a street is asked about by each of its addresses, which come
    /// together (the sweep is by column), so a small cache, emptied when full, answers most of them.
    private static let streetPartitionsKept = 1 << 14

    /// Sort runs are created as `runPrefix` and a name, each of `bufferBytes` of entries (40 bytes each).
    init(
        runPrefix: String, bufferBytes: Int = 16 << 20, variants: NominatimNameVariants? = .embedded,
        partitions: NominatimPartitions = .embedded
    ) {
        self.runPrefix = runPrefix
        self.bufferBytes = bufferBytes
        self.variants = variants
        self.partitions = partitions
        entries = ExternalSorter(runPrefix: runPrefix + "sweep-", bufferBytes: bufferBytes) { $0.sweepKey }
    }

    /// A street by its name and each of the name's abbreviation variants (`NominatimNameVariants`): an `addr:street`
    /// that spells one of them names it.
    mutating func add(street id: UInt32, name: String, midpoint: Point2D) throws {
        for hash in spellingHashes(of: name) {
            try entries.append(Entry(midpoint, name: hash, number: id, isObject: false))
        }
    }

    /// A street by each of its names (`OSMHighway.otherNames` after the one it shows), each spelling's hash once: an
    /// `addr:street` that spells any of them names it, as Nominatim matches it against every name of the street's
    /// `name_vector` (`getNearestNamedRoadPlaceId`, lib-sql/functions/partition-functions.sql). Dhaka's mall on
    /// `addr:street=Bir Uttam A. K. Khandakar Road` is on the way named so in `name:en`, whose `name` is in Bengali.
    mutating func add(street id: UInt32, names: [String], midpoint: Point2D) throws {
        var added: Set<UInt64> = []
        for name in names {
            for hash in spellingHashes(of: name) where added.insert(hash).inserted {
                try entries.append(Entry(midpoint, name: hash, number: id, isObject: false))
            }
        }
    }

    /// A street by its `ref`, one of its names in Nominatim (`NAME_TAGS.core`'s extra names, lib-lua/themes/nominatim/
    /// presets.lua, which its `name_vector` holds), without variants, word by word as every name is matched
    /// (`matchKey`): the interpolation lines whose nodes' `12.168` is Rue 12.168's ref in Cotonou, an address on
    /// `addr:street=US 95`; "U.S. 95" is "u s 95" and names no `US 95` (Beatty's diner).
    func add(street id: UInt32, ref: String, midpoint: Point2D) throws {
        guard let name = nameHash(of: ref) else { return }
        try entries.append(Entry(midpoint, name: name, number: id, isObject: false))
    }

    /// A name's variant without its brace addendum, which Nominatim 5.3 adds to a place's names before matching them
    /// (the `strip-brace-terms` step of settings/icu_tokenizer.yaml, `strip_brace_terms.py`'s `create`): the part before
    /// the first `(`, trimmed, whatever follows it (`split('(')[0].strip()`). Volos's side street
    /// "Νικοτσάρα (πάροδος)" is also "Νικοτσάρα", and the addresses on "Νικοτσάρα" nearer it are its. nil for none.
    static func withoutBraceTerm(_ name: String) -> String? {
        guard let brace = name.firstIndex(of: "(") else { return nil }
        let stripped = name[..<brace].trimmingCharacters(in: .whitespaces)
        return stripped.isEmpty ? nil : stripped
    }

    /// The hashes of the name's spellings (itself and its variants, then its name without a brace term and that name's
    /// variants), each once, in the variants' order.
    private mutating func spellingHashes(of name: String) -> [UInt64] {
        if let known = spellingHashes[name], known.name.utf8.elementsEqual(name.utf8) { return known.hashes }
        var added: Set<UInt64> = []
        var hashes: [UInt64] = []
        for written in [name] + (Self.withoutBraceTerm(name).map { [$0] } ?? []) {
            for spelling in variants?.variants(of: written) ?? [written] {
                guard let hash = nameHash(of: spelling), added.insert(hash).inserted else { continue }
                hashes.append(hash)
            }
        }
        if spellingHashes.count >= Self.spellingHashesKept { spellingHashes.removeAll(keepingCapacity: true) }
        spellingHashes[name] = (name, hashes)
        return hashes
    }

    /// The object numbered `object`, at `point`, names its street `name`: `answers` gives the street.
    func ask(object: UInt32, named name: String, at point: Point2D) throws {
        guard let name = nameHash(of: name) else { return }
        try entries.append(Entry(point, name: name, number: object, isObject: true))
    }

    /// The name's match key by its hash (`NameKeyHash`), nil for a name without letters or digits. A number per
    /// distinct key, given in a dictionary, grew with the extract's distinct names (about 200 bytes a name, tens of
    /// millions of them in the planet; issue 35); the hash needs no memory.
    private func nameHash(of name: String) -> UInt64? { nameHash(ofKey: Self.matchKey(name)) }

    private func nameHash(ofKey key: [UInt8]) -> UInt64? {
        guard !key.isEmpty else { return nil }
        return NameKeyHash.of(key)
    }

    /// The streets of each object that asked, in the objects' order: those of its name whose centre is within reach
    /// and of the object's partition (`NominatimPartitions`: the country `countryAt` gives the object's point and the
    /// street's centre, as the import stores them), nearest centre first (ties to the lower street number), at most
    /// `maximumCandidates`. Nominatim's `getNearestNamedRoadPlaceId` (`lib-sql/functions/partition-functions.sql`)
    /// orders them by the distance to the whole street (its `search_name` row keeps the street's geometry in the
    /// column it calls `centroid`): `ObjectNearestStreets` measures the candidates so where there are several.
    /// Objects with none are left out.
    func answers(countryAt: (Point2D) -> String? = { _ in nil }, _ body: (_ object: UInt32, _ streets: [UInt32]) throws -> Void) throws {
        let answers = ExternalSorter<Answer>(runPrefix: runPrefix + "answers-", bufferBytes: bufferBytes) {
            UInt64($0.object) << 8 | UInt64($0.rank)
        }
        // The streets of the three columns around the objects being answered, by column and row.
        var window: [Int32: [Int32: [Entry]]] = [:]
        var windowColumn: Int32?
        let reachSquared = Self.reachDegrees * Self.reachDegrees
        // The partitions of the streets asked about lately: a street is asked about by each of its addresses.
        var streetPartitions: [UInt32: Int32] = [:]
        try entries.drain { entry in
            guard entry.isObject else { return window[entry.column, default: [:]][entry.row, default: []].append(entry) }
            if entry.column != windowColumn {
                for column in window.keys.filter({ $0 < entry.column - 1 }) { window[column] = nil }
                windowColumn = entry.column
            }
            var found: [(squared: Double, street: UInt32)] = []
            var objectPartition: Int32?
            for column in (entry.column - 1)...(entry.column + 1) {
                guard let rows = window[column] else { continue }
                for row in (entry.row - 1)...(entry.row + 1) {
                    for street in rows[row] ?? [] where street.name == entry.name {
                        let dx = street.x - entry.x, dy = street.y - entry.y
                        let squared = dx * dx + dy * dy
                        guard squared <= reachSquared else { continue }
                        let object = objectPartition ?? partitions.partition(of: countryAt(Point2D(x: entry.x, y: entry.y)))
                        objectPartition = object
                        if streetPartitions.count >= Self.streetPartitionsKept { streetPartitions.removeAll(keepingCapacity: true) }
                        let own = streetPartitions[street.number] ?? partitions.partition(of: countryAt(Point2D(x: street.x, y: street.y)))
                        streetPartitions[street.number] = own
                        if NominatimPartitions.mayParent(street: own, object: object) { found.append((squared, street.number)) }
                    }
                }
            }
            found.sort { $0.squared != $1.squared ? $0.squared < $1.squared : $0.street < $1.street }
            for (rank, candidate) in found.prefix(Self.maximumCandidates).enumerated() {
                try answers.append(Answer(object: entry.number, street: candidate.street, rank: UInt32(rank)))
            }
        }
        var current: (object: UInt32, streets: [UInt32])?
        try answers.drain { answer in
            if let pending = current, pending.object != answer.object { try body(pending.object, pending.streets) }
            if current?.object == answer.object {
                current?.streets.append(answer.street)
            } else {
                current = (answer.object, [answer.street])
            }
        }
        if let current { try body(current.object, current.streets) }
    }

    /// A name's letters and digits, lower case, `ß` as `ss`: `Bendererstrasse` is `Benderer Strasse` (`NameKey`).
    package static func key(_ name: String) -> [UInt8] { NameKey.of(name) }

    /// A street name's key as an `addr:street` is matched by: its words (`NameKey.words`, kept apart as Nominatim keeps
    /// them: `Road135` does not name `Road 135`; a word's end joined or not, `Bendererstrasse`, comes from the variants'
    /// `~` rules, `NominatimNameVariants`) of letters without their accents, and the Latin letters no accent removal
    /// makes ASCII in their ASCII form (`LatinLettersInASCII`), as Nominatim compares the two transliterated to ASCII
    /// (`icu_tokenizer.yaml`'s `transliteration`): `Muhlweg` names `Mühlweg`, `Đinh Công Tráng` names `Ðinh Công Tráng`.
    static func matchKey(_ name: String) -> [UInt8] {
        guard name.utf8.contains(where: { $0 >= 0x80 }) else { return NameKey.words(name) }
        return NameKey.words(LatinLettersInASCII.replacing(in: name.folding(options: [.diacriticInsensitive], locale: nil)))
    }
}
