import Travel411Core
import Travel411Store

/// The state and county of a Nominatim answer are its answering place's, not the query point's: `reverse.py` returns
/// the place's `placex` row and `get_addressdata` prints the address lines gathered for it at import. Those of a place
/// node or a point object without a street are gathered around its centroid (`placex_update` in
/// `lib-sql/functions/placex_triggers.sql` passes `NEW.centroid` to `insert_addresslines` for every geometry but a
/// line), those of a street along its line, and an object with a parent street takes the street's (`placex_update`'s
/// shortcut for `rank_search > 27`); of a street's lines, `complete_address_details` (`nominatim_api/results.py`)
/// puts first the one holding the result's point (a street's point nearest the query, an object's own point). So in
/// Gibraltar's waters, outside the land boundary of its admin_level 4, a point answered by the town node or by a road
/// on the shore names the state the node or road lies in.
///
/// As `takeAreasOfTheAnswer` does for the municipality: a street's area is the one holding its point nearest the
/// query, else its centroid's; an object's, the one holding its point when its street passes through it there (at the
/// street's point nearest the object) or holds the street's centroid, else the street's own; a place node's, its
/// point's. Only areas at points of the answered country count, after the areas of another country are dropped;
/// where none is found, the query point's stays.
extension ReverseGeocoder {
    func takeUpperAreasOfTheAnswer(
        _ record: inout PlacemarkRecord, objects: PlacesLookup.LineLevel?, streets: PlacesLookup.LineLevel?, needs: PlacemarkNeeds
    ) {
        guard record.country >= 0, let points = answerPoints(of: record, objects: objects, streets: streets) else { return }
        if needs.contains(.admin), let admin = area(.admin, of: points, country: record.country) {
            record.admin = admin
            dropAdminOfAnotherCountry(&record)
        }
        if needs.contains(.district), let district = area(.district, of: points, country: record.country) {
            record.district = district
        }
    }

    /// The points an answer's areas are looked up at: `own`, the place's point (an object's or a node's, a street's
    /// point nearest the query); `street`, its street's point nearest it and the street's centroid.
    private struct AnswerPoints {
        var own: Coordinate?
        var street: [Coordinate] = []
        var isObject = false
    }

    private func area(_ level: PlacesSchema.AreaLevel, of points: AnswerPoints, country: Int32) -> Int32? {
        func at(_ point: Coordinate?) -> Int32 {
            guard let point else { return -1 }
            let holding = feature(.country, point.longitude, point.latitude)
            guard holding >= 0, isCountry(holding, sameAs: country) else { return -1 }
            return feature(level, point.longitude, point.latitude)
        }
        let own = at(points.own)
        let alongStreet = points.street.map { at($0) }
        if points.isObject, !alongStreet.isEmpty {
            // The street's lines: the one holding the object first, else the street's own (its centroid's).
            if own >= 0, alongStreet.contains(own) { return own }
            return alongStreet.last.flatMap { $0 >= 0 ? $0 : nil } ?? (own >= 0 ? own : nil)
        }
        if own >= 0 { return own }
        return alongStreet.first { $0 >= 0 }
    }

    private func answerPoints(
        of record: PlacemarkRecord, objects: PlacesLookup.LineLevel?, streets: PlacesLookup.LineLevel?
    ) -> AnswerPoints? {
        let streetCentroid: Coordinate? =
            record.street >= 0
            ? streets.flatMap { Self.point($0.names.bytes(Int(record.street), PlacesSchema.StreetField.centroid.rawValue)) } : nil
        if record.object >= 0, !record.streetAnswers {
            guard let objects, let centre = Self.centre(of: UInt32(record.object), objects: objects) else { return nil }
            var points = AnswerPoints(own: centre, isObject: true)
            if record.street >= 0, let streets, let centroid = streetCentroid {
                let street = UInt32(record.street)
                let extent = Self.extent(ofStreet: street, streets: streets)
                let nearest = Self.nearestPoint(of: street, to: centre, streets: streets, extent: extent)
                points.street = [nearest, centroid].compactMap { $0 }
            }
            return points
        }
        if record.streetAnswers, record.street >= 0 {
            return AnswerPoints(own: record.streetPoint, street: [streetCentroid].compactMap { $0 })
        }
        guard record.street < 0, record.object < 0, let node = answeringPlaceNode(of: record) else { return nil }
        return AnswerPoints(own: node.location)
    }

    /// The place node a Nominatim answer without street or object is about, in `NominatimSubject`'s order: the
    /// quarter or finer place, else the suburb, else the municipality; nil when that area is a polygon or a suburb
    /// from the places layer, or none is named.
    private func answeringPlaceNode(of record: PlacemarkRecord) -> AnsweringFeature? {
        let answer: AnsweringFeature?
        let detail = answerDetail(of: record)
        if record.finePlace >= 0, detail >= .suburb {
            answer = lookup.finePlaceNodes()?.feature(record.finePlace, postcode: nil)
        } else if record.suburbArea >= 0, detail >= .suburb {
            answer = areaFeature(.suburb, record.suburbArea, rank: Self.suburbAreaRank, location: record.location)
        } else if record.subLocality >= 0, detail >= .suburb {
            answer = nil
        } else if record.cityArea >= 0, detail >= .city {
            answer = areaFeature(.city, record.cityArea, rank: 16, location: record.location)
        } else {
            answer = nil
        }
        guard let answer, answer.elementType == .node else { return nil }
        return answer
    }
}
