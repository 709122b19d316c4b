import Travel411Core
import Travel411Store

/// A point of interest mapped as a node without an address of its own (a café, an ATM, a lift inside an office
/// block) carries the address of the building around it, as Nominatim 5.3 gives it one before indexing
/// (`placex_indexing_prepare`, lib-sql/functions/placex_triggers.sql): a rank-30 node whose `address` is empty
/// takes the address of a rank-30 polygon covering its centroid that has a house number, a street or a place.
/// Its answer then has the building's house number, the building's street as its parent and the building's
/// postcode (else that street's), and inside that building it answers in the building's place ("POI near closest
/// result area", `lookup_street_poi` in nominatim_api/reverse.py, takes a node of the area's house number). It is
/// still no address point (`IsAddressPoint` leaves inherited addresses out), so the address layer alone never takes
/// it; with POIs asked for too (the default), it is one of a nearest street's house numbers: the import decides which
/// nodes carry which building's number on which street once (`inheritedStreetNumber`), into the street's addresses
/// (`StreetAddresses`), so that an answer does not ask each node near the street for the building around it.
///
/// Nominatim takes the first such polygon its query finds; of several (a building inside a site), the smallest
/// here. A node whose only address tag is one travel411 does not keep (`addr:city`) has no address of its own
/// here either, where Nominatim's is not empty.
extension ReverseGeocoder {
    /// The building whose address the object `id` carries: nil unless it is a node without house number, street
    /// and postcode, inside a building or area that has a house number or a street.
    func inheritedAddress(of id: UInt32, objects: PlacesLookup.LineLevel) -> UInt32? {
        withObjectCovers { Self.inheritedAddress(of: id, objects: objects, covers: $0) } ?? nil
    }

    /// `inheritedAddress(of:objects:)` with the buildings' covers given (`ObjectCovers`), as the import has them.
    static func inheritedAddress(of id: UInt32, objects: PlacesLookup.LineLevel, covers: StreetTiles) -> UInt32? {
        let fields = PlacesSchema.ObjectField.self
        for field in ownAddressFields {
            guard objects.names.bytes(Int(id), field.rawValue)?.isEmpty ?? true else { return nil }
        }
        guard let centre = centre(of: id, objects: objects) else { return nil }
        // Of any size: `placex_indexing_prepare` asks `ST_Covers` of every rank-30 polygon, with no reach (a bench
        // on the 1 km campus of Lima's university, a relation with `addr:housenumber=375`, answers 375), and
        // `ST_Covers` holds the outline too: a plaque mapped as a node of the building's wall (Minsk's Valadarskaha 2).
        return smallestArea(holding: centre, objects: objects, covers: covers, inReach: false, orOutline: true) { building in
            !(objects.names.bytes(Int(building), fields.houseNumber.rawValue)?.isEmpty ?? true)
                || !(objects.names.bytes(Int(building), fields.street.rawValue)?.isEmpty ?? true)
                || isPlaceAddress(building, objects: objects)
        }
    }

    /// What the import writes as the parent street of an object numbered in a place and on no street
    /// (`addr:place`, no `addr:street`), which has none (`ObjectNearestStreets.placeAddress`).
    package static let placeAddressParent = "place"

    /// Whether the object is numbered in a place and on no street: Nominatim 5.3 parents it, and a node inheriting
    /// its address, by no street (`find_parent_for_poi`, lib-sql/functions/placex_triggers.sql, `is_place_addr`).
    static func isPlaceAddress(_ object: UInt32, objects: PlacesLookup.LineLevel) -> Bool {
        placeAddressParentBytes.withUnsafeBufferPointer {
            objects.names.field(Int(object), PlacesSchema.ObjectField.parent.rawValue, equals: $0)
        }
    }
    private static let placeAddressParentBytes = Array(placeAddressParent.utf8)

    /// The street of a node that carries `building`'s address: Nominatim parents the node itself by the inherited
    /// `addr:street` (`find_parent_for_poi`), so of the ways named as the building's street, the one nearest the node
    /// within 0.015° (`getNearestNamedRoadPlaceId`), which on a street of many ways need not be the building's. A
    /// building without `addr:street`, or whose `addr:street` names no street near (its parent is then only its nearest
    /// street), gives none: the node has its own nearest street (`getNearestRoadPlaceId` from the node, not from the
    /// building's box: Singapore's shops in Marina Square, `addr:street=Raffles Boulevard`, have the footway beside
    /// them, `Pedestrian Mall`, where the mall has Raffles Avenue).
    static func inheritedParent(of node: UInt32, building: UInt32, objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel)
        -> UInt32?
    {
        let streetField = PlacesSchema.ObjectField.street.rawValue
        if isPlaceAddress(building, objects: objects) { return nil }
        guard !(objects.names.bytes(Int(building), streetField)?.isEmpty ?? true), let parent = parent(of: building, objects: objects)
        else { return parentStreet(of: node, objects: objects) }
        guard let centre = centre(of: node, objects: objects), let name = streets.names.bytes(Int(parent), 0), !name.isEmpty else {
            return parent
        }
        let namesake = streets.index.nearestInDegrees(
            to: centre, radiusDegrees: namedStreetDegrees, accept: { streets.names.field(Int($0), 0, equals: name) })
        return namesake?.id ?? parent
    }

    /// The street on which the object `id` carries a building's house number, and that building: a POI node (a node
    /// of class `building` or `place` is none) without an address of its own inside a building with a house number,
    /// parented as Nominatim parents it (`inheritedParent`). Nominatim sets such a node's `placex.housenumber` from the
    /// address it inherits (`placex_indexing_prepare`, then `token_normalized_housenumber` in `placex_update`,
    /// lib-sql/functions/placex_triggers.sql), and "Housenumber to closest result" (`lookup_street_poi`,
    /// nominatim_api/reverse.py) asks its candidates, the address and POI layers', only for a house number and that
    /// parent, not to be address points. Decided by the import for every object (`StreetAddresses`); nil for the rest.
    /// `isHouseNumber`: whether the building's non-empty `addr:housenumber` is a number at all (the import's rule; a
    /// name-like one leaves Nominatim's place no `housenumber` to inherit).
    package static func inheritedStreetNumber(
        of id: UInt32, objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel, covers: StreetTiles,
        isHouseNumber: (UnsafeBufferPointer<UInt8>) -> Bool
    ) -> (street: UInt32, building: UInt32)? {
        let categoryField = PlacesSchema.ObjectField.category.rawValue, numberField = PlacesSchema.ObjectField.houseNumber.rawValue
        guard let category = objects.names.bytes(Int(id), categoryField), !category.isEmpty,
            !category.starts(with: "building=".utf8), !category.starts(with: "place=".utf8),
            let building = inheritedAddress(of: id, objects: objects, covers: covers),
            let number = objects.names.bytes(Int(building), numberField), !number.isEmpty, isHouseNumber(number),
            let street = inheritedParent(of: id, building: building, objects: objects, streets: streets)
        else { return nil }
        return (street, building)
    }

    /// The fields of an object that, any one of them set, make it no point without an address: its outline's extent
    /// and its own address. Built once: this is asked for every answering object.
    private static let ownAddressFields: [PlacesSchema.ObjectField] = [.extent, .houseNumber, .street, .postcode]

    /// How far from an object the streets its `addr:street` names are looked for (`getNearestNamedRoadPlaceId`).
    static let namedStreetDegrees = 0.015
}
