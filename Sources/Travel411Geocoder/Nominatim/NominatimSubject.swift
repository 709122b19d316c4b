/// What a Nominatim answer at a detail is about: the finest address level the placemark names there, and the
/// OpenStreetMap object that answers, a street or building (`feature`) or else the area of that level. The
/// Nominatim answers print it, and batches' `osmType`/`osmId` name its element, so both name the same object.
package struct NominatimSubject {
    package let level: NominatimDetail
    /// The placemark's name at `level` (the house number at `.building`).
    package let finestName: String?
    package let feature: AnsweringFeature?
    package let area: AnsweringFeature?

    /// The OpenStreetMap element answering (`way`, 123), nil when no single object does.
    package var element: (type: String, id: Int64)? {
        (feature ?? area).map { ($0.elementType.rawValue, $0.elementID) }
    }
}

extension Placemark {
    /// Whether a Nominatim answer prints the house number: beside its street, or as an OpenStreetMap object's own
    /// without one (a house numbered in a place, `addr:place`: `_setup_address_details`, nominatim_api/results.py,
    /// adds the object's number whatever its parent).
    package var printsHouseNumber: Bool { thoroughfare != nil || (feature?.rank ?? 0) >= 30 }

    /// nil when the point has no answer at this detail (at sea, or nothing known): "Unable to geocode". `maximumRank`,
    /// the zoom's (`NominatimDetail.maximumRank(zoom:)`), lets a suburb or village node answer at zooms 12-13.
    package func nominatimSubject(detail: NominatimDetail, maximumRank: Int) -> NominatimSubject? {
        guard namesAPlace else { return nil }
        func upTo<T>(_ level: NominatimDetail, _ value: T?) -> T? { detail >= level ? value : nil }
        let houseNumber = printsHouseNumber ? upTo(.building, subThoroughfare) : nil
        let named: [(NominatimDetail, String?)] = [
            (.building, houseNumber), (.street, upTo(.street, thoroughfare)),
            (.suburb, suburbLevelName(detail: detail, maximumRank: maximumRank)),
            (.city, upTo(.city, locality)), (.county, upTo(.county, subAdministrativeArea)),
            (.state, upTo(.state, administrativeArea)), (.country, country),
        ]
        guard let finest = named.first(where: { $0.1 != nil }) else { return nil }
        let feature = self.feature.flatMap { detail >= ($0.rank >= 30 ? .building : .street) ? $0 : nil }
        // Without a street or building, the area the level names, when an extract gave it: the municipality's
        // boundary, the suburb's node, the country's boundary.
        var area: AnsweringFeature?
        if feature == nil {
            switch finest.0 {
            case .suburb: area = detail >= .suburb ? finePlaceFeature ?? subLocalityFeature : subLocalityFeature
            case .city: area = localityFeature
            case .county: area = subAdministrativeAreaFeature
            case .state: area = administrativeAreaFeature
            case .country: area = countryFeature
            case .street, .building: area = nil
            }
        }
        return NominatimSubject(level: finest.0, finestName: finest.1, feature: feature, area: area)
    }

    /// The answer's name at the suburb level: the finer place node's, else the suburb's, each where the detail
    /// includes it (`NominatimDetail.includesSuburbLevel`): below zoom 14 the suburb of a rank the zoom reaches alone.
    package func suburbLevelName(detail: NominatimDetail, maximumRank: Int) -> String? {
        if detail >= .suburb { return finePlaceFeature?.name ?? subLocality }
        return detail.includesSuburbLevel(rank: subLocalityFeature?.rank, maximumRank: maximumRank) ? subLocality : nil
    }
}
