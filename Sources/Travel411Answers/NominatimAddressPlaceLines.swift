import Travel411Geocoder

extension NominatimPlace {
    /// The answering object's `addr:place` lines (`Placemark.addressPlaceLines`: its parent place)
    /// among `parts`, after the road, finest first: Nominatim's `complete_address_details` (`nominatim_api/results.py`,
    /// 5.3) adds a rank-30 object's parent as a line of its own and sorts the lines by rank, and the parent's own address
    /// lines are all coarser than it. A line whose name the address already has (the polygon holding the object is its
    /// parent) is not added again. At building detail only: a street or area answering has no such parent.
    static func insertAddressPlaceLines(into parts: inout [(NominatimDetail, String, String?)], _ p: Placemark, detail: NominatimDetail) {
        guard detail >= .building, !p.addressPlaceLines.isEmpty else { return }
        let present = Set(parts.compactMap(\.2))
        let afterRoad = (parts.firstIndex { $0.1 == "road" } ?? parts.count - 1) + 1
        let lines = p.addressPlaceLines.filter { !present.contains($0.name) }.sorted { $0.rank > $1.rank }
        parts.insert(contentsOf: lines.map { (NominatimDetail.building, $0.key, $0.name) }, at: min(afterRoad, parts.count))
    }
}
