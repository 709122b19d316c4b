import Foundation
import Travel411Core
import Travel411Store

/// Why a point's country, city, suburb and postcode are what they are (`where --explain`, the server's `debug=1`):
/// the object or area each came from, with its source and the rule that chose it, and the candidates a user doubting
/// an answer at a border asks about: the countries a kilometre around, the municipality, suburb or neighbourhood of
/// another country left out, and the nearest postcode points with their countries and why each did or did not answer.
extension ReverseGeocoder {
    public func explanation(for coordinate: Coordinate) -> [String] {
        explanation(for: coordinate, maximumRank: settings.maximumRank, detail: settings.detail, layers: settings.layers)
    }

    /// The explanation of the answer to a server's request: at its zoom, with its `layer`.
    public func explanation(for coordinate: Coordinate, zoom: Int, layers: ReverseLayers = .standard) -> [String] {
        explanation(
            for: coordinate, maximumRank: NominatimDetail.maximumRank(zoom: zoom), detail: NominatimDetail(zoom: zoom), layers: layers)
    }

    private func explanation(for coordinate: Coordinate, maximumRank: Int, detail: NominatimDetail, layers: ReverseLayers) -> [String] {
        let answered = record(for: coordinate, needs: .all, maximumRank: maximumRank, layers: layers, otherCountriesAreas: false)
        // The same answer with the areas of other countries kept: what the country rule left out.
        let unchecked = record(for: coordinate, needs: .all, maximumRank: maximumRank, layers: layers, otherCountriesAreas: true)
        let detail = answerDetail(of: answered, detail: detail, maximumRank: maximumRank)
        return explainCountry(answered) + explainCity(answered, unchecked, detail: detail)
            + explainSuburb(answered, unchecked, detail: detail) + explainPostcode(answered, detail: detail)
            + interpolationExplanation(answered)
    }

    private func text(_ level: PlacesSchema.AreaLevel, _ feature: Int32, _ field: PlacesLookup.AreaText) -> String? {
        guard feature >= 0, let bytes = withArea(level, { $0.bytes(Int(feature), field) }), !bytes.isEmpty else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// "relation 123" for an extract's element, "Natural Earth" (or another shapefile) for none.
    private func source(_ level: PlacesSchema.AreaLevel, _ feature: Int32) -> String {
        guard let element = lookup.osmElement(ofArea: level, feature: Int(feature)) else {
            if level == .country, lookup.isCountryGridPiece(ofArea: level, feature: Int(feature)) {
                return "a piece of Nominatim's country grid (country_osm_grid, smallest first)"
            }
            return "a shapefile's polygon (Natural Earth's for the embedded data)"
        }
        return "OpenStreetMap \(element.type) \(element.id) (\(element.category)=\(element.value))"
    }

    private func countryName(_ feature: Int32) -> String {
        guard feature >= 0 else { return "none" }
        return "\(text(.country, feature, .name) ?? "?") (\(text(.country, feature, .code) ?? "?"))"
    }

    private func explainCountry(_ record: PlacemarkRecord) -> [String] {
        var lines = ["country: \(countryName(record.country))"]
        guard record.country >= 0 else { return lines + ["  no country polygon holds the point, none within the snapping distance"] }
        // A Nominatim answer's country is its answering street's or object's (`CountryOfTheAnswer`): the only rule
        // that gives a point held by a country polygon another country.
        let holding = feature(.country, record.location.longitude, record.location.latitude)
        let ofTheAnswer = holding >= 0 && !isCountry(holding, sameAs: record.country)
        if ofTheAnswer {
            lines.append("  the answering street's or object's own country (decided at import from its centroid, as Nominatim's")
            lines.append("  placex.country_code), not the point's: \(countryName(holding)); its areas of the point's country go")
        }
        let held = ofTheAnswer ? "its centroid" : "the point"
        lines.append("  from \(source(.country, record.country)): the first country polygon holding \(held); an extract's own")
        lines.append("  admin_level 2 polygon replaces Natural Earth's polygon of the same country at import; around an extract,")
        lines.append("  Nominatim's country grid comes before Natural Earth's (get_country_code)")
        // The polygons around: which country answers a kilometre away in each direction.
        var around: [String] = []
        for (name, bearing) in [("N", 0.0), ("E", 90.0), ("S", 180.0), ("W", 270.0)] {
            let point = GreatCircle.destination(from: record.location, distance: 1_000, bearing: bearing)
            let other = feature(.country, point.longitude, point.latitude)
            if other != record.country { around.append("1 km \(name): \(countryName(other))") }
        }
        lines.append(
            around.isEmpty
                ? "  1 km around in every direction: the same country" : "  other countries near: " + around.joined(separator: ", "))
        return lines
    }

    private func explainCity(_ record: PlacemarkRecord, _ unchecked: PlacemarkRecord, detail: NominatimDetail) -> [String] {
        guard record.followsNominatim else { return [] }
        guard detail >= .city else { return ["city: not part of an answer at this zoom (Nominatim names a city from zoom 10)"] }
        guard record.cityArea >= 0, let city = areaFeature(.city, record.cityArea, rank: 16, location: record.location) else {
            return ["city: none from the extract (no municipality polygon or place node's area holds the point)"]
                + otherCountrysArea(.city, unchecked.cityArea, record)
        }
        var lines = [
            "city: \(city.name ?? "?") (key \(city.addressKey ?? "city"), rank \(city.rank)) from \(source(.city, record.cityArea))"
        ]
        if let named = withObjects({ addressCity(of: record, objects: $0) }) ?? nil, named == record.cityArea {
            lines.append("  named by the answering object's own addr:city: of the municipalities of that name within 0.16°, the one")
            lines.append("  holding the object, else the nearest (get_address_place); before its street's (complete_address_details)")
        } else if city.elementType == .node {
            lines.append("  the area around the place node (place_node_fuzzy_area), its distance weighted by rank (a city's x0.25, a")
            lines.append("  town's x0.5, a village's x1) against the other nodes reaching the point (insert_addresslines)")
        } else {
            lines.append("  the finest municipality polygon holding the point, by its address rank in its country (address-levels.json)")
        }
        if let enclosing = enclosingMunicipality(of: record) {
            lines.append(
                "  inside \(enclosing.name ?? "?") (key \(enclosing.addressKey ?? "municipality"), rank 13-15), a coarser municipality: "
                    + "an address line of its own after it (insert_addresslines takes every polygon holding the place)")
        }
        return lines
    }

    /// The suburb or city district, where the extract's rules answer: the polygon or place node's area it came from,
    /// and the suburb or neighbourhood of another country left out.
    private func explainSuburb(_ record: PlacemarkRecord, _ unchecked: PlacemarkRecord, detail: NominatimDetail) -> [String] {
        guard record.followsNominatim else { return [] }
        guard detail >= .suburb else {
            return ["suburb: not part of an answer at this zoom (Nominatim names a suburb from zoom 14, a suburb or village node from 13)"]
        }
        var lines = ["suburb: none"]
        if record.suburbArea >= 0, let suburb = areaFeature(.suburb, record.suburbArea, rank: 20, location: record.location) {
            let key = suburb.addressKey ?? "suburb"
            lines = ["suburb: \(suburb.name ?? "?") (key \(key), rank \(suburb.rank)) from \(source(.suburb, record.suburbArea))"]
        }
        lines += otherCountrysArea(.suburb, unchecked.suburbArea, record)
        if record.finePlace >= 0, let node = lookup.finePlaceNodes()?.node(record.finePlace) {
            lines.append(
                "  the answer is the \(node.type) \(node.name) (OpenStreetMap node \(node.elementID), rank \(node.rank)), named above it: "
                    + "the place node of the highest rank within its reach (_lookup_area_address, lookup_country)")
        }
        if unchecked.neighbourhood >= 0, record.neighbourhood < 0,
            let node = neighbourhoods?._withUnsafeGuaranteedRef({ $0.node(unchecked.neighbourhood) })
        {
            lines.append(
                "  skipped the neighbourhood \(node.name) (OpenStreetMap node \(node.elementID)): in "
                    + "\(countryName(feature(.country, node.x, node.y))), the answer is in \(text(.country, record.country, .code) ?? "?")")
        }
        return lines
    }

    /// The area of `level` the answer left out because it is of another country than the answered one
    /// (`dropAreasOfAnotherCountry`): `unchecked`, the area before that rule; nothing when the rule left none out.
    private func otherCountrysArea(_ level: PlacesSchema.AreaLevel, _ unchecked: Int32, _ record: PlacemarkRecord) -> [String] {
        let kept = level == .city ? record.cityArea : record.suburbArea
        guard unchecked >= 0, unchecked != kept, let own = withArea(level, { $0.countryFeature(of: unchecked) }), own >= 0 else {
            return []
        }
        return [
            "  skipped \(text(level, unchecked, .name) ?? "?") from \(source(level, unchecked)): in \(countryName(own)), the answer is in "
                + "\(text(.country, record.country, .code) ?? "?") (insert_addresslines: areas of the place's own country only)"
        ]
    }

    /// The postcode and the rule that gave it, in the order the answer takes them (`appendText`'s `postalCode`); then
    /// the nearest postcode points, which decide only when that order comes to them, each marked not used otherwise.
    private func explainPostcode(_ record: PlacemarkRecord, detail: NominatimDetail) -> [String] {
        let answered = placemark(from: record).postalCode
        let (rule, nearestDecides) = postcodeRule(record, detail: detail)
        return ["postcode: \(answered ?? "none")", "  decided by: " + rule] + postcodeCandidates(record, used: nearestDecides)
    }

    /// The rule that gave the answer's postcode, and whether that is the nearest postcode point around the point.
    private func postcodeRule(_ record: PlacemarkRecord, detail: NominatimDetail) -> (rule: String, nearestDecides: Bool) {
        let objectField = PlacesSchema.ObjectField.postcode.rawValue, addressField = PlacesSchema.AddressField.postcode.rawValue
        if record.object >= 0, !(withObjects({ $0.names.bytes(Int(record.object), objectField)?.isEmpty ?? true }) ?? true) {
            return (
                record.interpolation >= 0 ? "the interpolation line's own addr:postcode" : "the answering object's own addr:postcode", false
            )
        }
        if record.addressObject >= 0,
            !(withObjects({ $0.names.bytes(Int(record.addressObject), objectField)?.isEmpty ?? true }) ?? true)
        {
            return ("the addr:postcode of the building whose address the answering node inherits (placex_indexing_prepare)", false)
        }
        if detail >= .suburb, record.finePlace >= 0 {
            let beyond = record.postcodeFromAnsweringArea ? "no street or object within reach, so " : ""
            return (beyond + placeNodePostcodeRule(record), false)
        }
        if record.postcodeFromAnsweringArea {
            let beyond = "no street or object within reach, so the answering area's own postcode"
            if detail < .city || record.namesNoPlace, let area = record.upperArea(at: detail) {
                let kind = area.level == .district ? "county" : "state"
                return ("\(beyond): the \(kind) \(text(area.level, area.feature, .name) ?? "?")'s", false)
            }
            if detail < .city { return ("\(beyond), which this zoom does not show", false) }
            if detail >= .suburb, record.suburbArea >= 0 {
                return ("\(beyond): the suburb \(text(.suburb, record.suburbArea, .name) ?? "?")'s", false)
            }
            if detail < .suburb || record.subLocality < 0, record.cityArea >= 0 {
                return ("\(beyond): the municipality \(text(.city, record.cityArea, .name) ?? "?")'s", false)
            }
            return ("\(beyond): the answer is the country alone, which has none", false)
        }
        if record.streetPostcode, neighbourhoodPostcodeOfStreet(record) != nil,
            let node = neighbourhoods?._withUnsafeGuaranteedRef({ $0.node(record.neighbourhood) })
        {
            let rule = "the finest place node of the street's address with one (insert_addresslines in placex_update)"
            return ("the tagged postcode of the neighbourhood \(node.name), \(rule)", false)
        }
        if record.streetPostcode, let node = placeNodePostcodeOfStreet(record) {
            let name = text(.suburb, node, .name) ?? "?"
            let rule = "the finest place node of the street's address with one (insert_addresslines in placex_update)"
            return ("the tagged postcode of \(name), \(rule)", false)
        }
        if record.streetPostcode {
            let street =
                record.streetAnswers
                ? "the answering street's"
                : record.interpolation >= 0 ? "the interpolation line's parent street's" : "the answering object's parent street's"
            return ("\(street) postcode (its postal_code area, else the nearest postcode of its country)", false)
        }
        if record.postcode >= 0 { return ("the nearest postcode point the answered country may take", true) }
        if record.address >= 0, !(withPoints(.address, { $0.records.bytes(Int(record.address), addressField)?.isEmpty ?? true }) ?? true) {
            return ("the answering address point's own postcode", false)
        }
        return ("the nearest postcode point the answered country may take: none within reach", true)
    }

    /// How the answering place node's postcode was chosen, as `appendAreaPostcode` writes it (`taggedPostcodeArea`).
    private func placeNodePostcodeRule(_ record: PlacemarkRecord) -> String {
        if let area = taggedPostcodeArea(of: record) {
            let kind: String
            switch area.level {
            case .suburb: kind = "suburb"
            case .city: kind = "municipality"
            case .district: kind = "county"
            default: kind = "state"
            }
            let name = text(area.level, area.feature, .name) ?? "?"
            return "the answering place node's postcode: the tagged postcode (addr:postcode or postal_code, its own or, for an area "
                + "drawn around a place node, the boundary's holding the node) of its \(kind) \(name), the finest of its address "
                + "areas with one, which a place inherits before any nearest postcode (insert_addresslines in placex_update)"
        }
        let none = "no address area of it (suburb, municipality, county, state) has a tagged postcode"
        guard record.postcode >= 0 else {
            return "the answering place node has none: \(none), and no postcode point of its country is around it"
        }
        return "the answering place node's own postcode, the nearest of its country around the node (get_nearest_postcode): \(none)"
            + " (an area's postcode computed from the postcode points is not passed on)"
    }

    /// The four nearest postcode points within the postcode radius, each with its distance, its country and
    /// whether the answered country may take it (`takeNearestPostcodeOfTheCountry`); each "not used" when another rule
    /// gave the postcode (`used` false).
    private func postcodeCandidates(_ record: PlacemarkRecord, used: Bool) -> [String] {
        let radius = settings(for: record).postcodeRadiusMetres
        let answeredCode = text(.country, record.country, .code)
        let countrySettings = NominatimCountrySettings.embedded
        var lines: [String] = []
        _ = withPoints(.postcode, near: record.location, within: radius) { points in
            var seen: Set<UInt32> = []
            let query = PointIndex.Query(record.location)
            for _ in 0..<4 {
                guard
                    let found = points.index.nearest(
                        to: query, maxChord: PointIndex.chord(metres: radius), where: { [seen] in !seen.contains($0) })
                else { break }
                seen.insert(found)
                let code = points.records.bytes(Int(found), 0).map { String(decoding: $0, as: UTF8.self) } ?? "?"
                guard let at = points.records.coordinate(Int(found)) else {
                    lines.append("  candidate \(code): position not kept (a database without an extract)")
                    continue
                }
                let metres = Int(GreatCircle.distance(from: record.location, to: at).rounded())
                let holder = feature(.country, at.longitude, at.latitude)
                let holderCode = text(.country, holder, .code)
                var verdict = Int32(found) == record.postcode ? "answers" : "may answer"
                if !used {
                    verdict = "not used"
                } else if let answeredCode, let countrySettings, countrySettings.postcode(code, countryCode: answeredCode) != code {
                    verdict = "skipped: not of \(answeredCode)'s postcode pattern (country_settings.yaml)"
                } else if let answeredCode, let holderCode, holderCode != answeredCode {
                    verdict = "skipped: in \(countryName(holder)), the answer is in \(answeredCode) (get_nearest_postcode)"
                }
                lines.append("  candidate \(code): \(metres) m, in \(countryName(holder)); \(verdict)")
            }
        }
        return lines.isEmpty ? ["  no postcode point within \(Int(radius)) m"] : lines
    }
}
