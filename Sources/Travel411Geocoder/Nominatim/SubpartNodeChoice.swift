import Foundation
import Travel411Core
import Travel411Store

/// Nominatim's answer by a town, village or hamlet node that the import made no area of (`FinePlaceNodes.subpartTypes`):
/// one inside a municipality boundary, where the extract's suburbs are polygons. Nominatim 5.3's area search
/// (`_lookup_area_address`, `nominatim_api/reverse.py`) takes the finest polygon holding the point, then, of the
/// place nodes inside that polygon of a finer search rank and within their reach (`reverse_place_diameter`), the
/// highest search rank, then the nearest. Inside Malta's council In-Naxxar the village Baħar iċ-Ċagħaq (a subpart
/// of the council, search rank 19, reach 0.04°) answers at zoom 14; outside every council the island's polygon holds
/// the point, and the village "north country" (inside Ir-Rabat) answers.
extension ReverseGeocoder {
    /// The polygon Nominatim's area search finds at a point, for the subpart nodes: the municipality polygon, else the
    /// state's (`admin`), else the country's; nil inside a town node's area (travel411's, no polygon of Nominatim's,
    /// where `takeTownNodeInReach` and the suburb nodes answer) and outside every country.
    private enum SearchArea: Equatable {
        case municipality(Int32), upper(Int32), country(Int32)
    }

    private func searchArea(_ x: Double, _ y: Double, country: Int32) -> SearchArea? {
        let city = feature(.city, x, y)
        if city >= 0 { return lookup.cityNodeSearch()?.isNodeArea(city) ?? false ? nil : .municipality(city) }
        let admin = feature(.admin, x, y)
        if admin >= 0 { return .upper(admin) }
        return country >= 0 ? .country(country) : nil
    }

    /// Whether the area holds the node (the inner query's `ST_Contains` of `_lookup_area_address`), and the node is
    /// no municipality's linked place: a boundary holding a node of its name links it (`find_linked_place`,
    /// placex_triggers.sql), which then never answers (`linked_place_id is null`).
    private func holds(_ area: SearchArea, _ node: FinePlaceNodes.Node) -> Bool {
        let city = feature(.city, node.x, node.y)
        if city >= 0, let name = withArea(.city, { $0.bytes(Int(city), .name) }) ?? nil,
            String(decoding: name, as: UTF8.self).lowercased() == node.name.lowercased()
        {
            return false
        }
        switch area {
        case .municipality(let holding): return city == holding
        case .upper(let holding): return feature(.admin, node.x, node.y) == holding
        case .country(let holding):
            let own = feature(.country, node.x, node.y)
            return own >= 0 && isCountry(own, sameAs: holding)
        }
    }

    /// Whether the state's polygon holding the point, else its country, holds the node (`holds`): the polygon Nominatim's
    /// area search finds outside every municipality.
    func holdsInUpperArea(_ node: FinePlaceNodes.Node, record: PlacemarkRecord) -> Bool {
        guard let area = searchArea(record.location.longitude, record.location.latitude, country: record.country) else { return false }
        if case .municipality = area { return false }
        return holds(area, node)
    }

    /// Whether the subpart node `candidate` answers the point (`_lookup_area_address`): inside the polygon holding the
    /// point, and ranked before the suburb node or town node that answers there (`chooseSuburbNodeAsNominatim`,
    /// `takeTownNodeInReach`), the higher search rank first, then the nearer. A suburb polygon holding the point
    /// answers itself.
    func subpartAnswers(
        _ candidate: (index: Int64, rank: Int, distanceSquared: Double), record: PlacemarkRecord, maximumRank: Int
    ) -> Bool {
        guard let node = lookup.finePlaceNodes()?.node(candidate.index) else { return false }
        let x = record.location.longitude, y = record.location.latitude
        guard let area = searchArea(x, y, country: record.country), holds(area, node) else { return false }
        func ranksBefore(_ other: PlaceNodeSearch.Node) -> Bool {
            let dx = other.x - x, dy = other.y - y
            let otherSquared = dx * dx + dy * dy
            return candidate.rank > other.rank || (candidate.rank == other.rank && candidate.distanceSquared < otherSquared)
        }
        // A suburb polygon holding the point is the finest polygon; a suburb node answering must rank after it.
        let suburb = feature(.suburb, x, y)
        if suburb >= 0, !(lookup.suburbNodeSearch()?.isNodeArea(suburb) ?? false) { return false }
        if record.suburbArea >= 0 {
            guard let other = lookup.suburbNodeSearch()?.node(ofFeature: record.suburbArea), ranksBefore(other) else { return false }
        }
        if case .municipality = area { return true }
        guard let towns = lookup.cityNodeSearch(),
            let found = towns.answer(x: x, y: y, maximumRank: maximumRank, municipality: -1), let town = towns.node(ofFeature: found)
        else { return true }
        return ranksBefore(town)
    }

    /// At zooms 14-15, where no finer place node answers, the subpart node Nominatim answers with (`subpartAnswers`),
    /// with its own address: its municipality, no suburb (its address lines are of coarser ranks only:
    /// `insert_addresslines` from its centroid with its address rank as `max_rank`), and its own postcode, the
    /// nearest postcode point's (`get_nearest_postcode` in `placex_update`: a council has no `addr:postcode`, so
    /// its address areas give none).
    func chooseSubpartNodeAsNominatim(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard record.finePlace < 0, let fine = lookup.finePlaceNodes(), !fine.isEmpty else { return }
        let x = record.location.longitude, y = record.location.latitude
        for candidate in fine.candidates(x: x, y: y, maximumRank: maximumRank, kinds: .subparts)
        where subpartAnswers(candidate, record: record, maximumRank: maximumRank) {
            takeSubpartNode(candidate.index, &record)
            return
        }
    }

    /// The subpart node `index` as the answer: its municipality (the polygon holding it), no suburb, its own postcode.
    func takeSubpartNode(_ index: Int64, _ record: inout PlacemarkRecord) {
        guard let node = lookup.finePlaceNodes()?.node(index) else { return }
        let point = Coordinate(latitude: node.y, longitude: node.x)
        record.finePlace = index
        record.suburbArea = -1
        record.villagePart = -1
        record.cityArea = feature(.city, node.x, node.y)
        if record.cityArea < 0 { record.locality = -1 }
        record.postcode = postcodeOfPlaceNode(at: point, record: record) ?? -1
    }
}
