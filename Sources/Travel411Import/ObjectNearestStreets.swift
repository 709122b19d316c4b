import Dispatch
import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// The street an address point or POI without a parent street belongs to (it has no `addr:street`, or it
/// names no street near: `OSMParentStreets`): the nearest named street of its own country (`NominatimPartitions`),
/// in degrees from the node or from the building's or area's box (`ObjectBoxStreets`), within 0.015°, else 0.0512°, as
/// Nominatim parents such an object; none when no street of its country is in reach. `getNearestRoadPlaceId`
/// (`lib-sql/functions/partition-functions.sql`) doubles its search from 0.00005° while it is below 0.1°: 0.0512° is
/// the widest it searches. Decided once at import, where
/// the lookup searched it for each answer: 6 % of a zoom-18 batch's CPU on 100,000 central Helsinki points.
///
/// The objects' records wait on disk until the streets' tiles are in the database (`OSMSpillFile`); the
/// objects without a parent are answered in the order of the streets' tiles, a row of tiles read at a time,
/// and the answers sorted back into the objects' order, so memory does not grow with the extract.
final class ObjectNearestStreets {
    static let reachesDegrees = [OSMParentStreets.reachDegrees, 0.0512]
    /// The parent field of an object numbered in a place (`addr:place`) and on no street (`addr:street`): Nominatim 5.3
    /// looks for a parent among the places only (`find_parent_for_address`, lib-sql/functions/utils.sql: ranks 16-25)
    /// and never for the nearest street (`find_parent_for_poi`, placex_triggers.sql: when `is_place_addr`, the area
    /// holding it or none), so its answer names no road, nor does a node that inherits its address. No street number.
    static let placeAddress = ReverseGeocoder.placeAddressParent

    /// The parent field of an object on no street whose address names a place in Japan's way (`hasJapanesePlace`):
    /// `placeAddress` once its country is known to be Japan (`settleParentMark`), else nothing.
    static let japanesePlaceAddress = "place-jp"

    /// `placeAddress` for an address numbered in a place and on no street, `japanesePlaceAddress` for one that may
    /// be in Japan, else nil.
    static func parentMark(_ address: OSMAddress) -> String? {
        guard address.street == nil else { return nil }
        return address.place != nil ? placeAddress : address.hasJapanesePlace ? japanesePlaceAddress : nil
    }

    /// An object's record once its country is known: `tag-japanese` reads `addr:quarter` and `addr:neighbourhood` as
    /// `addr:place` only for objects of Japan (`country_code` `jp`).
    static func settleParentMark(_ fields: inout [String?], countryCode: String?) {
        let field = PlacesSchema.ObjectField.parent.rawValue
        guard field < fields.count, fields[field] == japanesePlaceAddress else { return }
        fields[field] = countryCode?.lowercased() == "jp" ? placeAddress : nil
    }

    /// An object without a parent, at its centre; or, with `count` candidates, one whose `addr:street` names several
    /// streets near (`OSMParentStreets`), nearest centre first.
    struct Orphan: BitwiseCopyable {
        var object: UInt32
        var x: Double
        var y: Double
        var candidates = SIMD16<UInt32>()
        var count: UInt32 = 0
        /// Its country's partition (`NominatimPartitions`): the streets it may belong to are of the same.
        var partition = NominatimPartitions.unknown
        /// The object's box (`minX > maxX` for a node): the streets are measured from it (`ObjectBoxStreets`).
        var minX = 1.0, minY = 1.0, maxX = 0.0, maxY = 0.0

        var box: ObjectBoxStreets.Object? {
            guard minX <= maxX, minY <= maxY, minX < maxX || minY < maxY else { return nil }
            return ObjectBoxStreets.Object(
                box: BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY), centre: Coordinate(latitude: y, longitude: x))
        }

        var candidateList: [UInt32] { (0..<Int(count)).map { candidates[$0] } }

        /// Keeps the first `OSMParentStreets.maximumCandidates` of `streets` (as many as `candidates` holds).
        mutating func setCandidates(_ streets: [UInt32]) {
            let kept = streets.prefix(min(OSMParentStreets.maximumCandidates, candidates.scalarCount))
            for (i, street) in kept.enumerated() { candidates[i] = street }
            count = UInt32(kept.count)
        }
    }

    /// The street found for an object: its nearest named street, or (`isParent`) the one of its candidates.
    struct Answer: BitwiseCopyable {
        var object: UInt32
        var street: UInt32
        var isParent: Bool
    }

    private let records: OSMSpillFile
    private let orphans: ExternalSorter<Orphan>
    private let answers: ExternalSorter<Answer>
    /// Bit n says whether street n has a name (or a ref): the streets an object may belong to.
    private var named: [UInt64] = []
    /// Bit n says whether street n is of rank 27 (a footway, a service road): `ObjectBoxStreets` puts it after the others.
    private var minor: [UInt64] = []
    private var streetCount = 0
    private(set) var objectCount: UInt32 = 0
    private let partitions: NominatimPartitions

    /// Temporary files are created as `temporaryPrefix` and a name (beside the database being built).
    init(temporaryPrefix: String, partitions: NominatimPartitions = .embedded) throws {
        self.partitions = partitions
        records = try OSMSpillFile(path: temporaryPrefix + "object-records")
        // By the streets' tile of the centre, then the object: unique keys.
        orphans = ExternalSorter(runPrefix: temporaryPrefix + "orphan-run-", bufferBytes: 8 << 20, spillsInBackground: true) { orphan in
            UInt64(Self.tileKey(orphan)) << 32 | UInt64(orphan.object)
        }
        answers = ExternalSorter(
            runPrefix: temporaryPrefix + "orphan-answer-run-", bufferBytes: 8 << 20, spillsInBackground: true
        ) { UInt64($0.object) }
    }

    private static func tileKey(_ orphan: Orphan) -> UInt32 {
        TileGrid.streets.tileKey(cellColumn: TileGrid.streets.cellColumn(orphan.x), cellRow: TileGrid.streets.cellRow(orphan.y))
    }

    /// Street number `streetCount` comes next, named or not, of rank 27 (`isMinor`) or not.
    func addStreet(named isNamed: Bool, minor isMinor: Bool = false) {
        if streetCount % 64 == 0 {
            named.append(0)
            minor.append(0)
        }
        if isNamed { named[streetCount / 64] |= 1 << UInt64(streetCount % 64) }
        if isMinor { minor[streetCount / 64] |= 1 << UInt64(streetCount % 64) }
        streetCount += 1
    }

    /// Whether street `street` is of rank 27.
    func isMinor(_ street: UInt32) -> Bool {
        Int(street) < streetCount && minor[Int(street) / 64] & (1 << UInt64(street % 64)) != 0
    }

    /// An object's record (`PlacesSchema.ObjectField`), in the objects' order.
    func addObject(_ fields: [String?]) throws {
        let object = objectCount
        objectCount += 1
        try records.append { $0.write(fields) }
        let parent = fields[PlacesSchema.ObjectField.parent.rawValue] ?? nil
        let candidates = parent.map { $0.split(separator: " ").compactMap { UInt32($0) } } ?? []
        guard candidates.count != 1, parent != Self.placeAddress, let centre = fields[PlacesSchema.ObjectField.centre.rawValue] ?? nil
        else { return }
        // Read as the lookup reads a record's point, so that the import measures from the same centre.
        let point = centre.utf8.withContiguousStorageIfAvailable { ReverseGeocoder.point($0) } ?? nil
        guard let point else { return }
        var orphan = Orphan(object: object, x: point.longitude, y: point.latitude)
        orphan.partition = partitions.partition(of: fields[PlacesSchema.ObjectField.country.rawValue] ?? nil)
        let extentField = fields[PlacesSchema.ObjectField.extent.rawValue] ?? nil
        if let extent = extentField.flatMap({ $0.utf8.withContiguousStorageIfAvailable { ReverseGeocoder.extent($0) } ?? nil }) {
            (orphan.minX, orphan.minY, orphan.maxX, orphan.maxY) = (extent.minX, extent.minY, extent.maxX, extent.maxY)
        }
        orphan.setCandidates(candidates)
        try orphans.append(orphan)
    }

    /// The street `accept` takes nearest a node; of a minor street (rank 27) and a rank-26 street equally near (a node
    /// at a corner), the rank-26 one, as for an object's box (`ObjectBoxStreets`: Nominatim's `location_road` holds the
    /// rank-26 streets first and `getNearestRoadPlaceId` keeps the first of equal distances).
    static func nearest(
        toNode centre: Coordinate, reach: Double, streets: StreetTiles, isMinor: @escaping (UInt32) -> Bool,
        accept: @escaping (UInt32) -> Bool
    ) -> UInt32? {
        guard let found = streets.nearestInDegrees(to: centre, radiusDegrees: reach, accept: accept) else { return nil }
        guard isMinor(found.id) else { return found.id }
        let asNear = min(reach, found.degrees * (1 + 1e-9) + 1e-12)
        return streets.nearestInDegrees(to: centre, radiusDegrees: asNear, accept: { accept($0) && !isMinor($0) })?.id ?? found.id
    }

    /// Writes the orphans' sort buffer out while they wait for the streets' tiles (`ExternalSorter.seal`).
    func seal() throws { try orphans.seal() }

    /// Each object's record in order, with its nearest named street, found among `streets` (the streets' tiles
    /// as written, from `makeStreets`) of the object's country (`streetPartitions`, by street number). At each row of
    /// tiles the pages of the rows further south than a search reaches are let go, and those still in reach kept, so
    /// that each page is read (inflated, decoded) once. The orphans of a row are answered in batches on every core
    /// (`answers(of:)`).
    package func finish(
        makeStreets: () throws -> StreetTiles, streetPartitions: StreetPartitions = StreetPartitions(),
        _ write: ([String?]) throws -> Void
    ) throws {
        defer {
            records.discard()
            orphans.discard()
            answers.discard()
        }
        var streets: StreetTiles?
        var streetsRow: UInt32?
        var batch: [Orphan] = []
        let search = Search(named: named, minor: minor, partitions: streetPartitions)
        func answerBatch() throws {
            if let streets {
                for answer in search.answers(of: batch, among: streets) { try answers.append(answer) }
            }
            batch.removeAll(keepingCapacity: true)
        }
        try orphans.drain { orphan in
            let row = Self.tileKey(orphan) / UInt32(TileGrid.tileColumns)
            if row != streetsRow {
                try answerBatch()
                // The widest reach is under one tile (0.1°): a search reads the row of tiles south of its own at most.
                streets = try streets?.keeping(rows: Int(row) - 1...Int(row) + 1) ?? makeStreets()
                streetsRow = row
            }
            batch.append(orphan)
            if batch.count >= Self.batchOrphans { try answerBatch() }
        }
        try answerBatch()
        var number: UInt32 = 0
        let nearestField = PlacesSchema.ObjectField.nearestStreet.rawValue, parentField = PlacesSchema.ObjectField.parent.rawValue
        /// A record as written: a list of candidates left (none measured) keeps its first.
        func written(_ fields: [String?]) throws {
            var fields = fields
            if parentField < fields.count, let list = fields[parentField] ?? nil, let space = list.firstIndex(of: " ") {
                fields[parentField] = String(list[..<space])
            }
            try write(fields)
        }
        try answers.drain { answer in
            while number < answer.object {
                guard let fields = try records.next({ try $0.texts() }) else { return }
                try written(fields)
                number += 1
            }
            guard var fields = try records.next({ try $0.texts() }) else { return }
            let field = answer.isParent ? parentField : nearestField
            if field < fields.count { fields[field] = String(answer.street) }
            try written(fields)
            number += 1
        }
        while let fields = try records.next({ try $0.texts() }) { try written(fields) }
    }
}

extension ObjectNearestStreets {
    /// How many orphans wait to be answered at once: enough that each core's share outweighs handing it over, few
    /// enough that the batch and its answers take little memory.
    static let batchOrphans = 4096

    /// The search for an orphan's street, given which streets may be chosen (named ones) and which are minor, as
    /// bit sets by street number. An orphan's answer depends on the orphan and the streets' tiles alone, so the
    /// orphans of a batch are answered on every core and their answers kept in the batch's order: the answers one
    /// thread would give, in the same order.
    struct Search: Sendable {
        /// `ObjectNearestStreets`' bit sets, as they are once every street is added.
        let named: [UInt64], minor: [UInt64]
        /// The streets' partitions: an orphan's nearest street is one of its own partition.
        let partitions: StreetPartitions

        /// How many orphans in a row a core takes at a time: neighbours, which read the same tiles' cells.
        private static let chunkOrphans = 64

        func isNamed(_ id: UInt32) -> Bool { Self.contains(named, id) }
        func isMinor(_ id: UInt32) -> Bool { Self.contains(minor, id) }

        private static func contains(_ bits: [UInt64], _ id: UInt32) -> Bool {
            Int(id / 64) < bits.count && bits[Int(id / 64)] >> UInt64(id % 64) & 1 != 0
        }

        /// The answers of `batch` (an orphan without one is left out), in the batch's order; `streets` may read
        /// pages from any of the threads.
        func answers(of batch: [Orphan], among streets: StreetTiles) -> [Answer] {
            guard !batch.isEmpty else { return [] }
            var found = [Answer?](repeating: nil, count: batch.count)
            let chunks = (batch.count + Self.chunkOrphans - 1) / Self.chunkOrphans
            found.withUnsafeMutableBufferPointer { output in
                let output = DisjointSlots(output)
                DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
                    let start = chunk * Self.chunkOrphans
                    for i in start..<min(start + Self.chunkOrphans, batch.count) {
                        output[i] = answer(batch[i], among: streets)
                    }
                }
            }
            return found.compactMap { $0 }
        }

        /// An orphan's street: of its candidates, the nearest (`nearestCandidate`); else the nearest named street
        /// within the first reach that has one.
        func answer(_ orphan: Orphan, among streets: StreetTiles) -> Answer? {
            if orphan.count > 1 {
                return nearestCandidate(orphan, streets: streets).map { Answer(object: orphan.object, street: $0, isParent: true) }
            }
            let centre = Coordinate(latitude: orphan.y, longitude: orphan.x)
            let accept = { (id: UInt32) in
                isNamed(id) && NominatimPartitions.mayParent(street: partitions.partition(ofStreet: id), object: orphan.partition)
            }
            for reach in ObjectNearestStreets.reachesDegrees {
                let found =
                    orphan.box.map { ObjectBoxStreets.nearest(to: $0, reach: reach, streets: streets, isMinor: isMinor, accept: accept) }
                    ?? ObjectNearestStreets.nearest(toNode: centre, reach: reach, streets: streets, isMinor: isMinor, accept: accept)
                if let found { return Answer(object: orphan.object, street: found, isParent: false) }
            }
            return nil
        }

        /// Of an object's candidate streets, the one whose line passes nearest its centre, in degrees (Nominatim's
        /// `getNearestNamedRoadPlaceId` orders by the distance to the street's geometry; measured here from the
        /// object's centre, where Nominatim measures from its box); ties, and a candidate not found, to the nearer centre.
        private func nearestCandidate(_ orphan: Orphan, streets: StreetTiles) -> UInt32? {
            let centre = Coordinate(latitude: orphan.y, longitude: orphan.x)
            // Each candidate's centre is within the parent reach, so its line is too.
            let reach = OSMParentStreets.reachDegrees * 1.01
            if let object = orphan.box {
                let measures = orphan.candidateList.compactMap {
                    ObjectBoxStreets.measure($0, from: object, reach: reach, streets: streets, isMinor: isMinor)
                }
                return measures.min()?.street ?? orphan.candidateList.first
            }
            var best: (squared: Double, street: UInt32)?
            for street in orphan.candidateList {
                guard let squared = streets.squaredDegrees(from: centre, toLine: street, within: reach, clip: nil) else { continue }
                if best.map({ squared < $0.squared }) ?? true { best = (squared, street) }
            }
            return best?.street ?? orphan.candidateList.first
        }
    }
}
