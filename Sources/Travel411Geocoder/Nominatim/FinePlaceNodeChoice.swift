import Foundation
import Travel411Core
import Travel411Store

/// Nominatim's answer by a place node finer than the suburbs (`FinePlaceNodes`) at zooms 14-15: its area search
/// orders the place nodes reaching the point by search rank, highest first, then by distance (`_lookup_area_address`,
/// `lookup_country`, `nominatim_api/reverse.py` 5.3), so a quarter (20) within 0.02° answers before a suburb node
/// (19) and a hamlet (20) only when nearer. Not yet beyond every street at zooms 16-18, where Nominatim answers
/// them too (Andorra's and Liechtenstein's localities): there a node's postcode is first its address area's own
/// `postal_code` (Andorra's parishes), which only the import knows apart from a computed one (`OSMPostcodeAreas`).
extension ReverseGeocoder {
    func chooseFinePlaceNodeAsNominatim(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard maximumRank >= 20, let fine = lookup.finePlaceNodes(), !fine.isEmpty else { return }
        let search = lookup.suburbNodeSearch()
        // A suburb polygon holding the point answers itself, as `chooseSuburbNodeAsNominatim` keeps it.
        var suburbNode: PlaceNodeSearch.Node?
        if record.suburbArea >= 0 {
            guard let node = search?.node(ofFeature: record.suburbArea) else { return }
            suburbNode = node
        }
        let x = record.location.longitude, y = record.location.latitude
        for candidate in fine.candidates(x: x, y: y, maximumRank: maximumRank) {
            if let suburbNode {
                let dx = suburbNode.x - x, dy = suburbNode.y - y
                let suburbSquared = dx * dx + dy * dy
                // The candidates come best first: once the suburb node ranks before one, it ranks before the rest.
                if suburbNode.rank > candidate.rank || (suburbNode.rank == candidate.rank && suburbSquared <= candidate.distanceSquared) {
                    return
                }
            }
            let node = fine.nodes[Int(candidate.index)]
            guard !isLinked(node, search: search), record.cityArea < 0 || feature(.city, node.x, node.y) == record.cityArea else {
                continue
            }
            record.finePlace = candidate.index
            record.postcode = postcodeOfPlaceNode(at: Coordinate(latitude: node.y, longitude: node.x), record: record) ?? -1
            return
        }
    }

    /// Whether a boundary took the node as its linked place (`find_linked_place`, placex_triggers.sql): Nominatim
    /// then answers with the boundary, never the node (`linked_place_id is null`). The import keys such a boundary by
    /// its node's type (`OSMLinkedPlaces`): London's Inner and Middle Temples, a `quarter`, around the node Temple.
    private func isLinked(_ node: FinePlaceNodes.Node, search: PlaceNodeSearch?) -> Bool {
        var holder = feature(.suburb, node.x, node.y)
        // A suburb node's area cut to a finer boundary lies over it (`OSMLevelMapping.withFinerBoundaries`).
        if holder >= 0, let below = search?.boundaryBelow(holder) { holder = below }
        guard holder >= 0, !(search?.isNodeArea(holder) ?? false),
            let type = lookup.area(.suburb)?.bytes(Int(holder), .placeType)
        else { return false }
        return type.elementsEqual(node.type.utf8)
    }

    /// The postcode Nominatim computes for a place node (`get_nearest_postcode`, `lib-sql/functions/utils.sql`): of
    /// the answered country's postcode points whose box (± the country's postcode `extent`, settings/country_settings.yaml)
    /// holds the node, the nearest.
    func postcodeOfPlaceNode(at node: Coordinate, record: PlacemarkRecord) -> Int32? {
        guard let settings = NominatimCountrySettings.embedded, record.country >= 0,
            let codeBytes = withArea(.country, { $0.bytes(Int(record.country), .code) }) ?? nil, !codeBytes.isEmpty
        else { return nil }
        let country = String(decoding: codeBytes, as: UTF8.self)
        let extent = settings.postcodeExtentMetres(countryCode: country)
        let halfHeight = extent / 111_320, radius = extent * 2.0.squareRoot()
        let query = PointIndex.Query(node)
        return withPoints(.postcode, near: node, within: radius) { points in
            points.index.nearest(to: query, maxChord: PointIndex.chord(metres: radius)) { id in
                guard let bytes = points.records.bytes(Int(id), 0), let at = points.records.coordinate(Int(id)) else { return false }
                let halfWidth = halfHeight / max(cos(at.latitude * .pi / 180), 0.01)
                guard abs(at.latitude - node.latitude) <= halfHeight, abs(at.longitude - node.longitude) <= halfWidth else { return false }
                let code = String(decoding: bytes, as: UTF8.self)
                return settings.postcode(code, countryCode: country) == code
            }.map { Int32($0) }
        } ?? nil
    }
}
