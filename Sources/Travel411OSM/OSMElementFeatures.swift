import Travel411Core

/// The features made of one element (OSMFeatureClassifier.features(of:)): what its tags say once, the name,
/// address, point of interest and place every feature of it shares, and the features made so far, in the
/// order the importer takes them.
struct OSMElementFeatures {
    private let element: OSMTaggedElement
    private let tags: OSMTags
    private let name: String?
    /// A main or house name makes the element named (`OSMNameTags.hasName`); `ref` and the other extra names name
    /// it (`name`) but do not.
    private let isNamed: Bool
    private let address: OSMAddress
    private let pointOfInterest: OSMPointOfInterest?
    private let answersAtBuildingLevel: Bool
    private let place: OSMPlace?
    /// The `place=*` of an administrative boundary, which is no place of its own (below).
    private let boundaryPlace: String?
    private(set) var made: [OSMFeature] = []

    init(_ element: OSMTaggedElement) {
        self.element = element
        tags = element.tags
        name = OSMNameTags.displayName(tags)
        isNamed = OSMNameTags.hasName(tags)
        address = OSMFeatureClassifier.address(tags)
        let isNode: Bool
        if case .point = element.geometry { isNode = true } else { isNode = false }
        pointOfInterest = OSMFeatureClassifier.pointOfInterest(tags, named: isNamed, isNode: isNode)
        answersAtBuildingLevel =
            pointOfInterest.map { OSMFeatureClassifier.isBuildingLevel($0, isNode: isNode) }
            ?? !OSMFeatureClassifier.hasCoarserMainTag(tags, isNode: isNode)
        let tags = tags
        // An administrative boundary's `place` tag is only an extra tag of the boundary, no place of its own, unless
        // it is an island: Nominatim 5.3's import style (`process_tags`, lib-lua/themes/nominatim/init.lua, GPL-2.0;
        // its rule, not its code), "exception for boundary/place double tagging". Its address then names the boundary
        // under that tag's value (`get_label_tag`, nominatim_api/v1/classtypes.py): Highspire's `place=borough`. An
        // island is both, and its boundary row keeps the tag too (an extra tag of the row), so Malta's admin_level 4
        // island answers under `island`, not `state`.
        let placeValue = OSMFeatureClassifier.value(tags["place"])
        let isAdministrative = tags["boundary"] == "administrative"
        let isBoundaryTag = isAdministrative && !(placeValue?.hasPrefix("isl") ?? true)
        boundaryPlace = isAdministrative ? placeValue : nil
        place =
            name == nil || isBoundaryTag
            ? nil
            : placeValue.map {
                OSMPlace(
                    type: $0, population: OSMFeatureClassifier.population(tags["population"]),
                    isCapital: OSMFeatureClassifier.value(tags["capital"]) == "yes")
            }
    }

    /// The element's main names (`OSMNameTags.isMain`) other than the one it shows, each once, in the tags' order: a
    /// street's names an `addr:street` may spell (`OSMHighway.otherNames`).
    private var otherNames: [String] {
        var seen: Set<String> = name.map { [$0] } ?? []
        return tags.tags.compactMap { tag in
            guard tag.role.contains(.mainName), let value = OSMFeatureClassifier.value(tag.value), seen.insert(value).inserted else {
                return nil
            }
            return value
        }
    }

    /// A tag's value, or nil when it is missing or blank.
    private func value(_ key: String) -> String? {
        OSMFeatureClassifier.value(tags[key])
    }

    /// A feature of this element with what every kind shares.
    private func feature(_ kind: OSMFeatureKind, _ shape: Shape) -> OSMFeature {
        // An address with a house name and no number is named by it, as Nominatim's answer names it.
        // A boundary named only by an extra name (`ISO3166-2`) is none to Nominatim (`boundary` is `named`); one is kept
        // here unnamed, as before.
        let named =
            kind == .address && address.housenumber == nil
            ? name ?? address.housename : kind == .adminBoundary && !isNamed ? nil : name
        var feature = OSMFeature(
            kind: kind, element: element.element, name: named, names: OSMFeatureClassifier.names(tags), shape: shape)
        if !address.isEmpty { feature.address = address }
        feature.answersAtBuildingLevel = answersAtBuildingLevel
        feature.building = value("building").flatMap { $0 == "no" ? nil : $0 }
        if kind == .place || kind == .adminBoundary { feature.wikidata = value("wikidata") }
        if kind == .place { feature.isLabelMember = element.isLabelMember }
        if kind == .adminBoundary, element.labelNode != 0 { feature.labelNode = element.labelNode }
        return feature
    }

    /// A node: its address, its place, its point of interest.
    mutating func addNodeFeatures(at point: Point2D) {
        if address.isAddressPoint {
            var feature = feature(.address, .point(point))
            feature.pointOfInterest = pointOfInterest
            made.append(feature)
        }
        if let place {
            var feature = feature(.place, .point(point))
            feature.place = place
            made.append(feature)
        }
        if let pointOfInterest {
            var feature = feature(.poi, .point(point))
            feature.pointOfInterest = pointOfInterest
            made.append(feature)
        }
    }

    /// A way (`points` not empty): its street, its interpolation line, then its address and point of interest at
    /// the point that stands for it.
    mutating func addWayFeatures(along points: [Point2D], isClosed: Bool) {
        // A closed way with area=yes is a square: a street if it makes a valid polygon (addAreaFeatures).
        if let highwayClass = value("highway"), points.count >= 2, !(isClosed && value("area") == "yes") {
            let ref = value("ref")
            if OSMFeatureClassifier.isStreet(highwayClass, tags: tags, named: isNamed) {
                var feature = feature(.street, .lineString(points))
                feature.highway = OSMHighway(highwayClass: highwayClass, ref: ref, otherNames: otherNames)
                // Any closed way that makes a valid polygon is stored as one by Nominatim's style, whatever its tags
                // (`process_way`: `as_polygon()` first), so its centroid is a point on its surface
                // (`get_center_point`), where its postcode and address are found: a ring street (Finsbury Circus).
                if isClosed, points.count >= 4, SimpleRing.isSimple(points) {
                    feature.areaCentre = Shape.polygon(Polygon(exterior: points)).pointOnSurface
                }
                made.append(feature)
            }
        }
        if let scheme = value("addr:interpolation"), points.count >= 2 {
            var feature = feature(.addressInterpolation, .lineString(points))
            feature.interpolation = OSMInterpolation(
                scheme: scheme, firstNode: element.firstNode, lastNode: element.lastNode,
                firstHousenumber: element.firstHousenumber, lastHousenumber: element.lastHousenumber,
                housenumbers: element.nodeHousenumbers, postcodes: element.nodePostcodes, nodeStreet: element.nodeStreet)
            made.append(feature)
        }
        // A place whose way made no polygon is a line in Nominatim's `placex` (`madeNoArea`): a parent by its name
        // at its centroid (`getNearestNamedPlacePlaceId`), holding no point (`placex_update` puts polygons and place
        // nodes in `location_area`). Bishkek's neighbourhood way 50743267, whose ring crosses itself.
        if element.madeNoArea, let place, points.count >= 2 {
            var feature = feature(.place, .lineString(points))
            feature.place = place
            made.append(feature)
        }
        // Most ways (streets) are neither: the point on a closed way's surface is not worked out for nothing.
        guard address.isAddressPoint || pointOfInterest != nil else { return }
        let isArea = isClosed && points.count >= 4
        let point = OSMFeatureClassifier.representativePoint(of: points, isClosed: isClosed)
        // A building's outline, not its centre, is how near it is (Nominatim measures to the geometry); an
        // open line is no address or POI Nominatim answers with.
        // Nodes missing at the extract's edge leave a gap: the ring is closed over it, as osm2pgsql does.
        let outline = isArea ? [points.last == points.first ? points : points + [points[0]]] : []
        if address.isAddressPoint {
            var feature = feature(.address, .point(point))
            feature.outline = outline
            feature.pointOfInterest = pointOfInterest
            made.append(feature)
        }
        if let pointOfInterest {
            var feature = feature(.poi, .point(point))
            feature.pointOfInterest = pointOfInterest
            feature.outline = outline
            made.append(feature)
        }
    }

    /// An assembled area: a relation's address, a square's street, a place's polygon, the boundaries, a
    /// relation's point of interest.
    mutating func addAreaFeatures(of shape: Shape) {
        let fromRelation = element.element.type == .relation
        if fromRelation, address.isAddressPoint {
            var feature = feature(.address, .point(shape.pointOnSurface))
            feature.outline = shape.rings
            feature.pointOfInterest = pointOfInterest
            made.append(feature)
        }
        // A pedestrian square mapped as a multipolygon or an area=yes way: its outline is the street
        // (Rautatientori in Helsinki). Nominatim drops one whose polygon is invalid, as libosmium does, and one
        // tagged `area=yes` without a name, a way's or a relation's (`placex_insert`,
        // lib-sql/functions/placex_triggers.sql 5.3: a highway polygon whose `name` is null, `ref` and `name:*` among
        // its names): 24 of the 27 unnamed pedestrian areas of the Helsinki sample are not in its placex, nor Lund's
        // station square (relation 4851709), whose points Nominatim answers with the station's objects.
        if fromRelation || value("area") == "yes", name != nil || value("area") != "yes", let highwayClass = value("highway"),
            OSMFeatureClassifier.isStreet(highwayClass, tags: tags, named: isNamed)
        {
            var feature = feature(.street, .multiLineString(shape.rings))
            feature.highway = OSMHighway(highwayClass: highwayClass, ref: value("ref"), otherNames: otherNames)
            feature.areaCentre = shape.pointOnSurface
            made.append(feature)
        }
        if let place = place ?? landuseArea {
            var feature = feature(.place, shape)
            feature.place = place
            made.append(feature)
        }
        addBoundaries(of: shape)
        if fromRelation, let pointOfInterest {
            var feature = feature(.poi, .point(shape.pointOnSurface))
            feature.pointOfInterest = pointOfInterest
            feature.outline = shape.rings
            made.append(feature)
        }
    }

    /// A named landuse area as a place of its own: in Nominatim 5.3's full import style `landuse` is a `fallback` main
    /// tag (`MAIN_TAGS.all_boundaries`, lib-lua/themes/nominatim/presets.lua), written by `process_tags` (init.lua)
    /// only for a named element that no other main tag made a place of (`num_entries == 0`); its address levels then
    /// rank it (`OSMLevelMapping.collectLanduseArea`). A building is a fallback too, which wins of the two is the order
    /// of Lua's `pairs`: such an element stays a building here. Minsk's Мінская друкарская фабрыка Дзяржзнака.
    private var landuseArea: OSMPlace? {
        guard isNamed, name != nil, pointOfInterest == nil, value("building") == nil,
            !OSMFeatureClassifier.hasMainTagBeyondPointsOfInterest(tags), let landuse = value("landuse")
        else { return nil }
        return OSMPlace(type: landuse, key: "landuse")
    }

    /// An administrative boundary of levels 2 to 12, a postal code boundary. Nominatim 5.3's address-levels.json
    /// ranks every level up to 12 (`administrative11` 22, `administrative12` 24 by default): Karachi's blocks are
    /// admin_level 11 boundaries tagged `place=neighbourhood`, which name its streets' neighbourhoods.
    private mutating func addBoundaries(of shape: Shape) {
        // A closed way of admin_level 4 or coarser is no boundary (`placex_insert`, lib-sql/functions/
        // placex_triggers.sql): Comino's coastline way tagged as its admin_level 4 beside its relation.
        if value("boundary") == "administrative", let level = value("admin_level").flatMap({ Int($0) }),
            (2...12).contains(level), element.element.type != .way || level > 4
        {
            var feature = feature(.adminBoundary, shape)
            feature.adminBoundary = OSMAdministrativeBoundary(
                adminLevel: level,
                iso3166_1: (value("ISO3166-1") ?? value("ISO3166-1:alpha2"))?.uppercased(),
                iso3166_2: value("ISO3166-2")?.uppercased(), place: boundaryPlace)
            // Its postcode names everything inside it (Nominatim's `insert_addresslines`: `OSMPostcodeAreas`) and is its
            // own; Nominatim's import reads any of the address postcode keys (`ADDRESS_TAGS.core.postcode`,
            // lib-lua/themes/nominatim/presets.lua): Melun's commune carries `addr:postcode=77000`.
            feature.postcode = value("postal_code") ?? value("addr:postcode") ?? value("postcode")
            made.append(feature)
        }
        if value("boundary") == "postal_code", let postcode = value("postal_code") ?? value("addr:postcode") {
            var feature = feature(.postcodeBoundary, shape)
            feature.postcode = postcode
            made.append(feature)
        }
    }

    /// The element's postcode as a point of its own, when no address, POI or postal boundary made of it has it.
    mutating func addPostcodePointUnlessAnotherFeatureHasIt() {
        guard let postcode = address.postcode, !made.contains(where: { [.address, .poi, .postcodeBoundary].contains($0.kind) })
        else { return }
        let point: Point2D?
        switch element.geometry {
        case .point(let p): point = p
        case .line(let points, let isClosed): point = OSMFeatureClassifier.representativePoint(of: points, isClosed: isClosed)
        // A way's area came as its line already.
        case .area(let shape): point = element.element.type == .relation ? shape.pointOnSurface : nil
        }
        if let point {
            var feature = feature(.postcodePoint, .point(point))
            feature.postcode = postcode
            made.append(feature)
        }
    }
}
