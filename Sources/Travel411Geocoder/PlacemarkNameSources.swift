import Travel411Core

extension ReverseGeocoder {
    /// Sets the placemark's `thoroughfareFeature`, which an answer in another language (or with namedetails)
    /// names its road after. Not part of `placemark(from:)`: an answer in `name` need not pay for it.
    public func addNameSources(to placemark: inout Placemark, from record: PlacemarkRecord) {
        guard record.followsNominatim else { return }
        // The street alone, as it would answer: an address's or POI's parent street, else the answering street.
        var street = record
        street.object = -1
        street.streetAnswers = true
        placemark.thoroughfareFeature = record.street >= 0 ? answeringFeature(of: street) : nil
    }

    /// The placemark of a point with its name sources (`addNameSources`).
    public func placemarkWithNameSources(for coordinate: Coordinate) -> Placemark {
        let record = record(for: coordinate)
        var placemark = placemark(from: record)
        addNameSources(to: &placemark, from: record)
        return placemark
    }
}
