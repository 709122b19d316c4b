import Travel411Geocoder

extension NominatimPlace {
    /// The neighbourhood line of an answer, its key, and the suburb line. An answering fine place node's own
    /// neighbourhood shows at its zooms too ("Reichenbachplatz, Gärtnerplatz"), and so does an answering polygon's,
    /// itself (`ownQuarterFeature` without a fine node: "San Lorenzo Village, San Lorenzo"). A named landuse area at the
    /// neighbourhood's rank is keyed by its value (`residential`: `get_label_tag`, nominatim_api/v1/classtypes.py). One
    /// line a place (`insert_addresslines`): a finer polygon at the point is the suburb level's polygon and the
    /// neighbourhood line both, and shows once (Makati's San Lorenzo Village between a street and its quarter).
    static func neighbourhoodAndSuburb(
        _ p: Placemark, detail: NominatimDetail, maximumRank: Int
    ) -> (neighbourhood: String?, key: String, suburb: String?) {
        let ownAddress = p.finePlaceFeature != nil || p.ownQuarterFeature != nil
        let neighbourhood = detail >= (ownAddress ? .suburb : .street) ? p.neighbourhoodFeature?.name : nil
        let isNeighbourhood =
            neighbourhood != nil
            && p.subLocalityFeature.map { suburb in
                p.neighbourhoodFeature.map { $0.elementType == suburb.elementType && $0.elementID == suburb.elementID } ?? false
            } == true
        let suburb =
            detail.includesSuburbLevel(rank: p.subLocalityFeature?.rank, maximumRank: maximumRank) && !isNeighbourhood ? p.subLocality : nil
        return (neighbourhood, p.neighbourhoodFeature?.addressKey ?? "neighbourhood", suburb)
    }
}
