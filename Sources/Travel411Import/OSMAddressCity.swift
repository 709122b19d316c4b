import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM

/// The municipality an object's own `addr:city` names, as Nominatim gives an object an address line of its own for
/// each `addr:*` place key (`create_poi_search_terms` and `insert_addresslines`, `lib-sql/functions/placex_triggers.sql`):
/// among the areas of the key's rank band (`get_addr_tag_rank`, `lib-sql/functions/ranking.sql`: `place=city`'s
/// address rank, 16, gives 13-16) whose box meets the object's widened by `reverse_place_diameter` of the key's
/// search rank (0.16° for 16), those whose names hold the value, the ones holding the object first, then the one
/// whose centre is nearest (`get_address_place`, `lib-sql/functions/partition-functions.sql`). That line wins over
/// the street's municipality of its rank (`complete_address_details`, `nominatim_api/results.py`): the buildings of the
/// University of British Columbia, its own municipality, with `addr:city=Vancouver` answer Vancouver.
///
/// Only the names are matched (`NameKey`), not their variants in other languages; areas are of the object's country
/// (Nominatim's partition). An outline is read from disk only where two areas of the name are within reach.
struct OSMAddressCity {
    private struct Candidate {
        var index: Int
        var box: BoundingBox
        var centre: Point2D
        var country: String?
        var rank: Int
        var outline: OSMLevelMapping.PendingArea.Outline
    }

    private var byName: [[UInt8]: [Candidate]] = [:]
    /// Outlines read for the containment test, dropped when many: a country's municipalities do not all stay in memory.
    private var outlines: [Int: Shape] = [:]
    private static let keptOutlines = 32
    private let levels: NominatimAddressLevels?

    /// `areas`: the city level's, in their order (`collectMunicipalities`), each's address rank its boundary's (`rank`)
    /// or its `place` type's.
    /// Keeps of each area only what matching a name needs, not the areas: those grew with the extract (issue 35).
    init(areas: [OSMLevelMapping.PendingArea], countryOf: (Point2D) -> String?) {
        let levels = NominatimAddressLevels.embedded
        self.levels = levels
        for (index, area) in areas.enumerated() {
            let centre = area.node ?? area.shape.pointOnSurface
            let country = countryOf(centre)
            let rank =
                area.node == nil && area.rank > 0
                ? area.rank : area.placeType.flatMap { levels?.placeRanks(type: $0, countryCode: country)?.address } ?? 0
            guard NominatimAddressLevels.Band(addressRank: rank) == .city else { continue }
            let key = NameKey.of(area.name)
            guard !key.isEmpty else { continue }
            let candidate = Candidate(
                index: index, box: area.shape.boundingBox, centre: centre, country: country, rank: rank, outline: area.outline)
            byName[key, default: []].append(candidate)
        }
    }

    var isEmpty: Bool { byName.isEmpty }

    /// The place in `areas` of the municipality `value` names for an object at `point` in `country`; nil for none.
    mutating func area(named value: String, at point: Point2D, country: String?) -> Int? {
        guard let candidates = byName[NameKey.of(value)] else { return nil }
        // `get_addr_tag_rank('city', country)`: the key's band in the object's country, and its reach.
        // Without the settings file, `place=city`'s default ranks, 16 and 16.
        let ranks = levels?.placeRanks(type: "city", countryCode: country)
        guard NominatimAddressLevels.Band(addressRank: ranks?.address ?? 16) == .city else { return nil }
        let reach = NominatimPlaceKinds.reversePlaceDiameter(searchRank: ranks?.search ?? 16)
        let near = candidates.filter { candidate in
            candidate.country == country && candidate.box.minX <= point.x + reach && candidate.box.maxX >= point.x - reach
                && candidate.box.minY <= point.y + reach && candidate.box.maxY >= point.y - reach
        }
        func distance(_ candidate: Candidate) -> Double {
            let dx = candidate.centre.x - point.x, dy = candidate.centre.y - point.y
            return (dx * dx + dy * dy).squareRoot()
        }
        let holding = near.count > 1 ? near.filter { holds($0, point) } : []
        guard let found = (holding.isEmpty ? near : holding).min(by: { distance($0) < distance($1) }) else { return nil }
        // The object's own line replaces its street's of the same rank only (`complete_address_details`): a coarser
        // one (Andorra's parish, rank 14, for `addr:city=Escaldes-Engordany`) stands beside the street's town, which
        // keeps the city, and the answer names one municipality.
        return found.rank >= (ranks?.address ?? 16) ? found.index : nil
    }

    private mutating func holds(_ candidate: Candidate, _ point: Point2D) -> Bool {
        let box = candidate.box
        guard box.minX <= point.x, box.maxX >= point.x, box.minY <= point.y, box.maxY >= point.y else { return false }
        if let outline = outlines[candidate.index] { return outline.contains(x: point.x, y: point.y) }
        if outlines.count >= Self.keptOutlines { outlines.removeAll(keepingCapacity: true) }
        let outline = candidate.outline.shape
        outlines[candidate.index] = outline
        return outline.contains(x: point.x, y: point.y)
    }
}
