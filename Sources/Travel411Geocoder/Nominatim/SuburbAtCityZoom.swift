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

    /// The rank a suburb polygon answers with (admin_level 10's in settings/address-levels.json).
    static let suburbAreaRank = 20

    /// A suburb boundary's search rank: its admin_level's in the country holding its `centre`
    /// (settings/address-levels.json), which a linked place node does not change (`placex_update` gives the boundary
    /// the node's address rank only). Nominatim's area search takes areas up to the zoom's rank by it and answers the
    /// one of the highest (`_lookup_area_address`, nominatim_api/reverse.py 5.3), and prints it as `place_rank`.
    func suburbBoundaryRank(adminLevel: Int, centre: Coordinate?) -> Int? {
        guard let levels = NominatimAddressLevels.embedded else { return nil }
        let country = centre.flatMap { centre in
            let feature = feature(.country, centre.longitude, centre.latitude)
            return feature < 0 ? nil : withArea(.country) { $0.bytes(Int(feature), .code) }.map { String(decoding: $0, as: UTF8.self) }
        }
        return levels.boundaryRanks(adminLevel: adminLevel, countryCode: country)?.search
    }
}
