import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// The text of a record's fields, read straight from the database's text tables: how batches print and
/// how `placemark(from:)` makes its strings, so the two never disagree.
extension ReverseGeocoder {
    /// Appends the field's UTF-8 text to `buffer`; false (and nothing appended) when the field is absent.
    /// This is how batches print: bytes straight from the text tables, no strings made.
    package func appendText(_ field: PlacemarkField, of record: PlacemarkRecord, to buffer: GrowableByteArray) -> Bool {
        appendText(field, of: record, detail: answerDetail(of: record), to: buffer)
    }

    /// `appendText`, with the settings' detail read once by the caller (the name tries up to eight fields).
    private func appendText(_ field: PlacemarkField, of record: PlacemarkRecord, detail: NominatimDetail, to buffer: GrowableByteArray)
        -> Bool
    {
        let before = buffer.count
        var compass: PlacemarkText.CompassText? = nil
        appendFieldText(field, of: record, detail: detail, compass: &compass, to: buffer)
        return buffer.count > before
    }

    /// Appends the fields' texts one after another, each preceded by `delimiter` (the first only when
    /// `delimiterFirst`), an absent field as nothing: the bytes of `appendText` field by field. How a batch writes
    /// a CSV/TSV row: one call per row pays the call and the settings' checks once, not once per field.
    package func appendTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, of record: PlacemarkRecord, delimiter: UInt8, delimiterFirst: Bool,
        to buffer: GrowableByteArray
    ) {
        let detail = answerDetail(of: record)
        var needsDelimiter = delimiterFirst
        // The bearing's compass point, found for the first field printing it and kept for the row's others.
        var compass: PlacemarkText.CompassText? = nil
        for field in fields {
            if needsDelimiter { buffer.append(delimiter) }
            needsDelimiter = true
            appendFieldText(field, of: record, detail: detail, compass: &compass, to: buffer)
        }
    }

    /// `appendTexts`, the run of fields that `memo` (made for these fields and this delimiter) keeps copied from it
    /// when it holds their numbers' text, and kept in it when it did not.
    package func appendTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, of record: PlacemarkRecord, delimiter: UInt8, delimiterFirst: Bool,
        memo: PlacemarkTextMemo, to buffer: GrowableByteArray
    ) {
        var compass: PlacemarkText.CompassText? = nil
        let run = memo.run
        let detail = answerDetail(of: record)
        appendFieldTexts(
            fields, 0..<run.lowerBound, of: record, detail: detail, delimiter: delimiter, delimiterFirst: delimiterFirst,
            compass: &compass, to: buffer)
        if run.lowerBound > 0 || delimiterFirst { buffer.append(delimiter) }
        let key = memo.key(of: record)
        let slot = memo.slot(of: key)
        if !memo.append(key, from: slot, to: buffer) {
            let start = buffer.count
            appendFieldTexts(
                fields, run, of: record, detail: detail, delimiter: delimiter, delimiterFirst: false, compass: &compass, to: buffer)
            memo.keep(buffer.base + start, count: buffer.count &- start, for: key, in: slot)
        }
        appendFieldTexts(
            fields, run.upperBound..<fields.count, of: record, detail: detail, delimiter: delimiter, delimiterFirst: true,
            compass: &compass, to: buffer)
    }

    /// The texts of `fields[range]`, as `appendTexts` writes them.
    private func appendFieldTexts(
        _ fields: UnsafeBufferPointer<PlacemarkField>, _ range: Range<Int>, of record: PlacemarkRecord, detail: NominatimDetail,
        delimiter: UInt8, delimiterFirst: Bool, compass: inout PlacemarkText.CompassText?, to buffer: GrowableByteArray
    ) {
        var needsDelimiter = delimiterFirst
        for index in range {
            if needsDelimiter { buffer.append(delimiter) }
            needsDelimiter = true
            appendFieldText(fields[index], of: record, detail: detail, compass: &compass, to: buffer)
        }
    }

    /// `appendText`'s work, with the settings' detail read once by the caller.
    @inline(__always)
    private func appendFieldText(
        _ field: PlacemarkField, of record: PlacemarkRecord, detail: NominatimDetail, compass: inout PlacemarkText.CompassText?,
        to buffer: GrowableByteArray
    ) {
        if field == .postalCode, record.followsNominatim, detail < .street {
            appendAreaPostcode(of: record, to: buffer)
            return
        }
        if detail < .building, detail < Self.detailNeeded(for: field) { return }
        switch field {
        case .name: appendName(of: record, detail: detail, to: buffer)
        case .thoroughfare:
            if record.street >= 0 {
                append(withStreets { $0.names.bytes(Int(record.street), 0) } ?? nil, to: buffer)
            } else if record.object >= 0 {
                append(objectAddressBytes(record, .street), to: buffer)
            } else {
                append(addressBytes(record, .street), to: buffer)
            }
        case .subThoroughfare:
            if record.object >= 0 {
                append(objectAddressBytes(record, .houseNumber), to: buffer)
            } else {
                append(addressBytes(record, .houseNumber), to: buffer)
            }
        case .locality:
            if record.cityArea >= 0 {
                append(areaBytes(.city, record.cityArea, .name), to: buffer)
            } else {
                append(localityBytes(record.locality, .name), to: buffer)
            }
        case .subLocality:
            if record.suburbArea >= 0 {
                append(areaBytes(.suburb, record.suburbArea, .name), to: buffer)
            } else {
                append(localityBytes(record.subLocality, .name), to: buffer)
            }
        case .administrativeArea: append(areaBytes(.admin, record.admin, .administrativeArea), to: buffer)
        case .administrativeAreaCode: append(areaBytes(.admin, record.admin, .administrativeAreaCode), to: buffer)
        case .countryFromTerritorialWaters:
            if record.country >= 0 {
                buffer.append(record.countryFromTerritorialWaters ? PlacemarkText.trueBytes : PlacemarkText.falseBytes)
            }
        case .subAdministrativeArea:
            if record.district >= 0 {
                append(areaBytes(.district, record.district, .name), to: buffer)
            } else if record.subAdministrativeFromLocality {
                append(localityBytes(record.locality, .admin2), to: buffer)
            } else {
                append(areaBytes(.admin, record.admin, .subAdministrativeArea), to: buffer)
            }
        case .postalCode: appendPostcode(of: record, to: buffer)
        case .country: append(areaBytes(.country, record.country, .name), to: buffer)
        case .isoCountryCode: append(areaBytes(.country, record.country, .code), to: buffer)
        case .timeZone: append(areaBytes(.timezone, record.timeZone, .name), to: buffer)
        case .inlandWater: append(areaBytes(.inlandWater, record.inlandWater, .name), to: buffer)
        case .ocean: append(areaBytes(.ocean, record.ocean, .name), to: buffer)
        case .nearestLocality: append(localityBytes(record.nearest, .name), to: buffer)
        case .distance, .bearing, .description:
            guard record.nearest >= 0,
                PlacemarkText.appendPrefix(
                    field, of: record.nearestBearingParts, metres: record.nearestDistance, compass: &compass, to: buffer)
            else { break }
            if field == .description { append(localityBytes(record.nearest, .name), to: buffer) }
        case .osmType, .osmId:
            guard let element = record.osmElement else { break }
            buffer.append(field == .osmType ? element.type.rawValue : String(element.id))
        }
    }

    /// The answer's postcode: the object's own, else the answering area's or place node's, else the street's (the tagged
    /// one of a place node its address names, the neighbourhood's first: `neighbourhoodPostcodeOfStreet`,
    /// `placeNodePostcodeOfStreet`), else the nearest point's or the address's.
    private func appendPostcode(of record: PlacemarkRecord, to buffer: GrowableByteArray) {
        if let own = objectAddressBytes(record, .postcode), !own.isEmpty {
            buffer.append(own)
        } else if record.postcodeFromAnsweringArea || record.finePlace >= 0 {
            appendAreaPostcode(of: record, to: buffer)
        } else if record.streetPostcode, let code = neighbourhoodPostcodeOfStreet(record) {
            buffer.append(code)
        } else if record.streetPostcode, let node = placeNodePostcodeOfStreet(record) {
            append(areaBytes(.suburb, node, .taggedPostcode), to: buffer)
        } else if record.streetPostcode {
            append(withStreetPostcodes { $0.bytes(Int(record.street), 0) } ?? nil, to: buffer)
        } else if record.postcode >= 0 {
            append(withPoints(.postcode) { $0.records.bytes(Int(record.postcode), 0) } ?? nil, to: buffer)
        } else {
            append(addressBytes(record, .postcode), to: buffer)
        }
    }

    /// Above street level on an OpenStreetMap database, or at street level with no street or object within reach,
    /// the answering suburb's or municipality's own postcode (`OSMAreaPostcodes`), as the server's answer carries
    /// it; where none is named, the county's or state's own (`OSMLevelMapping.placeBoundaries`). An answering place
    /// node's own at any zoom, also where the database has no streets (then no street search marks the record).
    private func appendAreaPostcode(of record: PlacemarkRecord, to buffer: GrowableByteArray) {
        let detail = answerDetail(of: record)
        guard detail >= .city else { return appendUpperAreaPostcode(of: record, to: buffer) }
        if detail >= .suburb, record.finePlace >= 0 {
            // A place node finer than the suburb answers with its own postcode: the tagged one of its address areas,
            // else its nearest point's (`taggedPostcodeArea`).
            if let area = taggedPostcodeArea(of: record) {
                append(areaBytes(area.level, area.feature, .taggedPostcode), to: buffer)
            } else if record.postcode >= 0 {
                append(withPoints(.postcode) { $0.records.bytes(Int(record.postcode), 0) } ?? nil, to: buffer)
            }
        } else if detail >= .suburb, record.suburbArea >= 0 {
            append(areaBytes(.suburb, record.suburbArea, .postcode), to: buffer)
        } else if detail < .suburb || record.subLocality < 0, record.cityArea >= 0 {
            append(areaBytes(.city, record.cityArea, .postcode), to: buffer)
        } else if record.namesNoPlace {
            appendUpperAreaPostcode(of: record, to: buffer)
        }
    }

    /// The answering county's or state's own postcode: Nominatim's answer of such an area carries its `placex.postcode`,
    /// which `placex_update` (lib-sql/functions/placex_triggers.sql) sets to its own `addr:postcode` and, at search
    /// rank 8 and coarser, to nothing else (Saint-Barthélemy's boundary, admin_level 3: 97133).
    private func appendUpperAreaPostcode(of record: PlacemarkRecord, to buffer: GrowableByteArray) {
        guard let area = record.upperArea(at: settings.detail) else { return }
        append(areaBytes(area.level, area.feature, .postcode), to: buffer)
    }

    /// The coarsest detail (Nominatim's zoom levels) at which a field is part of the answer.
    static func detailNeeded(for field: PlacemarkField) -> NominatimDetail {
        switch field {
        case .subThoroughfare: return .building
        case .thoroughfare, .postalCode: return .street
        case .subLocality: return .suburb
        case .locality: return .city
        case .subAdministrativeArea: return .county
        case .administrativeArea, .administrativeAreaCode: return .state
        default: return .country
        }
    }

    /// CLPlacemark's `name`: the most specific thing there is to call the spot.
    private func appendName(of record: PlacemarkRecord, detail: NominatimDetail, to buffer: GrowableByteArray) {
        // A shop, a café, a museum: its own name, as CLPlacemark's.
        if let name = objectBytes(record, .name), !name.isEmpty {
            buffer.append(name)
            return
        }
        // "77 Wells Street", or "Wells Street"; a house number without a street names nothing.
        let start = buffer.count
        if appendText(.subThoroughfare, of: record, detail: detail, to: buffer) {
            buffer.append(UInt8(ascii: " "))
            if appendText(.thoroughfare, of: record, detail: detail, to: buffer) { return }
            buffer.truncate(to: start)
        } else if appendText(.thoroughfare, of: record, detail: detail, to: buffer) {
            return
        }
        // What names a spot without a street, most specific first. Written out, not a loop over a static
        // array: iterating it retained the array per row, on a count both of a batch's threads share.
        _ =
            appendText(.subLocality, of: record, detail: detail, to: buffer)
            || appendText(.locality, of: record, detail: detail, to: buffer)
            || appendText(.inlandWater, of: record, detail: detail, to: buffer)
            || appendText(.ocean, of: record, detail: detail, to: buffer)
            || appendText(.administrativeArea, of: record, detail: detail, to: buffer)
            || appendText(.country, of: record, detail: detail, to: buffer)
    }

    @inline(__always) private func append(_ bytes: UnsafeBufferPointer<UInt8>?, to buffer: GrowableByteArray) {
        if let bytes, !bytes.isEmpty { buffer.append(bytes) }
    }

    @inline(__always) private func areaBytes(_ level: PlacesSchema.AreaLevel, _ feature: Int32, _ text: AreaText) -> UnsafeBufferPointer<
        UInt8
    >? {
        guard feature >= 0 else { return nil }
        return withArea(level) { $0.bytes(Int(feature), text) }
    }

    @inline(__always) private func localityBytes(_ locality: Int32, _ field: PlacesSchema.LocalityField) -> UnsafeBufferPointer<UInt8>? {
        guard locality >= 0 else { return nil }
        return withPoints(.locality) { level in
            // Borrowed: `let names = level.names` took a reference per field, on a count both of a batch's
            // threads share (swift_retain and swift_release under appendText, 3 % of an every-field batch).
            // A pattern, not `==`: another module's enum compared with `==` is a call through its Equatable witness.
            if case .name = field, let names = level.names.map(Unmanaged.passUnretained) {
                let bytes = names._withUnsafeGuaranteedRef { Int(locality) < $0.count ? $0.bytes(Int(locality)) : nil }
                if let bytes { return bytes }
            }
            return Unmanaged.passUnretained(level.records)._withUnsafeGuaranteedRef { $0.bytes(Int(locality), field.rawValue) }
        } ?? nil
    }

    @inline(__always) private func addressBytes(_ record: PlacemarkRecord, _ field: PlacesSchema.AddressField) -> UnsafeBufferPointer<
        UInt8
    >? {
        guard record.address >= 0 else { return nil }
        return withPoints(.address) { $0.records.bytes(Int(record.address), field.rawValue) } ?? nil
    }

    @inline(__always) private func objectBytes(_ record: PlacemarkRecord, _ field: PlacesSchema.ObjectField) -> UnsafeBufferPointer<
        UInt8
    >? {
        guard record.object >= 0 else { return nil }
        return withObjects { $0.names.bytes(Int(record.object), field.rawValue) } ?? nil
    }

    /// An address field of the answering object, or of the building it inherits its address from.
    @inline(__always) func objectAddressBytes(_ record: PlacemarkRecord, _ field: PlacesSchema.ObjectField)
        -> UnsafeBufferPointer<UInt8>?
    {
        guard record.addressObject >= 0 else { return objectBytes(record, field) }
        return withObjects { $0.names.bytes(Int(record.addressObject), field.rawValue) } ?? nil
    }

    /// The strings of a record: the same text the batch prints, field by field.
    public func placemark(from record: PlacemarkRecord) -> Placemark {
        let buffer = GrowableByteArray(capacity: 256)
        func text(_ field: PlacemarkField) -> String? {
            buffer.removeAll()
            return appendText(field, of: record, to: buffer) ? String(decoding: buffer.bytes, as: UTF8.self) : nil
        }
        var placemark = Placemark(location: record.location)
        for field in PlacemarkField.allCases where field.isStoredText { field.setText(text(field), in: &placemark) }
        placemark.countryFromTerritorialWaters = record.country >= 0 && record.countryFromTerritorialWaters
        placemark.feature = answeringFeature(of: record)
        if record.followsNominatim {
            placemark.thoroughfareNamesNoStreet = record.street < 0 && record.object >= 0 && placemark.thoroughfare != nil
            placemark.localityFeature = areaFeature(.city, record.cityArea, rank: 16, location: record.location)
            placemark.enclosingMunicipalityFeature = enclosingMunicipality(of: record)
            placemark.subLocalityFeature = areaFeature(.suburb, record.suburbArea, rank: 20, location: record.location)
            if record.neighbourhoodArea >= 0 {
                placemark.neighbourhoodFeature = areaFeature(.suburb, record.neighbourhoodArea, rank: 24, location: record.location)
            } else if record.neighbourhood >= 0 {
                placemark.neighbourhoodFeature = neighbourhoods?._withUnsafeGuaranteedRef { $0.feature(record.neighbourhood) }
            }
            placemark.villagePartFeature = areaFeature(.suburb, record.villagePart, rank: 20, location: record.location)
            placemark.addressPlaceLines = addressPlaceLines(of: record)
            placemark.suburbBoundaryFeature = areaFeature(.suburb, record.suburbBoundaryLine, rank: 20, location: record.location)
            if record.finePlace >= 0, settings.detail >= .suburb {
                placemark.finePlaceFeature = lookup.finePlaceNodes()?.feature(record.finePlace, postcode: placemark.postalCode)
                if record.quarter >= 0 { placemark.ownQuarterFeature = lookup.finePlaceNodes()?.feature(record.quarter, postcode: nil) }
            } else if record.quarterArea >= 0, settings.detail >= .suburb {
                placemark.finePlaceFeature = areaFeature(.suburb, record.quarterArea, rank: 22, location: record.location)
            } else if record.quarter >= 0, settings.detail >= .suburb {
                // A polygon answering is its own neighbourhood line, its quarter is of its own address
                // (`takeOwnQuarterOfAnsweringPolygon`): not the answer.
                let quarter = lookup.finePlaceNodes()?.feature(record.quarter, postcode: nil)
                let ofPolygon =
                    record.street < 0 && record.object < 0 && record.neighbourhoodArea >= 0 && record.neighbourhoodArea == record.suburbArea
                if ofPolygon { placemark.ownQuarterFeature = quarter } else { placemark.finePlaceFeature = quarter }
            }
            // The extract's own boundaries answer at zooms 3-9 (an embedded polygon has no element: nil).
            placemark.subAdministrativeAreaFeature = areaFeature(.district, record.district, rank: 12, location: record.location)
            placemark.administrativeAreaFeature = areaFeature(.admin, record.admin, rank: 8, location: record.location)
            placemark.countryFeature = areaFeature(.country, record.country, rank: 4, location: record.location)
        }
        if record.nearest >= 0, let name = text(.nearestLocality),
            let place = withPoints(.locality, { $0.records.coordinate(Int(record.nearest)) }) ?? nil
        {
            placemark.nearestLocality = NearbyPlace(
                name: name, coordinate: place, distanceMetres: record.nearestDistance,
                bearingDegrees: record.nearestBearing)
        }
        return placemark
    }
}
