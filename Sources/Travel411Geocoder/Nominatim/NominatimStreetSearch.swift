import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// How a database imported from OpenStreetMap answers the street-level fields: as Nominatim 5.3's reverse
/// search does (docs/osm.md, "How Nominatim decides"), so that the same extract gives the same road, house
/// number and postcode on both.
///
/// - Candidates within 0.007° of the point (Nominatim's 0.006 plus its 0.001 of fuzziness): the streets of
///   the zoom's ranks, named or not, and at zoom 18 the address points and points of interest, named or not.
/// - Distances in degrees, longitude and latitude alike, as PostGIS measures on EPSG:4326: at 60° N this
///   favours what lies north or south of the point. Measured on 300 Helsinki points, nearest in degrees gives
///   Nominatim's street at 297, nearest in metres at 256. docs/osm.md says why travel411 follows it here.
/// - An address point or POI carries its parent street's name (the way its `addr:street` names whose midpoint
///   is nearest within 0.015°, decided at import by `OSMParentStreets`; else the nearest named street) and,
///   without a postcode of its own, that street's postcode (`OSMStreetPostcodes`).
/// - When a street is nearest at zoom 18, an address of that way whose centre lies within 0.001° of the
///   street's point nearest to the query answers instead, with its house number; so does a POI node carrying a
///   building's house number on that way.
extension ReverseGeocoder {
    static let nominatimSearchDegrees = 0.007
    static let streetAddressDegrees = 0.001
    static let objectFirstDegrees = 0.001
    /// How far an interpolation line answers when nothing nearer did (`lookup_street_poi`'s first `distance`).
    static let interpolationDegrees = 0.006
    /// A node this near an area's outline lies on it: a vertex of it is at 0, whatever the rounding of a segment between.
    static let onOutlineDegrees = 1e-9

    /// A search's reach just beyond `degrees`, so that what lies at that distance is found whatever the rounding
    /// of its square root; never beyond Nominatim's.
    static func justBeyond(_ degrees: Double) -> Double { min(degrees * (1 + 1e-9) + 1e-12, nominatimSearchDegrees) }

    func decideAsNominatim(
        _ record: inout PlacemarkRecord, objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel, maximumRank: Int,
        layers: ReverseLayers = .standard
    ) {
        let point = record.location
        guard maximumRank >= 26 else { return }
        // The objects the layers let answer: every one by default (nil: no closure made, no test on the searches' path).
        let accepted = layers.isSuperset(of: .standard) ? nil : Self.objectFilter(layers, objects: objects)
        // Inside a building or area (a mall, a pitch, a pier) its distance is 0 and it answers whatever street is
        // near, so neither nearest search runs; a POI node inside it answers instead when it has the area's house
        // number or the area has none (Nominatim's). With NearestSearch.consider's box test, that saves a central
        // Helsinki batch 12 % of its CPU.
        // A pedestrian square holding the point is a street at distance 0 too (`streetArea`); of it and an area, the
        // smaller answers (`isSmaller`).
        let square = layers.contains(.address) ? streetArea(holding: point, streets: streets, maximumRank: maximumRank) : nil
        var object =
            maximumRank >= 30
            ? objectHolding(point, unlessSmaller: square?.id, objects: objects, streets: streets, accepting: accepted) : nil
        // Only a street as near as the object can answer (a tie goes to the object), and only an object as near as
        // the street: in a town an object lies within 0.001°, and the street search then stops just beyond it;
        // elsewhere the street is looked for first, and the object search stops just beyond that.
        if object == nil, square == nil, maximumRank >= 30 {
            object = Self.nearestObject(to: point, radiusDegrees: Self.objectFirstDegrees, objects: objects, accept: accepted)
        }
        let street =
            object?.degrees == 0 || !layers.contains(.address)
            ? nil
            : square ?? Self.nearestStreet(to: point, within: object?.degrees, streets: streets, maximumRank: maximumRank)
        if object == nil, maximumRank >= 30 {
            object = Self.nearestObject(
                to: point, radiusDegrees: street.map { Self.justBeyond($0.degrees) } ?? Self.nominatimSearchDegrees, objects: objects,
                accept: accepted)
        }
        // Where an interpolation line may answer instead (`lookup_street_poi`): as near as the object, else within 0.001°
        // of a street answering and on it, or 0.001° beyond that street's house number (`distance`, `parent_street`).
        var lineReach: (degrees: Double, parent: UInt32?) = (Self.interpolationDegrees, nil)
        if let object, street.map({ object.degrees <= $0.degrees }) ?? true {
            lineReach.degrees = object.degrees
            record.object = Int32(object.id)
            // A POI node without an address of its own carries the building's around it, street included.
            let building = inheritedAddress(of: object.id, objects: objects)
            if let building { record.addressObject = Int32(building) }
            let parent =
                building.map { Self.inheritedParent(of: object.id, building: $0, objects: objects, streets: streets) }
                ?? Self.parentStreet(of: object.id, objects: objects)
            if let parent { record.street = Int32(parent) }
        } else if let street {
            record.street = Int32(street.id)
            record.streetAnswers = true
            record.streetPoint = street.closest
            lineReach = (Self.streetAddressDegrees, street.id)
            if maximumRank >= 30,
                let address = houseNumber(
                    on: street, of: point, objects: objects, poisToo: layers.contains(.poi), accepting: accepted)
            {
                // The number's distance, searched again, only where a line may use it: most databases have none.
                if withInterpolations({ _ in true }) ?? false {
                    lineReach.degrees =
                        objects.index.nearestInDegrees(to: point, radiusDegrees: Self.nominatimSearchDegrees, onlyLine: address.object)?
                        .degrees ?? 0
                }
                record.object = Int32(address.object)
                if let building = address.building { record.addressObject = Int32(building) }
                record.streetAnswers = false
            }
        }
        let fromLine = answerFromInterpolationLine(
            &record, within: lineReach.degrees, parent: lineReach.parent, maximumRank: maximumRank, layers: layers)
        if !fromLine, record.object < 0, record.street < 0 {
            // No street or building within reach: Nominatim answers with the area or place node its area search finds
            // (`lookup_area`, nominatim_api/reverse.py 5.3), whose postcode is its own (`placex.postcode`): a suburb's or
            // municipality's (`OSMAreaPostcodes`), read once the suburb node is chosen; none when only the country is
            // left (`placex_update`, lib-sql/functions/placex_triggers.sql, computes none at rank 8 and coarser).
            // Amsterdam's points beyond every street answered the nearest postcode where Nominatim gives none.
            record.postcodeFromAnsweringArea = true
            return
        }
        settleObjectPostcode(&record, objects: objects)
    }

    /// The building or area holding the point, or the POI node inside it that answers instead, at distance 0; nil when
    /// none holds it or `square`, holding it too, is smaller (`isSmaller`).
    private func objectHolding(
        _ point: Coordinate, unlessSmaller square: UInt32?, objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel,
        accepting accepted: ((UInt32) -> Bool)?
    ) -> (id: UInt32, degrees: Double, closest: Coordinate)? {
        guard let area = smallestArea(holding: point, objects: objects, accepting: accepted),
            !(square.map { Self.isSmaller(square: $0, than: area, streets: streets, objects: objects) } ?? false)
        else { return nil }
        return (node(inside: area, near: point, objects: objects, accepting: accepted) ?? area, 0, point)
    }

    /// The nearest street of the zoom's ranks within Nominatim's reach, or just beyond `within` degrees (an object's).
    private static func nearestStreet(
        to point: Coordinate, within degrees: Double?, streets: PlacesLookup.LineLevel, maximumRank: Int
    ) -> (id: UInt32, degrees: Double, closest: Coordinate)? {
        let rankField = PlacesSchema.StreetField.rank.rawValue
        return streets.index.nearestInDegrees(
            to: point, radiusDegrees: degrees.map(justBeyond) ?? nominatimSearchDegrees,
            accept: maximumRank >= 27 ? nil : { id in !(streets.names.bytes(Int(id), rankField).map(isMinorRank) ?? false) })
    }

    /// The postcode of the answer an object or street gives: the object's own, else its street's, else for an object on
    /// no street the nearest of its country.
    private func settleObjectPostcode(_ record: inout PlacemarkRecord, objects: PlacesLookup.LineLevel) {
        let addressObject = record.addressObject >= 0 ? record.addressObject : record.object
        let ownPostcode =
            addressObject >= 0 && !(objects.names.bytes(Int(addressObject), PlacesSchema.ObjectField.postcode.rawValue)?.isEmpty ?? true)
        if !ownPostcode, record.street >= 0, !(withStreetPostcodes { $0.bytes(Int(record.street), 0)?.isEmpty ?? true } ?? true) {
            record.streetPostcode = true
        }
        // An object on no street (numbered in a place) has its country's postcode nearest its centre: `placex_update`
        // (lib-sql/functions/placex_triggers.sql) passes `get_nearest_postcode` (lib-sql/functions/utils.sql) the
        // centroid of any place above address rank 25, a building's area too; only areas of rank 25 and coarser take
        // the one postcode inside them. Bratislava's dormitory (a multipolygon with `addr:place`) answers 841 07 so.
        // Nearest in degrees (`ST_Distance` of SRID 4326 points), among the points whose box holds the centre, as for
        // a place node (`postcodeOfPlaceNode`): Poznań's house 3 of Osiedle Wichrowe Wzgórze is 61-655 (0.0016°,
        // 157 m), not 61-624 (0.0021°, 145 m).
        if !ownPostcode, record.street < 0, record.object >= 0, let centre = Self.centre(of: UInt32(record.object), objects: objects) {
            record.postcode = postcodeOfPlaceNode(at: centre, record: record, pointsOfTheCountry: true) ?? -1
        }
    }

    /// Which objects the layers let answer: with only addresses asked for, those with a house number (Nominatim's
    /// address points); with only POIs, those tagged as one, not as a building or a place (Nominatim's rank-30
    /// search leaves the classes `building` and `place` out).
    private static func objectFilter(_ layers: ReverseLayers, objects: PlacesLookup.LineLevel) -> (UInt32) -> Bool {
        let numberField = PlacesSchema.ObjectField.houseNumber.rawValue, categoryField = PlacesSchema.ObjectField.category.rawValue
        let addresses = layers.contains(.address), pois = layers.contains(.poi)
        return { id in
            if addresses, !(objects.names.bytes(Int(id), numberField)?.isEmpty ?? true) { return true }
            guard pois, let category = objects.names.bytes(Int(id), categoryField), !category.isEmpty else { return false }
            return !category.starts(with: "building=".utf8) && !category.starts(with: "place=".utf8)
        }
    }

    /// The smallest building or area whose outline holds the point, of those whose centroid is within the search's
    /// reach (`centroidInReach`; and that `accepting` takes, when given).
    func smallestArea(
        holding point: Coordinate, objects: PlacesLookup.LineLevel, accepting: ((UInt32) -> Bool)? = nil
    ) -> UInt32? {
        withObjectCovers { Self.smallestArea(holding: point, objects: objects, covers: $0, accepting: accepting) } ?? nil
    }

    /// `smallestArea(holding:objects:accepting:)` with the buildings' covers given (`ObjectCovers`). `inReach`: only
    /// the areas whose centroid lies within Nominatim's reach of the point; false for the area whose address a node
    /// inherits (`inheritedAddress`), which any area may give. `orOutline`: an area whose outline passes through the
    /// point holds it too (`ST_Covers`).
    static func smallestArea(
        holding point: Coordinate, objects: PlacesLookup.LineLevel, covers: StreetTiles, inReach: Bool = true,
        orOutline: Bool = false, accepting: ((UInt32) -> Bool)? = nil
    ) -> UInt32? {
        // Only the outlines whose extent holds the point (an import writes the covers with the objects), the ray as
        // far as the farthest of them.
        guard var (lines, lastX) = ObjectCovers.candidates(at: point, covers: covers) else { return nil }
        if inReach {
            lines = lines.filter { centroidInReach(of: $0, from: point, objects: objects) }
            guard !lines.isEmpty else { return nil }
            lastX = lines.compactMap { extent(of: $0, objects: objects)?.maxX }.max().map { $0 + ObjectCovers.slackDegrees } ?? lastX
        }
        let reach = max(nominatimSearchDegrees, lastX - point.longitude + ObjectCovers.slackDegrees)
        var holding: [(id: UInt32, extent: BoundingBox)] = []
        for id in objects.index.outlinesHolding(point, reachDegrees: reach, among: lines, scanningTo: lastX) {
            guard let extent = extent(of: id, objects: objects), accepting?(id) ?? true else { continue }
            holding.append((id, extent))
        }
        if orOutline {
            // Only the few outlines whose extent holds the point, each measured once.
            for id in lines where !holding.contains(where: { $0.id == id }) {
                guard let extent = extent(of: id, objects: objects), accepting?(id) ?? true,
                    let squared = objects.index.squaredDegrees(
                        from: point, toLine: id, within: onOutlineDegrees, clip: widenedPastRounding(extent)),
                    squared <= onOutlineDegrees * onOutlineDegrees
                else { continue }
                holding.append((id, extent))
            }
        }
        return smallestPolygon(holding, objects: objects)
    }

    /// The POI node nearest the point within 0.001° that lies inside the area's outline, with the area's house number
    /// or any when the area has none: Nominatim goes through its candidates by distance and takes the first node whose
    /// centroid the area covers ("POI near closest result area", `lookup_street_poi`, nominatim_api/reverse.py 5.3:
    /// `best_inside`, `ST_CoveredBy` of the smallest area at distance 0), passing over nearer nodes outside it: in
    /// Singapore's Theatres, the toilets inside rather than a kiosk beyond the wall.
    private func node(
        inside area: UInt32, near point: Coordinate, objects: PlacesLookup.LineLevel, accepting: ((UInt32) -> Bool)? = nil
    ) -> UInt32? {
        guard let extent = Self.extent(of: area, objects: objects) else { return nil }
        let numberField = PlacesSchema.ObjectField.houseNumber.rawValue, extentField = PlacesSchema.ObjectField.extent.rawValue
        // Compared in place, not copied into arrays per candidate.
        let areaNumber = objects.names.bytes(Int(area), numberField) ?? UnsafeBufferPointer(start: nil, count: 0)
        // Inside the area's outline or on it (`ST_CoveredBy`: a shop's entrance node on the building's wall is covered),
        // its extent asked first; the ray as long as the area reaches east of the node.
        func isInside(_ id: UInt32) -> Bool {
            guard let centre = Self.centre(of: id, objects: objects), extent.contains(x: centre.longitude, y: centre.latitude) else {
                return false
            }
            let clip = Self.widenedPastRounding(extent)
            if let squared = objects.index.squaredDegrees(from: centre, toLine: area, within: Self.onOutlineDegrees, clip: clip),
                squared <= Self.onOutlineDegrees * Self.onOutlineDegrees
            {
                return true
            }
            return objects.index.outlinesHolding(
                centre, reachDegrees: extent.maxX - centre.longitude + Self.onOutlineDegrees, among: [area], scanningTo: extent.maxX
            ).contains(area)
        }
        // Points only: asking the records of every building around whether it is one cost 5 % of a zoom-18 Helsinki
        // batch's CPU (its page read for each). A one-segment run of no length that is not a point is still refused.
        let found = objects.index.nearestInDegrees(
            to: point, radiusDegrees: Self.streetAddressDegrees, pointsOnly: true,
            accept: { id in
                guard objects.names.bytes(Int(id), extentField)?.isEmpty ?? true, accepting?(id) ?? true else { return false }
                // Without an address, it has the number of the building it inherits its address from.
                let hasNumber =
                    areaNumber.isEmpty || objects.names.field(Int(id), numberField, equals: areaNumber)
                    || self.inheritedAddress(of: id, objects: objects).map { objects.names.field(Int($0), numberField, equals: areaNumber) }
                        ?? false
                return hasNumber && isInside(id)
            })
        return found?.id
    }

    /// The OpenStreetMap element of an area level's polygon, named as Nominatim names a municipality or a
    /// place (`boundary`/`administrative`, `place`/`suburb`), at its centre (`OSMLevelMapping`), else at the
    /// query's `location`.
    func areaFeature(_ level: PlacesSchema.AreaLevel, _ feature: Int32, rank: Int, location: Coordinate) -> AnsweringFeature? {
        areaElement(level, feature, rank: rank).map { found in
            var answer = found.feature
            if !found.hasCentre { answer.location = location }
            return answer
        }
    }

    /// An area level's polygon's element, read once and kept (`areaFeature` places it).
    func areaElement(_ level: PlacesSchema.AreaLevel, _ feature: Int32, rank: Int) -> AreaElement? {
        guard feature >= 0 else { return nil }
        let key = Int64(level.ordinal) << 32 | Int64(feature)
        if let known = areaElements.withLock({ $0[key] }) { return known }
        let found = makeAreaFeature(level, feature, rank: rank)
        areaElements.withLock { $0[key] = .some(found) }
        return found
    }

    /// An area's element as read once: without a centre of its own, each answer puts it at the query's point.
    struct AreaElement: Sendable {
        var feature: AnsweringFeature
        var hasCentre: Bool
        /// A municipality boundary's search rank, its `admin_level`'s in its country (`CityBoundaryZoomRule`).
        var searchRank: Int? = nil
    }

    private func makeAreaFeature(_ level: PlacesSchema.AreaLevel, _ feature: Int32, rank: Int) -> AreaElement? {
        guard let element = lookup.osmElement(ofArea: level, feature: Int(feature)),
            let type = AnsweringFeature.ElementType(rawValue: element.type)
        else { return nil }
        func text(_ field: PlacesLookup.AreaText) -> String? {
            lookup.area(level).flatMap { area in
                let bytes = area.bytes(Int(feature), field)
                return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
            }
        }
        let centre = Self.point(lookup.area(level)?.bytes(Int(feature), .centre))
        // A node's box is Nominatim's for its kind of place (± 0.16° for a city, 0.02° for a suburb).
        let nodeBox = centre.flatMap { centre in
            NominatimPlaceKinds.nodeExtent(category: element.category, type: element.value).map { BoundingBox(around: centre, degrees: $0) }
        }
        let answer = AnsweringFeature(
            elementType: type, elementID: element.id, category: element.category, type: element.value, name: text(.name),
            // A capital node ranks one above its kind (Helsinki 15).
            rank: type == .node
                ? (NominatimPlaceKinds.nodeRank(type: element.value, isCapital: element.isCapital) ?? rank)
                : level == .suburb
                    ? suburbPolygonRank(category: element.category, type: element.value, adminLevel: element.adminLevel, centre: centre)
                        ?? rank : rank,
            location: centre ?? Coordinate(latitude: 0, longitude: 0), extent: element.extent ?? nodeBox, postcode: text(.postcode),
            addressKey: text(.placeType), ownKey: element.ownPlace,
            subdivision: element.subdivisionCode.flatMap { code in
                element.adminLevel.map { AnsweringFeature.Subdivision(code: code, adminLevel: $0) }
            })
        let searchRank =
            level == .city && type != .node ? element.adminLevel.flatMap { suburbBoundaryRank(adminLevel: $0, centre: centre) } : nil
        return AreaElement(feature: answer, hasCentre: centre != nil, searchRank: searchRank)
    }

    /// The OpenStreetMap object that answers the record: its address point or POI, else its street.
    func answeringFeature(of record: PlacemarkRecord) -> AnsweringFeature? {
        // Where the database has objects, the object's record answers (nothing when it names no element).
        if record.object >= 0,
            let found = withObjects({ objects -> AnsweringFeature? in answeringFeature(object: UInt32(record.object), record, objects) })
        {
            return found
        }
        guard record.streetAnswers, record.street >= 0, let streets = lookup.streetLevel() else { return nil }
        let id = Int(record.street)
        func text(_ field: PlacesSchema.StreetField) -> String? {
            streets.names.bytes(id, field.rawValue).flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        }
        guard let (type, osmID) = text(.element).flatMap(AnsweringFeature.element) else { return nil }
        return AnsweringFeature(
            elementType: type, elementID: osmID, category: "highway", type: text(.kind) ?? "road", name: text(.name),
            // To 7 decimals, as OpenStreetMap stores coordinates and Nominatim prints them.
            rank: text(.rank).flatMap { Int($0) } ?? 26,
            // An area (a pedestrian square) answers at its centre, as Nominatim's does; a line at its point nearest.
            location: Self.point(streets.names.bytes(id, PlacesSchema.StreetField.centre.rawValue))
                ?? Coordinate(
                    latitude: (record.streetPoint.latitude * 1e7).rounded() / 1e7,
                    longitude: (record.streetPoint.longitude * 1e7).rounded() / 1e7),
            extent: Self.extent(streets.names.bytes(id, PlacesSchema.StreetField.extent.rawValue)))
    }

    /// The address point or POI `id` as its record names it.
    private func answeringFeature(object id: UInt32, _ record: PlacemarkRecord, _ objects: PlacesLookup.LineLevel) -> AnsweringFeature? {
        func text(_ field: PlacesSchema.ObjectField) -> String? {
            objects.names.bytes(Int(id), field.rawValue).flatMap { $0.isEmpty ? nil : String(decoding: $0, as: UTF8.self) }
        }
        guard let (type, osmID) = text(.element).flatMap(AnsweringFeature.element) else { return nil }
        // A bare address is Nominatim's place=house (a node) or the building it is on.
        let (category, value) =
            text(.category).flatMap(Self.keyAndValue) ?? (type == .node ? ("place", "house") : ("building", "yes"))
        return AnsweringFeature(
            elementType: type, elementID: osmID, category: category, type: value, name: text(.name), rank: 30,
            location: Self.centre(of: id, objects: objects) ?? record.location, extent: Self.extent(of: id, objects: objects))
    }

    /// A record's `key=value` tag, split at its first `=` (a missing value is `yes`); nil for one without a key.
    static func keyAndValue(_ tag: String) -> (String, String)? {
        guard let equals = tag.firstIndex(of: "=") else { return tag.isEmpty ? nil : (tag, "yes") }
        let key = tag[..<equals], value = tag[tag.index(after: equals)...]
        guard !key.isEmpty else { return nil }
        return (String(key), value.isEmpty ? "yes" : String(value))
    }

    /// `x y` as the records keep a point.
    package static func point(_ bytes: UnsafeBufferPointer<UInt8>?) -> Coordinate? {
        var x = 0.0, y = 0.0
        guard numbers(in: bytes, { i, value in if i == 0 { x = value } else { y = value } }) == 2 else { return nil }
        return Coordinate(latitude: y, longitude: x)
    }

    /// `minX minY maxX maxY` as the records keep an extent.
    package static func extent(_ bytes: UnsafeBufferPointer<UInt8>?) -> BoundingBox? {
        var values = (0.0, 0.0, 0.0, 0.0)
        let count = numbers(in: bytes) { i, value in
            switch i {
            case 0: values.0 = value
            case 1: values.1 = value
            case 2: values.2 = value
            default: values.3 = value
            }
        }
        guard count == 4 else { return nil }
        return BoundingBox(minX: values.0, minY: values.1, maxX: values.2, maxY: values.3)
    }

    /// The space-separated decimals of a record's field, each given to `take` with its place, read from the
    /// bytes without making strings: a zoom-18 lookup reads a few per candidate, and splitting strings cost a
    /// zoom-18 Helsinki batch 15 % of its CPU. How many
    /// there were; nil when one is no number or there are more than 4.
    private static func numbers(in bytes: UnsafeBufferPointer<UInt8>?, _ take: (Int, Double) -> Void) -> Int? {
        guard let bytes, let base = bytes.baseAddress else { return 0 }
        var count = 0, start = 0
        for end in 0...bytes.count where end == bytes.count || bytes[end] == UInt8(ascii: " ") {
            if end > start {
                guard count < 4, let value = DecimalParser.parse(base, from: start, to: end) else { return nil }
                take(count, value)
                count += 1
            }
            start = end + 1
        }
        return count
    }

    /// The point that stands for an object: its node, or a point on its building's or area's surface.
    package static func centre(of object: UInt32, objects: PlacesLookup.LineLevel) -> Coordinate? {
        point(objects.names.bytes(Int(object), PlacesSchema.ObjectField.centre.rawValue))
    }

    static func extent(of object: UInt32, objects: PlacesLookup.LineLevel) -> BoundingBox? {
        extent(objects.names.bytes(Int(object), PlacesSchema.ObjectField.extent.rawValue))
    }

    /// A street's extent as the import recorded it; nil when it has none.
    package static func extent(ofStreet street: UInt32, streets: PlacesLookup.LineLevel) -> BoundingBox? {
        extent(streets.names.bytes(Int(street), PlacesSchema.StreetField.extent.rawValue))
    }

    static func isMinorRank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count == 2 && bytes[0] == UInt8(ascii: "2") && bytes[1] == UInt8(ascii: "7")
    }

    /// The street an address point or POI belongs to: the one the import found for its `addr:street`
    /// (`OSMParentStreets`), else the nearest named street (`ObjectNearestStreets`).
    static func parentStreet(of object: UInt32, objects: PlacesLookup.LineLevel) -> UInt32? {
        parent(of: object, objects: objects)
            ?? number(objects.names.bytes(Int(object), PlacesSchema.ObjectField.nearestStreet.rawValue))
    }

    /// What answers with a house number beside the nearest street (`lookup_street_poi`, nominatim_api/reverse.py,
    /// "Housenumber to closest result"): of the street's address points and, when POIs are asked for too, the POI
    /// nodes that carry a building's house number on it (`inheritedStreetNumber`), the one nearest the street's point;
    /// the building whose address a node carries.
    private func houseNumber(
        on street: (id: UInt32, degrees: Double, closest: Coordinate), of query: Coordinate, objects: PlacesLookup.LineLevel,
        poisToo: Bool, accepting: ((UInt32) -> Bool)?
    ) -> (object: UInt32, building: UInt32?)? {
        let reach = street.degrees + Self.streetAddressDegrees
        let found = addresses(
            on: street.id, near: street.closest, within: reach, of: query, objects: objects, nodes: poisToo, accepting: accepting)
        let own = found.own
        // A node answers only when nearer the street's point than that address, measured as a search of the nodes
        // within that distance (strictly nearer, its distance's square root squared) measured it.
        let radius = own.map { min(Self.streetAddressDegrees, $0.squared.squareRoot()) } ?? Self.streetAddressDegrees
        guard let node = found.node, node.squared < radius * radius else { return own.map { ($0.id, nil) } }
        let degrees = node.squared.squareRoot()
        guard own.map({ degrees * degrees < $0.squared }) ?? true else { return own.map { ($0.id, nil) } }
        return (node.id, node.building)
    }

    /// The street's nearest own address and nearest inheriting node (`StreetAddresses`), each with its squared distance.
    private struct NearestAddresses {
        var own: (id: UInt32, squared: Double)?
        var node: (id: UInt32, building: UInt32, squared: Double)?
    }

    /// The address point of `street` with a house number nearest to the street's point `near`, whose centre
    /// is within 0.001° of it, and which is itself within `reach` of the query (one of the candidates Nominatim
    /// looked at: no farther than the street plus 0.001°). Nearest by its centre, a building's too (`lookup_street_poi`,
    /// nominatim_api/reverse.py: `distance_from_best` is the distance from the candidate's centroid); ties go to the
    /// lower object number. With `nodes`, the same of the POI nodes carrying a building's number on the street (those
    /// that `accepting` takes, when given), apart: such a node answers only when strictly nearer (`houseNumber`).
    ///
    /// The candidates are the street's own addresses (`StreetAddresses`) whose centre's longitude is within 0.001°:
    /// the same answer as a search of every building and POI within 0.001° filtered to the street's (which, refusing
    /// nearly all, measured every segment in reach: 9 % of a zoom-18 Helsinki batch's CPU).
    private func addresses(
        on street: UInt32, near point: Coordinate, within reach: Double, of query: Coordinate, objects: PlacesLookup.LineLevel,
        nodes: Bool, accepting: ((UInt32) -> Bool)?
    ) -> NearestAddresses {
        guard let field = withStreetAddresses({ $0.bytes(Int(street), 0) }) ?? nil, let addresses = StreetAddresses(field) else {
            return NearestAddresses()
        }
        let radius = Self.streetAddressDegrees
        var best: (squared: Double, id: UInt32)?
        var node: (squared: Double, id: UInt32, building: UInt32)?
        addresses.forEach(nearLongitude: point.longitude, reach: radius) { address in
            let id = address.object
            if let building = address.building {
                // A node's centre is its point in the objects' tiles, as a search of them measures it.
                guard nodes, let centre = address.centre, accepting?(id) ?? true else { return }
                let dx = centre.longitude - point.longitude, dy = centre.latitude - point.latitude
                let squared = dx * dx + dy * dy
                guard squared < radius * radius, node.map({ squared < $0.squared || (squared == $0.squared && id < $0.id) }) ?? true
                else { return }
                let qx = centre.longitude - query.longitude, qy = centre.latitude - query.latitude
                guard qx * qx + qy * qy <= reach * reach else { return }
                node = (squared, id, building)
                return
            }
            // Within 0.001° by its centre, and nearest by it: Nominatim's `distance_from_best` measures from the
            // candidate's centroid (a building's point on its surface), not its outline, so a big building whose wall
            // meets the street loses to a house number whose point is nearer.
            let squared: Double
            if let centre = address.centre {
                let dx = centre.longitude - point.longitude, dy = centre.latitude - point.latitude
                squared = dx * dx + dy * dy
                guard squared <= radius * radius else { return }
            } else {
                // No centre recorded: measured to its outline, read only where its extent is; the extent as recorded,
                // to 7 decimals, is widened past their rounding.
                let outline = address.extent.map(Self.widenedPastRounding)
                guard let measured = objects.index.squaredDegrees(from: point, toLine: id, within: radius, clip: outline) else { return }
                squared = measured
            }
            if let best, squared > best.squared || (squared == best.squared && id > best.id) { return }
            // One of Nominatim's candidates: within `reach` of the query, by its centre for a point, else by its outline.
            if let extent = address.extent {
                guard
                    objects.index.nearestInDegrees(to: query, radiusDegrees: reach, onlyLine: id, clip: Self.widenedPastRounding(extent))
                        != nil
                else { return }
            } else if let centre = address.centre {
                let qx = centre.longitude - query.longitude, qy = centre.latitude - query.latitude
                guard qx * qx + qy * qy <= reach * reach else { return }
            }
            best = (squared, id)
        }
        return NearestAddresses(own: best.map { ($0.id, $0.squared) }, node: node.map { ($0.id, $0.building, $0.squared) })
    }

    /// A recorded extent (7 decimals) widened so that it holds the outline it was rounded from.
    static func widenedPastRounding(_ box: BoundingBox) -> BoundingBox { box.widened(by: 1e-6) }

    /// The street the object's `addr:street` names (`OSMParentStreets`); nil when it names none near.
    static func parent(of object: UInt32, objects: PlacesLookup.LineLevel) -> UInt32? {
        number(objects.names.bytes(Int(object), PlacesSchema.ObjectField.parent.rawValue))
    }

    /// A record's field holding a record number (a parent street, a suburb's municipality), read from its bytes:
    /// asked per candidate and per point, where making a `String` to parse showed in a batch's profile. nil
    /// when empty, not all digits, or beyond `UInt32`.
    package static func number(_ bytes: UnsafeBufferPointer<UInt8>?) -> UInt32? {
        guard let bytes, !bytes.isEmpty else { return nil }
        var value: UInt32 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            let (times10, overflow) = value.multipliedReportingOverflow(by: 10)
            let (next, carry) = times10.addingReportingOverflow(UInt32(byte - UInt8(ascii: "0")))
            guard !overflow, !carry else { return nil }
            value = next
        }
        return value
    }
}
