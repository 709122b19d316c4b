import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// Below street level, a municipality drawn around a place node answers only when the node's search rank is
    /// within the zoom's highest rank, as Nominatim 5.3's reverse search looks for place nodes (GPL-2.0; its
    /// rules, not its code): `lookup_country` and `_lookup_area_address` (`nominatim_api/reverse.py`) take
    /// nodes of `rank_search <= max_rank` only (`REVERSE_MAX_RANKS`: 16 at zoom 10, 18 at zoom 12), so a town
    /// (18) or a village (19) is no answer at zoom 10: Krems an der Donau's town node answers from zoom 12 on.
    /// The point's locality then goes too, and the coarser municipality under the node's area answers where
    /// there is one (its `code`: Andorra's parish around a village, `OSMSubpartNodes`), as the area search
    /// finds it first; a boundary answers whatever its linked node's kind.
    func dropCityNodeAboveRank(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard maximumRank < 26, record.cityArea >= 0,
            let city = areaFeature(.city, record.cityArea, rank: 16, location: record.location),
            city.elementType == .node, city.rank > maximumRank
        else { return }
        let below = Self.number(withArea(.city) { $0.bytes(Int(record.cityArea), .code) })
        record.cityArea = below.map { Int32(truncatingIfNeeded: $0) } ?? -1
        record.locality = -1
    }

    /// Where an extract's rules hold, the municipality is only the area holding the answer (a boundary, a place
    /// polygon, or a town node's area: `OSMPlaceNodeAreas`), never the nearest town of the locality layer: Nominatim
    /// 5.3 names a municipality only from the address lines of the object it answers (`insert_addresslines`,
    /// `lib-sql/functions/placex_triggers.sql`), and a town node outside its area reaches no farther. Woodridge Drive,
    /// outside Highspire's boundary (Harrisburg), has no town in Nominatim's answer; the locality layer named Highspire.
    func dropLocalityOutsideMunicipalities(_ record: inout PlacemarkRecord) {
        if record.cityArea < 0 { record.locality = -1 }
    }

    /// Where nothing answers (no street, no object) at street level, a finer place node inside the point's polygon
    /// (`takeFinePlaceNodeInArea`). Else where no area holds the point, the municipality holding the place
    /// node that answers (`takeMunicipalityOfAnsweringPlaceNode`), else the town node within its reach
    /// (`takeTownNodeInReach`); then no municipality but an area's (`dropLocalityOutsideMunicipalities`).
    /// Inside a parish that town and village nodes name parts of, the node in reach inside it
    /// (`takeTownNodeInsideParish`), unless a finer place node answers; over a town node's area up to zoom 13, the
    /// node of a finer rank in reach (`takeFinerNodeOverTownArea`).
    func decideMunicipalityOutsideAreas(_ record: inout PlacemarkRecord, maximumRank: Int) {
        if record.street < 0, record.object < 0, maximumRank < 26 || !takeFinePlaceNodeInArea(&record) {
            if record.cityArea < 0 { takeMunicipalityOfAnsweringPlaceNode(&record, maximumRank: maximumRank) }
            if record.cityArea < 0 {
                takeTownNodeInReach(&record, maximumRank: maximumRank)
            } else if record.suburbArea < 0 {
                takeTownNodeInsideParish(&record, maximumRank: maximumRank)
                takeFinerNodeOverTownArea(&record, maximumRank: maximumRank)
            }
        }
        takeOwnAddressOfAnsweringNode(&record, maximumRank: maximumRank)
        takeOwnQuarterOfAnsweringPolygon(&record, maximumRank: maximumRank)
        dropLocalityOutsideMunicipalities(&record)
    }

    /// A place node answering a point that no municipality holds (a suburb node's reach over the sea, past the
    /// boundary): the answer's address is the node's own, as Nominatim 5.3 computes a place's address lines once,
    /// from its own geometry (`insert_addresslines`, `lib-sql/functions/placex_triggers.sql`), and answers them for
    /// the place whatever point found it (`complete_address_details`, `nominatim_api/results.py`). Kitsilano's
    /// suburb node answers a point of English Bay in Vancouver's extract "Kitsilano, Vancouver".
    /// Only a node the zoom answers with (its search rank within `maximumRank`): at zoom 10 the suburb node holding
    /// the point is no answer, and Nominatim names no city there. Only a node of the answered country: across a
    /// border the node is no answer at all (`dropAreasOfAnotherCountry`), and its municipality, a boundary of no
    /// stored country, would stay (Gamprin's node area reaches over the Rhine into Switzerland).
    func takeMunicipalityOfAnsweringPlaceNode(_ record: inout PlacemarkRecord, maximumRank: Int) {
        func answers(rank: Int, x: Double, y: Double) -> Bool {
            rank <= maximumRank && (record.country < 0 || isCountry(feature(.country, x, y), sameAs: record.country))
        }
        if record.finePlace >= 0, let node = lookup.finePlaceNodes()?.node(record.finePlace) {
            if answers(rank: node.rank, x: node.x, y: node.y) { record.cityArea = feature(.city, node.x, node.y) }
        } else if record.suburbArea >= 0, let node = lookup.suburbNodeSearch()?.node(ofFeature: record.suburbArea),
            answers(rank: node.rank, x: node.x, y: node.y)
        {
            record.cityArea = node.municipality
        }
    }
}
