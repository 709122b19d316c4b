import Foundation
import Travel411Core
import Travel411Store

/// Nominatim's answer by a place node finer than the suburbs (`FinePlaceNodes`) at zooms 14-15: its area search
/// orders the place nodes reaching the point by search rank, highest first, then by distance (`_lookup_area_address`,
/// `lookup_country`, `nominatim_api/reverse.py` 5.3), so a quarter (20) within 0.02° answers before a suburb node
/// (19) and a hamlet (20) only when nearer. Beyond every street at zoom 18 too (`takeFinePlaceNodeInArea`).
extension ReverseGeocoder {
    func chooseFinePlaceNodeAsNominatim(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard maximumRank >= 20, let fine = lookup.finePlaceNodes(), !fine.isEmpty else { return }
        let search = lookup.suburbNodeSearch()
        var suburbNode: PlaceNodeSearch.Node?
        // A suburb polygon of its own holding the point (a boundary, a place polygon) is the polygon Nominatim's area
        // search finds: only nodes inside it of a higher search rank answer before it (`_lookup_area_address`'s second
        // query: `rank_search >` the polygon's, `ST_Contains`). Istanbul's quarters Moda and Bahariye (20) inside
        // Caferağa Mahallesi (admin_level 8, search rank 16) at zoom 14.
        var polygonRank: Int?
        if record.suburbArea >= 0 {
            if let node = search?.node(ofFeature: record.suburbArea) {
                suburbNode = node
            } else {
                guard let rank = areaFeature(.suburb, record.suburbArea, rank: Self.suburbAreaRank, location: record.location)?.rank,
                    rank < maximumRank
                else { return }
                polygonRank = rank
            }
        }
        // A suburb node inside the polygon Nominatim's area search found (`suburbPolygonAsNominatim`): only nodes inside
        // that polygon answer instead (`ST_Contains` of `_lookup_area_address`'s second query).
        let nodePolygon = suburbNode.flatMap { node -> Int32? in
            guard node.boundaryBelow >= 0,
                let polygon = areaFeature(.suburb, node.boundaryBelow, rank: Self.suburbAreaRank, location: record.location),
                polygon.rank <= maximumRank
            else { return nil }
            return node.boundaryBelow
        }
        let area = polygonRank == nil ? nodePolygon : record.suburbArea
        let x = record.location.longitude, y = record.location.latitude
        for candidate in fine.candidates(x: x, y: y, maximumRank: maximumRank) {
            // The candidates come best first: once one ranks no higher than the polygon, none after it does.
            if let polygonRank, candidate.rank <= polygonRank { return }
            if let suburbNode {
                let dx = suburbNode.x - x, dy = suburbNode.y - y
                let suburbSquared = dx * dx + dy * dy
                // The candidates come best first: once the suburb node ranks before one, it ranks before the rest.
                if suburbNode.rank > candidate.rank || (suburbNode.rank == candidate.rank && suburbSquared <= candidate.distanceSquared) {
                    return
                }
            }
            guard let node = fine.node(candidate.index) else { continue }
            guard fine.linksKnown || !isLinked(node, search: search), sharesMunicipality(node, record.cityArea),
                area.map({ suburbPolygon($0, holdsX: node.x, y: node.y, search: search) }) ?? true
            else { continue }
            record.finePlace = candidate.index
            takeSuburbOfTheNode(node, &record)
            record.postcode = postcodeOfPlaceNode(at: Coordinate(latitude: node.y, longitude: node.x), record: record) ?? -1
            return
        }
    }

    /// A place node answers with its own address (`place_addressline` of the node, computed at its point by
    /// `insert_addresslines`): where no suburb polygon holds the query's point, the one holding the node names the
    /// answer's suburb. Istanbul's quarter Bahariye, answering points outside every mahalle at zoom 14, lies in
    /// Caferağa Mahallesi. A suburb of another municipality than the answer's is left out (`dropSuburbOfAnotherCity`).
    private func takeSuburbOfTheNode(_ node: FinePlaceNodes.Node, _ record: inout PlacemarkRecord) {
        guard record.suburbArea < 0 else { return }
        record.suburbArea = feature(.suburb, node.x, node.y)
        if record.suburbArea >= 0 { dropSuburbOfAnotherCity(&record) }
    }

    /// Whether a fine node may answer a point of `city`: inside the same municipality; or, where the point and the
    /// node both lie in town node areas cut to no boundary (travel411's, not Nominatim's polygons), anywhere: there
    /// Nominatim's area search finds no polygon and takes the place nodes of the country within their reach
    /// (`lookup_country`, `nominatim_api/reverse.py` 5.3). North of Bayreuth the dwelling Oberkeil (search rank 22,
    /// reach 0.02°) answers points of Waldau's and Sandreuth's areas before the hamlets there.
    private func sharesMunicipality(_ node: FinePlaceNodes.Node, _ city: Int32) -> Bool {
        let nodeCity = feature(.city, node.x, node.y)
        if city < 0 || nodeCity == city { return true }
        guard let towns = lookup.cityNodeSearch(), let town = towns.node(ofFeature: city), town.boundaryBelow < 0 else { return false }
        return nodeCity < 0 || (towns.node(ofFeature: nodeCity).map { $0.boundaryBelow < 0 } ?? false)
    }

    /// Whether a boundary took the node as its linked place (`find_linked_place`, placex_triggers.sql): Nominatim
    /// then answers with the boundary, never the node (`linked_place_id is null`). The import keys such a boundary by
    /// its node's type (`OSMLinkedPlaces`): London's Inner and Middle Temples, a `quarter`, around the node Temple.
    /// Only for a database imported before the import listed the linked nodes (`FinePlaceNodes.linksKnown`), which
    /// leaves them out of the fine nodes already.
    private func isLinked(_ node: FinePlaceNodes.Node, search: PlaceNodeSearch?) -> Bool {
        var holder = feature(.suburb, node.x, node.y)
        // A suburb node's area cut to a finer boundary lies over it (`OSMLevelMapping.withFinerBoundaries`).
        if holder >= 0, let below = search?.boundaryBelow(holder) { holder = below }
        guard holder >= 0, !(search?.isNodeArea(holder) ?? false),
            let type = lookup.area(.suburb)?.bytes(Int(holder), .placeType)
        else { return false }
        return type.elementsEqual(node.type.utf8)
    }

    /// The address area whose tagged postcode a place node answering carries (`AreaText.taggedPostcode`): the finest of
    /// its suburb, municipality, county and state that has one. Nominatim keeps in each area's `location_area` row only
    /// the postcode the area had before `get_nearest_postcode` ran (`placex_update`, lib-sql/functions/placex_triggers.sql,
    /// passes `add_location` its own `addr:postcode` or the one `insert_addresslines` inherited from its address areas),
    /// and a place inherits the finest such postcode of its address lines, else computes its own nearest point's
    /// (`postcodeOfPlaceNode`). An area's postcode computed from the one postcode point inside it (`OSMAreaPostcodes`)
    /// passes on nothing: Waslerheuberg, a locality in Triesenberg, is 9497 (nearest), not the 9495 computed for
    /// the village Wangerberg's area holding it. nil when no area has a tagged postcode.
    func taggedPostcodeArea(of record: PlacemarkRecord) -> (level: PlacesSchema.AreaLevel, feature: Int32)? {
        func tagged(_ level: PlacesSchema.AreaLevel, _ feature: Int32) -> Bool {
            feature >= 0 && !(withArea(level) { $0.bytes(Int(feature), .taggedPostcode).isEmpty } ?? true)
        }
        if tagged(.suburb, record.suburbArea) { return (.suburb, record.suburbArea) }
        if tagged(.city, record.cityArea) { return (.city, record.cityArea) }
        if tagged(.district, record.district) { return (.district, record.district) }
        return tagged(.admin, record.admin) ? (.admin, record.admin) : nil
    }

    /// The postcode Nominatim computes for a place node (`get_nearest_postcode`, `lib-sql/functions/utils.sql`): the
    /// postal_code polygon covering it (`postalPolygonPostcode`), else of the answered country's postcode points whose box (± the country's postcode `extent`, settings/country_settings.yaml)
    /// holds the node, the nearest in degrees (`ST_Distance` of SRID 4326 geometries), not in metres: around Malta's
    /// hamlet Iż-Żebbiegħ, MLH 2317 (0.0365°, 4.0 km north) before MST 9072 (0.0380°, 3.4 km east).
    /// `pointsOfTheCountry`: only points the answered country's polygon holds too (`isInCountry`), as for an object.
    func postcodeOfPlaceNode(at node: Coordinate, record: PlacemarkRecord, pointsOfTheCountry: Bool = false) -> Int32? {
        guard let settings = NominatimCountrySettings.embedded, record.country >= 0,
            let codeBytes = withArea(.country, { $0.bytes(Int(record.country), .code) }) ?? nil, !codeBytes.isEmpty
        else { return nil }
        let country = String(decoding: codeBytes, as: UTF8.self), countryBytes = Array(codeBytes)
        // The postal_code polygons covering the node first (`ORDER BY osm_id is null`), then the computed postcodes.
        if let postal = postalPolygonPostcode(at: node, countryCode: country, settings: settings) { return postal }
        let extent = settings.postcodeExtentMetres(countryCode: country)
        let halfHeight = extent / 111_320, radius = extent * 2.0.squareRoot()
        let query = PointIndex.Query(node)
        return withPoints(.postcode, near: node, within: radius) { points in
            var best: (degreesSquared: Double, id: UInt32)?
            // Every point within the radius is looked at (none is accepted), to keep the nearest in degrees.
            _ = points.index.nearest(to: query, maxChord: PointIndex.chord(metres: radius)) { id in
                guard let bytes = points.records.bytes(Int(id), 0), let at = points.records.coordinate(Int(id)) else { return false }
                let halfWidth = halfHeight / max(cos(at.latitude * .pi / 180), 0.01)
                guard abs(at.latitude - node.latitude) <= halfHeight, abs(at.longitude - node.longitude) <= halfWidth else { return false }
                let code = String(decoding: bytes, as: UTF8.self)
                guard settings.postcode(code, countryCode: country) == code,
                    !pointsOfTheCountry || self.isInCountry(at, countryCode: countryBytes)
                else { return false }
                let dx = at.longitude - node.longitude, dy = at.latitude - node.latitude
                let degreesSquared = dx * dx + dy * dy
                if best.map({ ($0.degreesSquared, $0.id) > (degreesSquared, id) }) ?? true { best = (degreesSquared, id) }
                return false
            }
            return best.map { Int32($0.id) }
        } ?? nil
    }
}

extension ReverseGeocoder {
    /// At street level where no street or object answers, Nominatim 5.3 searches areas (`lookup` then
    /// `_lookup_area_address`, `nominatim_api/reverse.py`): the finest polygon holding the point, then the place nodes
    /// inside that polygon of a finer search rank within their reach, the finest rank first, then the nearest. A
    /// locality (25) within 0.02° so answers before a village (19): on Andorra's mountainsides "pas del Monjo, Ordino",
    /// not the village el Serrat 3 km away. The node answers with its own address (`insert_addresslines` from its
    /// centroid): the municipality and suburb at the node, and their postcode (Andorra's parishes' `postal_code`).
    /// Outside every municipality the polygon found is the state's, else none (`lookup_country`: the country's nodes),
    /// and a node inside it answers wherever it lies: on Gozo, 1.8 km off Ta' Sannat's council, its locality Ta' Ċenċ.
    /// True when a node answers.
    func takeFinePlaceNodeInArea(_ record: inout PlacemarkRecord) -> Bool {
        guard let fine = lookup.finePlaceNodes(), !fine.isEmpty else { return false }
        let x = record.location.longitude, y = record.location.latitude
        let area = finestPolygon(x, y)
        let search = lookup.suburbNodeSearch()
        for candidate in fine.candidates(x: x, y: y, maximumRank: 25, kinds: .all) {
            guard let node = fine.node(candidate.index) else { continue }
            // A village or hamlet of no area of its own, inside the polygon holding the point (`SubpartNodeChoice`).
            if node.isSubpart {
                guard subpartAnswers(candidate, record: record, maximumRank: 25) else { continue }
                takeSubpartNode(candidate.index, &record)
                return true
            }
            // Outside every municipality, the state's polygon holding the point (else the country) holds the node.
            let inArea = area == nil ? holdsInUpperArea(node, record: record) : finestPolygon(node.x, node.y) == area
            guard inArea, !isLinked(node, search: search) else { continue }
            record.finePlace = candidate.index
            record.cityArea = municipality(ofPlaceAt: Coordinate(latitude: node.y, longitude: node.x))
            record.suburbArea = feature(.suburb, node.x, node.y)
            // A part of another municipality is outside `current_boundary` (Vila, Encamp's, at a locality of Engolasters).
            if record.suburbArea >= 0 { dropSuburbOfAnotherCity(&record) }
            // The nearest point's postcode, which stands where no address area of the node has a tagged one
            // (`taggedPostcodeArea`, decided when the answer is written, once its areas are final).
            record.postcode = postcodeOfPlaceNode(at: Coordinate(latitude: node.y, longitude: node.x), record: record) ?? -1
            return true
        }
        return false
    }

    /// A place's municipality from its own point: inside a parish that town and village nodes name parts of
    /// (`OSMSubpartNodes`), the node whose box holds the point and whose distance, weighted by its rank
    /// (`PlaceNodeSearch.nearestGuess`: a town's counts half), is least, as `insert_addresslines` orders the guesses
    /// of a point's address; else the municipality holding it. Canal de la Bova, a locality nearer the village
    /// Engolasters than the town les Escaldes, is les Escaldes's.
    private func municipality(ofPlaceAt point: Coordinate) -> Int32 {
        let holding = feature(.city, point.longitude, point.latitude)
        guard holding >= 0, let nodes = lookup.cityNodeSearch() else { return holding }
        let parish = nodes.node(ofFeature: holding)?.boundaryBelow ?? holding
        guard parish >= 0 else { return holding }
        return nodes.nearestGuess(near: point) { node, box in
            guard node.boundaryBelow == parish, abs(node.x - point.longitude) <= box.x, abs(node.y - point.latitude) <= box.y
            else { return nil }
            let dx = node.x - point.longitude, dy = node.y - point.latitude
            return (dx * dx + dy * dy).squareRoot()
        } ?? holding
    }

    /// The finest polygon of the extract holding a point, as Nominatim's area search finds it: a suburb-level
    /// polygon, else a municipality, each of a node's area the boundary it was cut to (`OSMSubpartNodes`: the
    /// parish under a village's cell); nil outside every one (then `lookup_country` takes the nodes in reach). A
    /// town node's area cut to no boundary hides what lies under it: the point and the node must share that area.
    private func finestPolygon(_ x: Double, _ y: Double) -> PolygonAtPoint? {
        let suburb = feature(.suburb, x, y)
        if suburb >= 0 {
            guard let nodes = lookup.suburbNodeSearch(), nodes.isNodeArea(suburb) else {
                return PolygonAtPoint(level: .suburb, feature: suburb)
            }
            if let below = nodes.boundaryBelow(suburb) { return PolygonAtPoint(level: .suburb, feature: below) }
        }
        let city = feature(.city, x, y)
        guard city >= 0 else { return nil }
        guard let node = lookup.cityNodeSearch()?.node(ofFeature: city) else { return PolygonAtPoint(level: .city, feature: city) }
        return node.boundaryBelow >= 0
            ? PolygonAtPoint(level: .city, feature: node.boundaryBelow) : PolygonAtPoint(level: .townNodeArea, feature: city)
    }
}

/// A polygon of the suburb or the municipality level, or a town node's area.
private struct PolygonAtPoint: Equatable {
    enum Level { case suburb, city, townNodeArea }
    var level: Level
    var feature: Int32
}
