extension ReverseGeocoder {
    /// Sets the placemark's `thoroughfareFeature` and the boundaries behind its areas, which an answer in
    /// another language (or with namedetails) is named after. Not part of `placemark(from:)`: a boundary's
    /// element is read from the database (once per area), which an answer in `name` need not pay for.
    public func addNameSources(to placemark: inout Placemark, from record: PlacemarkRecord) {
        guard osmRules != nil else { return }
        // The street alone, as it would answer: an address's or POI's parent street, else the answering street.
        var street = record
        street.object = -1
        street.streetAnswers = true
        placemark.thoroughfareFeature = record.street >= 0 ? answeringFeature(of: street) : nil
        placemark.subAdministrativeAreaFeature = areaFeature(.district, record.district, rank: 12, location: record.location)
        placemark.administrativeAreaFeature = areaFeature(.admin, record.admin, rank: 8, location: record.location)
        placemark.countryFeature = areaFeature(.country, record.country, rank: 4, location: record.location)
    }

    /// The placemark of a point with its name sources (`addNameSources`).
    public func placemarkWithNameSources(for coordinate: Coordinate) -> Placemark {
        let record = record(for: coordinate)
        var placemark = placemark(from: record)
        addNameSources(to: &placemark, from: record)
        return placemark
    }
}
