import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411StoreWriters

/// The objects whose `addr:street` names no street near but whose `addr:place` names a place near, which Nominatim
/// 5.3 parents by that place and not by the nearest street (GPL-2.0; its rules, not its code): `find_parent_for_address`
/// (`lib-sql/functions/utils.sql`) asks for a street of the `addr:street` name (`getNearestNamedRoadPlaceId`), then for
/// a place of the `addr:place` name (`getNearestNamedPlacePlaceId`, `partition-functions.sql`: a named place of
/// address rank 16-25 whose centroid lies within 0.04° of the object's, in longitude and in latitude), and only then
/// does `find_parent_for_poi` (`placex_triggers.sql`) take the nearest street. Such an object's address has no road.
/// Bishkek's apartment blocks on `addr:street=Восток-5 микрорайон`, `addr:place=Восток-5 микрорайон`: no street has
/// that name, the microdistrict's place node and polygon do.
///
/// Places and asking objects wait in one sort on disk, by the hash of the name's match key (`NameKeyHash`, as the
/// parent streets compare names), each name's places before its objects, so memory holds one name's places at a time
/// and the numbers of the objects that found one (4 bytes each). The places are every name of a place node or polygon
/// and of an administrative boundary whose address rank in `settings/address-levels.json`'s default entry is 16-25
/// (the country's own entry is not known while the extract is read), at their representative point.
struct OSMAddressPlaceParents {
    static let reachDegrees = 0.04
    static let addressRanks = 16...25

    private struct Entry: BitwiseCopyable {
        var name: UInt64
        var number: UInt32
        var isObject: Bool
        var x: Double
        var y: Double

        /// The name's hash with its lowest bit saying whether an object asks: a name's places come before its objects.
        var key: UInt64 { name & ~1 | (isObject ? 1 : 0) }
    }

    private let entries: ExternalSorter<Entry>
    private let levels = NominatimAddressLevels.embedded

    /// Sort runs are created as `runPrefix` and a name.
    init(runPrefix: String) {
        entries = ExternalSorter(runPrefix: runPrefix, bufferBytes: 4 << 20) { $0.key }
    }

    /// A place node or polygon, or an administrative boundary, by each of its names when its address rank is 16-25.
    func add(_ feature: OSMFeature) throws {
        guard feature.kind == .place || feature.kind == .adminBoundary, feature.name != nil, let levels else { return }
        let ranks =
            feature.kind == .place
            ? feature.place.flatMap { levels.placeRanks(type: $0.type, countryCode: nil) }
            : feature.adminBoundary.flatMap { levels.boundaryRanks(adminLevel: $0.adminLevel, countryCode: nil) }
        guard let ranks, Self.addressRanks.contains(ranks.address) else { return }
        let point = feature.representativePoint
        var added: Set<UInt64> = []
        for name in [feature.name].compactMap(\.self) + feature.names.values.sorted() {
            let key = OSMParentStreets.matchKey(name)
            guard !key.isEmpty, added.insert(NameKeyHash.of(key)).inserted else { continue }
            try entries.append(Entry(name: NameKeyHash.of(key), number: 0, isObject: false, x: point.x, y: point.y))
        }
    }

    /// The object numbered `object`, at `point`, has an `addr:street` and names its place `place`.
    func ask(object: UInt32, place: String, at point: Point2D) throws {
        let key = OSMParentStreets.matchKey(place)
        guard !key.isEmpty else { return }
        try entries.append(Entry(name: NameKeyHash.of(key), number: object, isObject: true, x: point.x, y: point.y))
    }

    /// The numbers of the objects that asked and have a place of their `addr:place` name in reach, in order.
    func objectsNamingAPlace() throws -> [UInt32] {
        var found: [UInt32] = []
        var group: UInt64?
        var places: [Entry] = []
        try entries.drain { entry in
            if entry.key >> 1 != group {
                group = entry.key >> 1
                places.removeAll(keepingCapacity: true)
            }
            guard entry.isObject else { return places.append(entry) }
            let inReach = places.contains {
                $0.name == entry.name && abs($0.x - entry.x) <= Self.reachDegrees && abs($0.y - entry.y) <= Self.reachDegrees
            }
            if inReach { found.append(entry.number) }
        }
        return found.sorted()
    }
}
