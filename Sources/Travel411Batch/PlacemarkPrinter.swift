import Travel411Core
import Travel411Geocoder
import Travel411Store

/// What the batch writer needs of a geocoder: an answer per point as plain numbers, and each
/// field's text appended to a byte buffer when printed. No strings and no shared reference counts
/// on the per-row path, so that worker threads do not slow each other down.
package protocol PlacemarkPrinter: AnyObject, Sendable {
    func record(for coordinate: Coordinate, needs: PlacemarkNeeds) -> PlacemarkRecord
    /// Appends the field's UTF-8 text; false, with nothing appended, when the field is absent.
    func appendText(_ field: PlacemarkField, of record: PlacemarkRecord, to buffer: GrowableByteArray) -> Bool
    /// Appends the fields' texts, each preceded by `delimiter` (the first only when `delimiterFirst`), unquoted:
    /// `appendText` field by field. The geocoder writes them in one call (`ReverseGeocoder.appendTexts`).
    func appendTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, of record: PlacemarkRecord, delimiter: UInt8, delimiterFirst: Bool,
        to buffer: GrowableByteArray)
    /// The same bytes, the geocoder's run of country, time zone and water fields copied from `memo` (made for these
    /// fields) when that holds it.
    func appendTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, of record: PlacemarkRecord, delimiter: UInt8, delimiterFirst: Bool,
        memo: PlacemarkTextMemo, to buffer: GrowableByteArray)
    /// Cache hints for a point `record(for:needs:)` will be asked about a few rows later, in stages
    /// (`ReverseGeocoder.prefetch`); changes no answer.
    func prefetch(_ spot: LookupPrefetch.Spot, stage: Int, needs: PlacemarkNeeds)
    /// A row's hints at once: stage 0 for `stages.0`, 1 for `stages.1`, 2 for `stages.2` (`.none`: no hint), as
    /// `prefetch(_:stage:needs:)` gives them one by one (`ReverseGeocoder.prefetch(stages:needs:)`).
    func prefetch(stages: (LookupPrefetch.Spot, LookupPrefetch.Spot, LookupPrefetch.Spot), needs: PlacemarkNeeds)
    /// Cache hints for the texts of a decided record, before its fields are printed
    /// (`ReverseGeocoder.prefetchTexts`); changes no answer.
    func prefetchTexts(of record: PlacemarkRecord, needs: PlacemarkNeeds)
}

extension PlacemarkPrinter {
    func appendTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, of record: PlacemarkRecord, delimiter: UInt8, delimiterFirst: Bool,
        to buffer: GrowableByteArray
    ) {
        var needsDelimiter = delimiterFirst
        for field in fields {
            if needsDelimiter { buffer.append(delimiter) }
            needsDelimiter = true
            _ = appendText(field, of: record, to: buffer)
        }
    }

    /// Field by field, `memo` unused: a printer's texts may follow more than the record's numbers.
    func appendTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, of record: PlacemarkRecord, delimiter: UInt8, delimiterFirst: Bool,
        memo: PlacemarkTextMemo, to buffer: GrowableByteArray
    ) {
        appendTexts(fields, of: record, delimiter: delimiter, delimiterFirst: delimiterFirst, to: buffer)
    }
}

extension PlacemarkPrinter {
    func prefetch(stages spots: (LookupPrefetch.Spot, LookupPrefetch.Spot, LookupPrefetch.Spot), needs: PlacemarkNeeds) {
        if !spots.0.isNone { prefetch(spots.0, stage: 0, needs: needs) }
        if !spots.1.isNone { prefetch(spots.1, stage: 1, needs: needs) }
        if !spots.2.isNone { prefetch(spots.2, stage: 2, needs: needs) }
    }
}

extension ReverseGeocoder: PlacemarkPrinter {}

/// Prints placemarks from any function (tests, other callers), computing the placemark again for
/// each field: exact, and fast enough for anything but the hot path.
final class ClosurePlacemarkPrinter: PlacemarkPrinter, Sendable {
    private let geocode: @Sendable (Coordinate) -> Placemark

    init(_ geocode: @escaping @Sendable (Coordinate) -> Placemark) { self.geocode = geocode }

    func record(for coordinate: Coordinate, needs: PlacemarkNeeds) -> PlacemarkRecord { PlacemarkRecord(location: coordinate) }

    func prefetch(_ spot: LookupPrefetch.Spot, stage: Int, needs: PlacemarkNeeds) {}

    func prefetchTexts(of record: PlacemarkRecord, needs: PlacemarkNeeds) {}

    func appendText(_ field: PlacemarkField, of record: PlacemarkRecord, to buffer: GrowableByteArray) -> Bool {
        guard let text = field.text(in: geocode(record.location)), !text.isEmpty else { return false }
        buffer.append(text)
        return true
    }
}
