import Travel411Core
import Travel411Store

/// At zooms 12-13 the answer's levels stop at the city (`NominatimDetail(zoom:)`), but Nominatim's area search takes
/// any place up to the zoom's highest rank: a suburb or village node (search rank 19) answers at zoom 13
/// (`NominatimDetail.includesSuburbLevel`). Jardin Exotique, Monaco's suburb node, answers its points there.
extension ReverseGeocoder {
    /// The detail the record's answer takes at the settings' zoom.
    func answerDetail(of record: PlacemarkRecord) -> NominatimDetail {
        answerDetail(of: record, detail: settings.detail, maximumRank: settings.maximumRank)
    }

    /// `detail`, or the suburb's where the record's suburb is a place `maximumRank` reaches: a suburb or village node
    /// (19) at zoom 13, a suburb boundary by its admin_level's search rank (`suburbBoundaryRank`), Paris's
    /// arrondissements (admin_level 9, 18) from zoom 12, Ankara's mahalleler (8, 16) from zoom 10.
    func answerDetail(of record: PlacemarkRecord, detail: NominatimDetail, maximumRank: Int) -> NominatimDetail {
        guard detail == .city, record.followsNominatim, record.suburbArea >= 0 else { return detail }
        let rank = areaFeature(.suburb, record.suburbArea, rank: Self.suburbAreaRank, location: record.location)?.rank
        return detail.includesSuburbLevel(rank: rank, maximumRank: maximumRank) ? .suburb : detail
    }

    /// The rank of a suburb polygon whose own is not known (`suburbPolygonRank`): admin_level 10's in
    /// settings/address-levels.json.
    static let suburbAreaRank = 20

    /// A suburb boundary's search rank: its admin_level's in the country holding its `centre`
    /// (settings/address-levels.json), which a linked place node does not change (`placex_update` gives the boundary
    /// the node's address rank only). Nominatim's area search takes areas up to the zoom's rank by it and answers the
    /// one of the highest (`_lookup_area_address`, nominatim_api/reverse.py 5.3), and prints it as `place_rank`.
    func suburbBoundaryRank(adminLevel: Int, centre: Coordinate?) -> Int? {
        NominatimAddressLevels.embedded?.boundaryRanks(adminLevel: adminLevel, countryCode: countryCode(at: centre))?.search
    }

    /// A suburb-level polygon's search rank, which Nominatim prints as its `place_rank` and its area search weighs
    /// against the zoom's (`_lookup_area_address`, nominatim_api/reverse.py 5.3): a boundary's by its admin_level
    /// (`suburbBoundaryRank`), a place polygon's by its own type (`compute_place_rank`, lib-sql/functions/ranking.sql,
    /// from settings/address-levels.json, the country's entry first; linking a node leaves it). Bishkek's
    /// `place=suburb` way Кок-Жар is 19, a `quarter` 20, a `neighbourhood` 24; a named landuse area by its `landuse`
    /// row (Minsk's `industrial` 24). nil for neither (a node's area).
    func suburbPolygonRank(category: String, type: String, adminLevel: Int?, centre: Coordinate?) -> Int? {
        if let adminLevel { return suburbBoundaryRank(adminLevel: adminLevel, centre: centre) }
        guard category == "place" || category == "landuse" else { return nil }
        return NominatimAddressLevels.embedded?.ranks(key: category, value: type, countryCode: countryCode(at: centre))?.search
    }

    /// The code of the country polygon holding `point`; nil outside every one.
    private func countryCode(at point: Coordinate?) -> String? {
        point.flatMap { point in
            let feature = feature(.country, point.longitude, point.latitude)
            return feature < 0 ? nil : withArea(.country) { $0.bytes(Int(feature), .code) }.map { String(decoding: $0, as: UTF8.self) }
        }
    }
}
