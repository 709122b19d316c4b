import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// The objects whose `addr:place` names a place near, which Nominatim 5.3 parents by that place unless their
/// `addr:street` names a street near (GPL-2.0; its rules, not its code): `find_parent_for_address`
/// (`lib-sql/functions/utils.sql`) asks for a street of the `addr:street` name (`getNearestNamedRoadPlaceId`), then for
/// a place of the `addr:place` name (`getNearestNamedPlacePlaceId`, `partition-functions.sql`: of the named places of
/// address rank 16-25 whose centroid lies within 0.04° of the object's, in longitude and in latitude, the nearest), and
/// only then does `find_parent_for_poi` (`placex_triggers.sql`) take the nearest street. Such an object's address has no
/// road. Bishkek's apartment blocks on `addr:street=Восток-5 микрорайон`, `addr:place=Восток-5 микрорайон`: no street
/// has that name, the microdistrict's place node and polygon do.
///
/// Its address names the parent place too, whatever holds the object: `complete_address_details`
/// (`nominatim_api/results.py`) adds a rank-30 object's parent as a line of its own (`AddressPlaceLine`), keyed as
/// `get_label_tag` (`nominatim_api/v1/classtypes.py`) keys it: a place by its `place` (or `landuse`) value, a boundary by
/// its own `place` tag, else by `ADMIN_LABELS` of half its rank (`city`, `city_district`, `suburb`, `neighbourhood`).
/// (`placex_update`'s `_unlisted_place`, the `addr:place` value as a `locality` line when it is none of the parent's names,
/// is left out: on Karlova Ves' and Poznań's objects numbered in places the extracts lack, Nominatim 5.3.3 answers none.)
///
/// Places and asking objects wait in one sort on disk, by the hash of the name's match key (`NameKeyHash`, as the
/// parent streets compare names), each name's places before its objects, so memory holds one name's places at a time
/// and the objects that found one. The places are every name of a place node, line or polygon and of an administrative
/// boundary whose address rank in `settings/address-levels.json`'s default entry is 16-25 (the country's own entry is not
/// known while the extract is read), at their representative point; their lines wait in memory (one a place).
struct OSMAddressPlaceParents {
    static let reachDegrees = 0.04
    static let addressRanks = 16...25

    private struct Entry: BitwiseCopyable {
        var name: UInt64
        /// The object's number, or the place's in `places`.
        var number: UInt32
        var isObject: Bool
        var x: Double
        var y: Double

        /// The name's hash with its lowest bit saying whether an object asks: a name's places come before its objects.
        var key: UInt64 { name & ~1 | (isObject ? 1 : 0) }
    }

    /// An object that found its place, and the parent's address line.
    struct Found {
        var object: UInt32
        var line: AddressPlaceLine
    }

    private let entries: ExternalSorter<Entry>
    /// The places' lines, by the number their entries carry.
    private var places: [AddressPlaceLine] = []
    private let levels = NominatimAddressLevels.embedded

    /// Sort runs are created as `runPrefix` and a name.
    init(runPrefix: String) {
        entries = ExternalSorter(runPrefix: runPrefix, bufferBytes: 4 << 20) { $0.key }
    }

    /// A place node, line or polygon, or an administrative boundary, by each of its names when its address rank is 16-25.
    mutating func add(_ feature: OSMFeature) throws {
        guard feature.kind == .place || feature.kind == .adminBoundary, let name = feature.name, let levels else { return }
        let ranks =
            feature.kind == .place
            // A named landuse area by its own key: `residential` is 24 (`getNearestNamedPlacePlaceId` takes 16-25).
            ? feature.place.flatMap { levels.ranks(key: $0.key, value: $0.type, countryCode: nil) }
            : feature.adminBoundary.flatMap { levels.boundaryRanks(adminLevel: $0.adminLevel, countryCode: nil) }
        guard let ranks, Self.addressRanks.contains(ranks.address) else { return }
        let point = feature.representativePoint
        let names = [name] + feature.names.values.sorted()
        let number = UInt32(places.count)
        places.append(AddressPlaceLine(rank: ranks.address, key: Self.labelKey(feature, rank: ranks.address), name: name))
        var added: Set<UInt64> = []
        for name in names {
            let key = OSMParentStreets.matchKey(name)
            guard !key.isEmpty, added.insert(NameKeyHash.of(key)).inserted else { continue }
            try entries.append(Entry(name: NameKeyHash.of(key), number: number, isObject: false, x: point.x, y: point.y))
        }
    }

    /// How Nominatim's answer keys the place (`get_label_tag`): its `place` or `landuse` value, a boundary's own `place`,
    /// else the label of its address rank (`NominatimAdminLabel`: 16 city, 18 city_district, 20 suburb, 22 neighbourhood,
    /// 24 city_block). A boundary linked to a place node is keyed by the node's type there (`linked_place`), which is not
    /// known while the extract is read, nor is its country: the default labels.
    static func labelKey(_ feature: OSMFeature, rank: Int) -> String {
        if let place = feature.place { return place.type.lowercased().replacingOccurrences(of: " ", with: "_") }
        return NominatimAdminLabel.key(addressRank: rank, countryCode: nil)
    }

    /// The object numbered `object`, at `point`, names its place `place` (`addr:place`).
    func ask(object: UInt32, place: String, at point: Point2D) throws {
        let key = OSMParentStreets.matchKey(place)
        guard !key.isEmpty else { return }
        try entries.append(Entry(name: NameKeyHash.of(key), number: object, isObject: true, x: point.x, y: point.y))
    }

    /// The objects that asked and have a place of their `addr:place` name in reach, in order, each with its parent.
    func objectsNamingAPlace() throws -> [Found] {
        var found: [Found] = []
        var group: UInt64?
        var candidates: [Entry] = []
        try entries.drain { entry in
            if entry.key >> 1 != group {
                group = entry.key >> 1
                candidates.removeAll(keepingCapacity: true)
            }
            guard entry.isObject else { return candidates.append(entry) }
            func distance(_ place: Entry) -> Double {
                let dx = place.x - entry.x, dy = place.y - entry.y
                return dx * dx + dy * dy
            }
            let nearest = candidates.filter {
                $0.name == entry.name && abs($0.x - entry.x) <= Self.reachDegrees && abs($0.y - entry.y) <= Self.reachDegrees
            }.min { distance($0) < distance($1) }
            guard let nearest else { return }
            found.append(Found(object: entry.number, line: places[Int(nearest.number)]))
        }
        return found.sorted { $0.object < $1.object }
    }
}
