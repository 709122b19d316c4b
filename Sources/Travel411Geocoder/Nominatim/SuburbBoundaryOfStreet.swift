import Foundation
import Travel411Core
import Travel411Store

/// The suburb boundary that confines a street's suburb nodes, as Nominatim 5.3's `insert_addresslines`
/// (`lib-sql/functions/placex_triggers.sql`, GPL-2.0; its rule, not its code) confines them: it walks the street's
/// address candidates by address rank, and a guessed place (a node) outside `current_boundary`, the last polygon it
/// named, is skipped. A suburb node inside a suburb boundary of its own rank is moved two ranks below it
/// (`placex_update`, "make the node a subpart"), so the boundary is named first, the one nearest the street's
/// centroid (`getNearFeatures`, `lib-sql/functions/partition-functions.sql`), and then only the nodes inside it can
/// be: a street of Bezirksteil Graggenau names Graggenauerviertel, the node inside it, not Altstadt, a nearer node of
/// Bezirksteil Kreuzviertel.
extension ReverseGeocoder {
    /// The suburb boundary holding `point` that confines the suburb nodes' parts (a node's area cut to the boundary
    /// holding the node counts as that boundary); -1 for none.
    func suburbBoundary(at point: Coordinate, nodes: PlaceNodeSearch) -> Int32 {
        suburbBoundary(ofPolygon: feature(.suburb, point.longitude, point.latitude), nodes: nodes)
    }

    /// `suburbBoundary(at:)` of a point that suburb polygon `polygon` holds (-1: none holds it).
    func suburbBoundary(ofPolygon polygon: Int32, nodes: PlaceNodeSearch) -> Int32 {
        var holder = polygon
        guard holder >= 0 else { return -1 }
        if nodes.isNodeArea(holder) {
            guard let below = nodes.boundaryBelow(holder) else { return -1 }
            holder = below
        }
        return confinesSuburbNodes(holder) ? holder : -1
    }

    /// Whether a suburb-level polygon comes before the suburb nodes in Nominatim's address (a rank coarser than 22),
    /// rather than after them: a boundary of the neighbourhood band (`OSMLevelMapping.withFinerBoundaries`: London's
    /// Inner and Middle Temples, a `quarter`; Porto's parishes, `neighbourhood`) lies over the suburb nodes' parts
    /// and confines none. The import keys each boundary by its place type (`placeType`), whose address rank says which.
    /// No country is passed: address-levels.json (Nominatim 5.3) has no per-country ranks for these place types
    /// (borough, suburb, quarter, neighbourhood), only the default entry's.
    private func confinesSuburbNodes(_ feature: Int32) -> Bool { placeTypeRank(ofSuburbPolygon: feature).map { $0 < 22 } ?? true }

    /// The address rank of a suburb-level polygon's place type (its linked node's, `OSMLevelMapping`), a named landuse
    /// area's by its `landuse` row (`collectLanduseArea`: keyed by its value, `residential` 24); nil without one. The
    /// row is the one of the element's key, as `OSMAddressPlaceParents` ranks a parent by its `key`/`type`.
    func placeTypeRank(ofSuburbPolygon feature: Int32) -> Int? {
        guard let levels = NominatimAddressLevels.embedded, let bytes = lookup.area(.suburb)?.bytes(Int(feature), .placeType),
            !bytes.isEmpty
        else { return nil }
        let type = String(decoding: bytes, as: UTF8.self)
        // The element is read only for a value landuse ranks: `farm` and `allotments` are place types too.
        let mayBeLanduse = (levels.ranks(key: "landuse", value: type, countryCode: nil)?.address ?? 0) > 0
        let isLanduse = mayBeLanduse && areaElement(.suburb, feature, rank: Self.suburbAreaRank)?.feature.category == "landuse"
        return levels.ranks(key: isLanduse ? "landuse" : "place", value: type, countryCode: nil)?.address
    }
}

extension ReverseGeocoder {
    /// The suburb boundary a street's address names (its `isaddress` line at the boundary's rank, which becomes
    /// `current_boundary`): the one holding its centroid, else, for a line, the one it passes through nearest its
    /// centroid. `insert_addresslines` gives `getNearFeatures` a line's whole geometry (an area's centroid only:
    /// `placex_update`), which returns every polygon the line enters, ordered by its distance from the centroid.
    /// Baaderstraße, whose centroid lies just outside Bezirksteil Gärtnerplatz, names it, and with it none of the
    /// suburb nodes of the other Bezirksteile. Only the boundaries of the street's country count, as they are the
    /// ones in its partition (`isOfStreetsCountry`). `segments()`: the street's segments, nil when too long to gather.
    func ownSuburbBoundary(
        centroid: Coordinate?, isLine: Bool, segments: () -> LineSegments?, nodes: PlaceNodeSearch
    ) -> Int32 {
        guard let centroid else { return -1 }
        let holding = suburbBoundary(at: centroid, nodes: nodes)
        guard holding < 0, isLine, let segments = segments() else { return holding }
        var memo = SuburbPolygonMemo()
        return Self.nearestArea(on: segments, to: centroid) { x, y in
            let found = memo.boundary(of: feature(.suburb, x, y)) { polygon in
                let boundary = suburbBoundary(ofPolygon: polygon, nodes: nodes)
                return boundary >= 0 && isOfStreetsCountry(boundary, centroid: centroid) ? boundary : -1
            }
            return found >= 0 ? found : nil
        } ?? -1
    }

    /// Whether a suburb boundary the street runs into is of the street's country: `getNearFeatures` looks in the
    /// street's partition (its country's, `get_partition` of the centroid's `country_code`) only, and a boundary is
    /// in the partition of the country holding its centroid. Avenue d'Alsace, a street of Beausoleil (France) that
    /// runs along Monaco's border and into Monte-Carlo's quarter, names no quarter of Monaco. A boundary is judged
    /// by its centre (`SameCountryAreas`).
    private func isOfStreetsCountry(_ boundary: Int32, centroid: Coordinate) -> Bool {
        isArea(.suburb, boundary, ofCountry: feature(.country, centroid.longitude, centroid.latitude), true)
    }

    /// The suburb boundary of an answer on a street whose own is `own`: of the boundaries the street passes
    /// through, the one holding the result's point (`point`: a line's point nearest the query, `onStreet`; an area
    /// street's centre; an object's own point), else the street's own. `complete_address_details`
    /// (`nominatim_api/results.py`) takes, per rank, the street's address line from an area holding the result's
    /// centroid before its `isaddress` one; an area street's lines are only those holding its centroid. A shop on
    /// Müllerstraße inside Bezirksteil Gärtnerplatz names it, though the street's own is Angerviertel; a café by
    /// Marienplatz, a square of Angerviertel, inside Graggenau, does not name Graggenau.
    func suburbBoundary(
        ofResultAt point: Coordinate, onStreet: Bool, own: Int32, centroid: Coordinate?, isLine: Bool,
        segments: () -> LineSegments?, nodes: PlaceNodeSearch
    ) -> Int32 {
        let holding = suburbBoundary(at: point, nodes: nodes)
        guard holding >= 0, holding != own, isLine, let centroid, isOfStreetsCountry(holding, centroid: centroid) else { return own }
        if onStreet { return holding }
        guard let segments = segments() else { return own }
        var memo = SuburbPolygonMemo()
        let passes =
            Self.nearestArea(on: segments, to: point) { x, y in
                memo.boundary(of: feature(.suburb, x, y)) { suburbBoundary(ofPolygon: $0, nodes: nodes) } == holding ? holding : nil
            } != nil
        return passes ? holding : own
    }
}

/// A judgement of the suburb polygons a street's sampled points fall in (`suburbBoundary(ofPolygon:)`, with or
/// without the street's country): each polygon judged once (whether it is a node's area, the boundary below it, its
/// rank, its country: page reads), not at every sample. The same answers: the judgement is a function of the polygon.
struct SuburbPolygonMemo {
    private var judged: [(polygon: Int32, boundary: Int32)] = []

    mutating func boundary(of polygon: Int32, judging: (Int32) -> Int32) -> Int32 {
        guard polygon >= 0 else { return -1 }
        if let known = judged.first(where: { $0.polygon == polygon }) { return known.boundary }
        let boundary = judging(polygon)
        judged.append((polygon, boundary))
        return boundary
    }
}
