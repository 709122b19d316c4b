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

    /// `detail`, or the suburb's where the record's suburb is a place `maximumRank` reaches. A suburb polygon keeps
    /// the level's rank (20: admin_level 10), which no zoom below 14 reaches.
    func answerDetail(of record: PlacemarkRecord, detail: NominatimDetail, maximumRank: Int) -> NominatimDetail {
        guard detail == .city, record.followsNominatim, record.suburbArea >= 0 else { return detail }
        let rank = areaFeature(.suburb, record.suburbArea, rank: Self.suburbAreaRank, location: record.location)?.rank
        return detail.includesSuburbLevel(rank: rank, maximumRank: maximumRank) ? .suburb : detail
    }

    /// The rank a suburb polygon answers with (admin_level 10's in settings/address-levels.json).
    static let suburbAreaRank = 20
}
