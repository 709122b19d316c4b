import Foundation

/// An element as the reader hands it over: its tags and its geometry.
struct OSMTaggedElement {
    enum Geometry {
        case point(Point2D)
        /// A way's located nodes; `isClosed` when its first and last node are the same.
        case line([Point2D], isClosed: Bool)
        case area(Shape)
    }

    var element: OSMElementID
    var tags: [String: String]
    var geometry: Geometry
    var firstNode: Int64 = 0
    var lastNode: Int64 = 0
    var firstHousenumber: String?
    var lastHousenumber: String?
}

/// Turns an element's tags into the features the importer takes (see OSMFeatureKind), as Nominatim reads them.
/// Addresses and POIs on ways come from the way itself (a point on the surface of a closed way, halfway along
/// an open one), so that a building whose ring libosmium refuses (it crosses itself) keeps its address; those
/// on multipolygon relations come from the assembled area. Places and boundaries on areas are polygons.
enum OSMFeatureClassifier {
    /// The keys that make a named element a POI, in the order that picks the POI's key when it has several.
    static let pointOfInterestKeys = ["amenity", "shop", "tourism", "leisure", "historic", "office", "craft", "healthcare", "emergency"]

    /// Which elements libosmium hands over at all (the rest never crosses into Swift).
    static let nodeKeys = ["addr:housenumber", "place"] + pointOfInterestKeys
    static let lineKeys = ["highway", "addr:interpolation", "addr:housenumber"] + pointOfInterestKeys
    static let areaKeys = ["addr:housenumber", "place", "boundary"] + pointOfInterestKeys

    static func features(of element: OSMTaggedElement) -> [OSMFeature] {
        let tags = element.tags
        let name = value(tags["name"])
        let address = self.address(tags)
        var features: [OSMFeature] = []
        func feature(_ kind: OSMFeatureKind, _ shape: Shape) -> OSMFeature {
            var feature = OSMFeature(kind: kind, element: element.element, name: name, names: names(tags), shape: shape)
            if !address.isEmpty { feature.address = address }
            return feature
        }
        let pointOfInterest = name == nil ? nil : self.pointOfInterest(tags)
        let place = name == nil ? nil : value(tags["place"]).map { OSMPlace(type: $0, population: population(tags["population"])) }

        switch element.geometry {
        case .point(let point):
            if address.housenumber != nil { features.append(feature(.address, .point(point))) }
            if let place {
                var feature = feature(.place, .point(point))
                feature.place = place
                features.append(feature)
            }
            if let pointOfInterest {
                var feature = feature(.poi, .point(point))
                feature.pointOfInterest = pointOfInterest
                features.append(feature)
            }
        case .line(let points, let isClosed):
            guard !points.isEmpty else { return [] }
            if let highwayClass = value(tags["highway"]), points.count >= 2 {
                let ref = value(tags["ref"])
                if name != nil || ref != nil {
                    var feature = feature(.street, .lineString(points))
                    feature.highway = OSMHighway(highwayClass: highwayClass, ref: ref)
                    features.append(feature)
                }
            }
            if let scheme = value(tags["addr:interpolation"]), points.count >= 2 {
                var feature = feature(.addressInterpolation, .lineString(points))
                feature.interpolation = OSMInterpolation(
                    scheme: scheme, firstNode: element.firstNode, lastNode: element.lastNode,
                    firstHousenumber: element.firstHousenumber, lastHousenumber: element.lastHousenumber)
                features.append(feature)
            }
            let point =
                isClosed && points.count >= 4
                ? Shape.polygon(Polygon(exterior: points)).pointOnSurface : Shape.lineString(points).pointOnSurface
            if address.housenumber != nil { features.append(feature(.address, .point(point))) }
            if let pointOfInterest {
                var feature = feature(.poi, .point(point))
                feature.pointOfInterest = pointOfInterest
                features.append(feature)
            }
        case .area(let shape):
            let fromRelation = element.element.type == .relation
            if fromRelation, address.housenumber != nil { features.append(feature(.address, .point(shape.pointOnSurface))) }
            if let place {
                var feature = feature(.place, shape)
                feature.place = place
                features.append(feature)
            }
            if value(tags["boundary"]) == "administrative", let level = value(tags["admin_level"]).flatMap({ Int($0) }),
                (2...10).contains(level)
            {
                var feature = feature(.adminBoundary, shape)
                feature.adminBoundary = OSMAdministrativeBoundary(
                    adminLevel: level,
                    iso3166_1: (value(tags["ISO3166-1"]) ?? value(tags["ISO3166-1:alpha2"]))?.uppercased(),
                    iso3166_2: value(tags["ISO3166-2"])?.uppercased())
                features.append(feature)
            }
            if value(tags["boundary"]) == "postal_code", let postcode = value(tags["postal_code"]) ?? value(tags["addr:postcode"]) {
                var feature = feature(.postcodeBoundary, shape)
                feature.postcode = postcode
                features.append(feature)
            }
            if fromRelation, let pointOfInterest {
                var feature = feature(.poi, .point(shape.pointOnSurface))
                feature.pointOfInterest = pointOfInterest
                features.append(feature)
            }
        }
        return features
    }

    /// A tag's value, or nil when it is missing or blank.
    static func value(_ raw: String?) -> String? {
        guard let raw else { return nil }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    static func address(_ tags: [String: String]) -> OSMAddress {
        OSMAddress(
            housenumber: value(tags["addr:housenumber"]), street: value(tags["addr:street"]), place: value(tags["addr:place"]),
            postcode: value(tags["addr:postcode"]), city: value(tags["addr:city"]))
    }

    static func names(_ tags: [String: String]) -> [String: String] {
        var names: [String: String] = [:]
        for (key, raw) in tags where key.hasPrefix("name:") {
            if let name = value(raw) { names[String(key.dropFirst(5))] = name }
        }
        return names
    }

    static func pointOfInterest(_ tags: [String: String]) -> OSMPointOfInterest? {
        for key in pointOfInterestKeys {
            if let value = value(tags[key]), value != "no" { return OSMPointOfInterest(key: key, value: value) }
        }
        return nil
    }

    /// `population` as OSM writes it: digits, sometimes with thousands separators ("12 500", "12,500").
    static func population(_ raw: String?) -> Int? {
        guard let raw = value(raw) else { return nil }
        let digits = raw.filter { $0 != " " && $0 != "," && $0 != "." && $0 != "'" && $0 != "\u{A0}" }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
