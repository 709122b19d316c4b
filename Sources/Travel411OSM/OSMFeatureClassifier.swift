import Foundation
import Travel411Core

/// An element as the reader hands it over: its tags and its geometry.
package struct OSMTaggedElement {
    package enum Geometry {
        case point(Point2D)
        /// A way's located nodes; `isClosed` when its first and last node are the same.
        case line([Point2D], isClosed: Bool)
        case area(Shape)
    }

    package var element: OSMElementID
    package var tags: OSMTags
    package var geometry: Geometry
    package var firstNode: Int64 = 0
    package var lastNode: Int64 = 0
    package var firstHousenumber: String?
    package var lastHousenumber: String?
    /// A boundary relation's `label` node member (0 for none); a node's being one (`OSMFeature.labelNode`).
    package var labelNode: Int64 = 0
    package var isLabelMember = false
    /// A way with a key of the areas that made no area (not closed, or its ring crosses itself): Nominatim 5.3 keeps it
    /// as a line (lib-lua/themes/nominatim/init.lua, `process_way`: `as_polygon()`, else `as_linestring()`).
    package var madeNoArea = false
    /// An `addr:interpolation` line's house numbers, one for each of its points (nil where the node has none).
    package var nodeHousenumbers: [String?] = []
    /// The `addr:postcode` of those numbered nodes, one for each point (nil where the node has no number or no postcode).
    package var nodePostcodes: [String?] = []
    /// The `addr:street` (else `addr:place`) of the first of an interpolation line's nodes that has one.
    package var nodeStreet: String?

    package init(element: OSMElementID, tags: OSMTags, geometry: Geometry) {
        self.element = element
        self.tags = tags
        self.geometry = geometry
    }
}

/// Turns an element's tags into the features the importer takes (see OSMFeatureKind), as Nominatim reads them.
/// Addresses and POIs on ways come from the way itself (a point on the surface of a closed way, halfway along
/// an open one), so that a building whose ring libosmium refuses (it crosses itself) keeps its address; those
/// on multipolygon relations come from the assembled area. Places and boundaries on areas are polygons; a place on a
/// way that made none is a line (`OSMTaggedElement.madeNoArea`).
package enum OSMFeatureClassifier {
    /// The keys that make an element one of Nominatim's points of interest (its import style's
    /// `MAIN_TAGS_POIS`), in the order that picks the POI's key when it has several; `pointOfInterest(_:named:isNode:)`
    /// says which values count and which need a name.
    static let pointOfInterestKeys = [
        "amenity", "shop", "tourism", "leisure", "office", "craft", "club", "emergency", "aeroway", "aerialway", "military",
        "man_made", "railway", "highway", "landuse", "natural",
    ]
    /// Keys that make a POI only when no key above does.
    static let fallbackPointOfInterestKeys = ["historic", "healthcare", "junction"]

    /// Which elements libosmium hands over at all (the rest never crosses into Swift). `highway` on areas: a
    /// pedestrian square mapped as a multipolygon is a street.
    package static let nodeKeys =
        houseNumberKeys + ["addr:housename", "addr:postcode", "postal_code", "postcode", "place"] + pointOfInterestKeys
        + fallbackPointOfInterestKeys
    package static let lineKeys =
        ["highway", "addr:interpolation"] + houseNumberKeys + ["addr:housename", "addr:postcode", "postal_code", "postcode"]
        + wayPointOfInterestKeys
        + fallbackPointOfInterestKeys
    package static let areaKeys =
        houseNumberKeys + ["addr:housename", "addr:postcode", "postal_code", "postcode", "place", "boundary"] + wayPointOfInterestKeys
        + fallbackPointOfInterestKeys
    /// `natural` makes a POI of a node (a named tree); its ways and areas (woods, lakes, coastlines) are not handed
    /// over for it: assembling them cost the import, for the rare named rock drawn as an area.
    static let wayPointOfInterestKeys = pointOfInterestKeys.filter { $0 != "natural" }
    /// The keys that make a house to Nominatim 5.3 (`ADDRESS_TAGS.houses.main`, lib-lua/themes/nominatim/presets.lua;
    /// GPL-2.0), in the order its answer prints the first present (`_setup_address_details`, nominatim_api/results.py):
    /// Czech and Slovak houses have a conscription number (`addr:conscriptionnumber`, súpisné číslo) and a number on
    /// their street (`addr:streetnumber`, orientačné číslo), and `addr:housenumber` is usually both (`3706/1A`).
    static let houseNumberKeys = ["addr:housenumber", "addr:streetnumber", "addr:conscriptionnumber"]

    /// Every key the features are made of (`OSMElementFeatures` and the functions below), with `keyPrefixesRead`:
    /// libosmium hands over only these tags, so that the reading thread makes no string of the others (`source`,
    /// `building:levels`, ...). A key read here and missing from the list would read as absent: the import tests'
    /// databases say so.
    package static let keysRead = Array(
        Set(
            nodeKeys + lineKeys + areaKeys + postcodeKeys + [
                "name", "addr:street", "addr:place", "addr:quarter", "addr:neighbourhood", "addr:city", "tourism", "building",
                "wikidata", "area", "ref", "footway", "admin_level", "ISO3166-1", "ISO3166-1:alpha2", "ISO3166-2", "population",
                "capital", "natural", "water", "waterway",
            ] + OSMNameTags.keysRead)
    ).sorted()
    /// The prefixes of the keys read beyond `keysRead`: the names in other languages (`names(_:)`), the other names
    /// with a suffix (`OSMNameTags`).
    package static let keyPrefixesRead = ["name:"] + OSMNameTags.keyPrefixesRead
    /// Each of `keysRead`'s roles and bits (`OSMTags.add`), worked out once rather than for every element read.
    package static let keysReadRoles = keysRead.map(role(of:))
    package static let keysReadBits = keysRead.map(OSMTags.keyBit)

    /// What the key is to the rules below: a name of some kind, a key that can make a POI.
    package static func role(of key: String) -> OSMTags.Role {
        var role: OSMTags.Role = []
        if OSMNameTags.isMain(key) { role.insert(.mainName) }
        if OSMNameTags.extraKeys.contains(key) { role.insert(.extraName) }
        if key.hasPrefix("name:") { role.insert(.translation) }
        if anyPointOfInterestKey.contains(key) { role.insert(.pointOfInterest) }
        return role
    }

    /// Nominatim's streets (`MAIN_TAGS_STREETS.default`): these classes named or not, the others of
    /// `namedStreetClasses` only with a name. Its address levels rank the first 26, the second 27: zoom 16
    /// answers with the first only.
    static let streetClasses: Set<String> = [
        "motorway", "trunk", "primary", "secondary", "tertiary", "unclassified", "residential", "road", "living_street", "pedestrian",
        "construction",
    ]
    static let namedStreetClasses: Set<String> = [
        "service", "cycleway", "path", "footway", "steps", "bridleway", "track", "motorway_link", "trunk_link", "primary_link",
        "secondary_link", "tertiary_link",
    ]
    /// Footways that are part of a street rather than a way of their own.
    static let streetFootways: Set<String> = ["sidewalk", "crossing", "link", "traffic_aisle"]

    /// Nominatim's address rank of a street of this class: 27 for the minor ones, which zoom 16 leaves out.
    package static func streetRank(_ highwayClass: String) -> Int {
        minorStreetClasses.contains(highwayClass) || highwayClass.hasSuffix("_link") ? 27 : 26
    }

    static let rank30NaturalValues: Set<String> = ["tree", "spring", "cave_entrance", "geyser", "hot_spring", "rock", "stone"]

    /// Built once, not for each street read.
    private static let minorStreetClasses: Set<String> = ["service", "cycleway", "path", "footway", "steps", "bridleway"]

    /// Whether a highway of this class, with these tags, is one of Nominatim's streets.
    static func isStreet(_ highwayClass: String, tags: OSMTags, named: Bool) -> Bool {
        if streetClasses.contains(highwayClass) { return true }
        guard named, namedStreetClasses.contains(highwayClass) else { return false }
        return highwayClass != "footway" || !streetFootways.contains(value(tags["footway"]) ?? "")
    }

    package static func features(of element: OSMTaggedElement) -> [OSMFeature] {
        var features = OSMElementFeatures(element)
        switch element.geometry {
        case .point(let point):
            features.addNodeFeatures(at: point)
        case .line(let points, let isClosed):
            guard !points.isEmpty else { return [] }
            features.addWayFeatures(along: points, isClosed: isClosed)
        case .area(let shape):
            features.addAreaFeatures(of: shape)
        }
        features.addPostcodePointUnlessAnotherFeatureHasIt()
        return features.made
    }

    /// The point that stands for a way: on the surface of a closed one, halfway along an open one.
    static func representativePoint(of points: [Point2D], isClosed: Bool) -> Point2D {
        isClosed && points.count >= 4 ? Shape.polygon(Polygon(exterior: points)).pointOnSurface : Shape.lineString(points).pointOnSurface
    }

    /// A tag's value, or nil when it is missing or blank.
    private static let anyPointOfInterestKey = Set(pointOfInterestKeys + ["tourism"] + fallbackPointOfInterestKeys)

    package static func value(_ raw: String?) -> String? {
        guard let raw, let first = raw.utf8.first, let last = raw.utf8.last else { return nil }
        // `.whitespaces` is the space, the tab and Unicode's other spaces (none of them ASCII): a value whose ends are
        // other ASCII bytes needs no trimming, and Foundation's trim costs 4.5 % of an extract's import.
        func plain(_ byte: UInt8) -> Bool { byte < 0x80 && byte != UInt8(ascii: " ") && byte != UInt8(ascii: "\t") }
        if plain(first) && plain(last) { return raw }
        let trimmed = raw.trimmingCharacters(in: .whitespaces)
        return trimmed.isEmpty ? nil : trimmed
    }

    package static func address(_ tags: OSMTags) -> OSMAddress {
        // The first of the keys gives the number. The sanitizer takes each of the three as a house number
        // (`filter-kind`, settings/icu_tokenizer.yaml): the place has a house number unless every one of them is a name.
        var first: String?
        var everyNumberIsName = true
        for key in houseNumberKeys {
            guard let number = value(tags[key]) else { continue }
            if first == nil { first = number }
            if everyNumberIsName, !isName(houseNumber: number) { everyNumberIsName = false }
        }
        var address = OSMAddress(
            housenumber: first, street: value(tags["addr:street"]), place: value(tags["addr:place"]),
            postcode: postcode(tags), city: value(tags["addr:city"]), housename: value(tags["addr:housename"]))
        address.housenumberIsName = first != nil && everyNumberIsName
        address.hasJapanesePlace = value(tags["addr:quarter"]) != nil || value(tags["addr:neighbourhood"]) != nil
        return address
    }

    /// Whether an `addr:housenumber` is a name to Nominatim 5.3, not a house number: one of its comma-separated parts
    /// is three or more characters without a digit (`Nelson's View`, `s/n`, `7 B, sisäpiha`; the `clean-housenumbers`
    /// sanitizer's `convert-to-name: (\A|.*,)[^\d,]{3,}(,.*|\Z)` in `settings/icu_tokenizer.yaml`,
    /// `tokenizer/sanitizers/clean_housenumbers.py`). Its place then has no `housenumber` column, which makes it no
    /// address point (`IsAddressPoint`); the answer still prints the tag (`address->'housenumber'`).
    package static func isName(houseNumber raw: String?) -> Bool {
        guard let raw else { return false }
        return raw.split(separator: ",", omittingEmptySubsequences: false).contains { part in
            part.unicodeScalars.count >= 3 && !part.unicodeScalars.contains { $0.properties.generalCategory == .decimalNumber }
        }
    }

    /// The keys Nominatim 5.3 reads an object's postcode from (`ADDRESS_TAGS.core.postcode`,
    /// `lib-lua/themes/nominatim/presets.lua`; GPL-2.0): `addr:postcode` first here, then the TIGER roads' zip codes.
    /// A boundary's `postal_code` names the area (`OSMElementFeatures`) and carries a postcode point at the area
    /// (`OSMPostcodeCarriers.add(boundaryPostcode:of:)`), not this element postcode.
    static let postcodeKeys = ["addr:postcode", "postal_code", "postcode", "tiger:zip_left", "tiger:zip_right"]

    /// The element's postcode, as written, from the first of `postcodeKeys` it has.
    static func postcode(_ tags: OSMTags) -> String? {
        let isBoundary = tags["boundary"] != nil
        for key in postcodeKeys where !(isBoundary && key != "addr:postcode") {
            if let found = value(tags[key]) { return found }
        }
        return nil
    }

    package static func names(_ tags: OSMTags) -> [String: String] {
        var names: [String: String] = [:]
        for tag in tags.tags where tag.role.contains(.translation) {
            if let name = value(tag.value) { names[String(tag.key.dropFirst(5))] = name }
        }
        return names
    }

    /// The key and value that make the element one of Nominatim's points of interest, named or not
    /// (an unnamed bench is one: Nominatim answers with it at zoom 18); nil for none. A highway point
    /// feature counts on a node only: a highway way is a street or nothing.
    static func pointOfInterest(_ tags: OSMTags, named: Bool, isNode: Bool) -> OSMPointOfInterest? {
        // Most elements have none of the keys: a few lookups of their own keys, not one of every key (6 % of an
        // extract's import).
        guard tags.tags.contains(where: { $0.role.contains(.pointOfInterest) }) else { return nil }
        for key in pointOfInterestKeys {
            guard let value = value(tags[key]), value != "no",
                isPointOfInterest(key: key, value: value, named: named, isNode: isNode, tags: tags)
            else { continue }
            return OSMPointOfInterest(key: key, value: value)
        }
        // The fallback keys make a place only of a named element no other main tag made one of (`process_tags`,
        // lib-lua/themes/nominatim/init.lua: `fallback` is written when `has_name` and `num_entries == 0`): an unnamed
        // `junction=roundabout` tertiary in Aguascalientes is a street only, and a highway way is a street already.
        guard named, !hasMainTagBeyondPointsOfInterest(tags) else { return nil }
        if let value = value(tags["tourism"]), value == "attraction" { return OSMPointOfInterest(key: "tourism", value: value) }
        for key in fallbackPointOfInterestKeys {
            guard let value = value(tags[key]), value != "no", value != "yes" || key == "junction" else { continue }
            return OSMPointOfInterest(key: key, value: value)
        }
        // `landuse` is a fallback of every value too (`MAIN_TAGS.all_boundaries`, presets.lua); on a node it is rank 30
        // (`isBuildingLevel`), an area's is its address level's, no answer. Chennai's named `landuse=residential` nodes.
        if isNode, let value = value(tags["landuse"]) { return OSMPointOfInterest(key: "landuse", value: value) }
        return nil
    }

    /// Whether a named element has a main tag of Nominatim's full style other than a POI key (`MAIN_TAGS.all_boundaries`,
    /// `MAIN_TAGS.natural`, `MAIN_TAGS_STREETS`, presets.lua): then it makes a place of that, and a fallback key makes
    /// none (`process_tags`: `num_entries == 0`). Cuenca's city node N9911249241 is tagged
    /// `historic=unesco_world_heritage` too, and is only the city.
    static func hasMainTagBeyondPointsOfInterest(_ tags: OSMTags) -> Bool {
        if tags["highway"] != nil || tags["place"] != nil { return true }
        if let boundary = value(tags["boundary"]), !["protected_area", "place", "land_area", "postal_code"].contains(boundary) {
            return true
        }
        if let natural = value(tags["natural"]), !["yes", "no", "coastline", "saddle"].contains(natural) { return true }
        return value(tags["waterway"]).map { $0 != "riverbank" } ?? false
    }

    /// Whether Nominatim ranks a POI of this kind 30 (its address levels), which makes it an answer at zoom 18. Parks
    /// and gardens are areas of search rank 24-25 and address rank 0: named in no address, and answered only in the
    /// feature layers (`_lookup_area_others`, nominatim_api/reverse.py). A landuse area is no POI: named, it is a place
    /// (`OSMElementFeatures.landuseArea`), and `residential`, `industrial` and the others address-levels.json ranks 24
    /// are named in addresses and answer at zooms 15-17 (`_lookup_area_address`). Landuse that is no area (a node) is
    /// rank 30 whatever its value (`compute_place_rank`, lib-sql/functions/ranking.sql:
    /// `place_class = 'landuse' AND extended_type != 'A'`).
    static func isBuildingLevel(_ poi: OSMPointOfInterest, isNode: Bool) -> Bool {
        switch poi.key {
        case "leisure": return !["park", "nature_reserve", "garden", "common"].contains(poi.value)
        case "landuse": return isNode
        case "historic": return poi.value != "neighbourhood"
        default: return true
        }
    }

    /// Whether the element has a main tag Nominatim ranks below 30 (landuse on an area, a place, natural or water
    /// features), which makes an address on it no address point. A node's landuse is rank 30 (`isBuildingLevel`).
    static func hasCoarserMainTag(_ tags: OSMTags, isNode: Bool) -> Bool {
        if let place = value(tags["place"]), place != "house" { return true }
        if let leisure = value(tags["leisure"]), ["park", "nature_reserve", "garden", "common"].contains(leisure) { return true }
        if !isNode, value(tags["landuse"]) != nil { return true }
        return value(tags["natural"]) != nil || value(tags["water"]) != nil || value(tags["waterway"]) != nil
    }

    /// Nominatim's `MAIN_TAGS_POIS`, value by value: what it leaves out, and what it takes only with a name.
    static func isPointOfInterest(key: String, value: String, named: Bool, isNode: Bool, tags: OSMTags) -> Bool {
        switch key {
        case "amenity": return !["parking_space", "parking_entrance", "waste_disposal", "hunting_stand"].contains(value)
        case "tourism": return value != "yes" && value != "attraction"
        case "leisure": return named || !["nature_reserve", "swimming_pool", "garden", "common"].contains(value)
        case "emergency": return value != "yes" && value != "fire_hydrant"
        case "aerialway": return value != "pylon"
        case "military": return value != "yes"
        case "man_made":
            if ["pier", "tower", "bridge", "water_tower", "lighthouse", "watermill", "tunnel"].contains(value) { return true }
            return named && ["works", "dyke", "adit"].contains(value)
        case "railway":
            return named
                && !["rail", "abandoned", "disused", "razed", "level_crossing", "switch", "signal", "buffer_stop"].contains(value)
        case "highway":
            guard isNode else { return false }
            if ["street_lamp", "traffic_signals"].contains(value) { return named }
            // The street topic's values replace the POI topic's `highway` catch-all (`modify_main_tags` loads
            // `street/default` before `poi/extra`, lib-lua/themes/nominatim/topics/full.lua, and each sets only its own
            // values): a node tagged `highway=steps` (or `service`, `footway`...) is kept only with a name, as a way is.
            // Prague's unnamed steps node N523637104 on Karlovo náměstí is no place to Nominatim 5.3.
            if namedStreetClasses.contains(value) { return isStreet(value, tags: tags, named: named) }
            return ![
                "turning_circle", "mini_roundabout", "noexit", "crossing", "give_way", "stop", "turning_loop", "passing_place",
            ].contains(value)
        case "landuse": return value == "cemetery"
        // `natural` is `named` (`MAIN_TAGS.natural`), and only these values are rank 30 (settings/address-levels.json),
        // answered like any POI; a named wood or water (rank 22) is an area, no answer: Chișinău's tree "Paducel".
        case "natural": return named && rank30NaturalValues.contains(value)
        default: return true
        }
    }

    /// `population` as OSM writes it: digits, sometimes with thousands separators ("12 500", "12,500").
    static func population(_ raw: String?) -> Int? {
        guard let raw = value(raw) else { return nil }
        let digits = raw.filter { $0 != " " && $0 != "," && $0 != "." && $0 != "'" && $0 != "\u{A0}" }
        guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
        return Int(digits)
    }
}
