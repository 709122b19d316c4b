import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// The response shapes of Nominatim's `/reverse`.
public enum NominatimFormat: String, CaseIterable, Sendable {
    case xml, json, jsonv2, geojson, geocodejson

    public var isJSON: Bool { self != .xml }
}

/// What a `/reverse` request asks of the answer besides the point (Nominatim's parameters).
public struct NominatimOptions: Sendable, Equatable {
    public var format: NominatimFormat
    /// 0-18; finer zooms give finer answers.
    public var zoom: Int
    /// The `address` object (`addressparts` in XML).
    public var addressDetails: Bool
    /// `namedetails`: the answering object's names, `name` and its `name:xx` tags (on an OpenStreetMap database).
    public var nameDetails: Bool
    /// `extratags`: what the database knows beyond the address: the time zone, the water.
    public var extraTags: Bool
    /// The request's query string, echoed by the XML answer as Nominatim does.
    public var queryString: String
    /// The XML answer's `timestamp`; nil leaves the attribute out (reproducible output).
    public var timestamp: Date?
    /// The `licence` of the database answering (`ReverseGeocoder.licence`).
    public var licence: DataLicence
    /// `polygon_geojson`, `polygon_kml`, `polygon_svg` or `polygon_text`: the place's outline in that form.
    public var geometryOutput: NominatimGeometryOutput?

    public init(
        format: NominatimFormat = .jsonv2, zoom: Int = 18, addressDetails: Bool = true, nameDetails: Bool = false,
        extraTags: Bool = false, queryString: String = "", timestamp: Date? = nil, geometryOutput: NominatimGeometryOutput? = nil,
        licence: DataLicence = .embedded
    ) {
        self.licence = licence
        self.format = format
        self.zoom = zoom
        self.addressDetails = addressDetails
        self.nameDetails = nameDetails
        self.extraTags = extraTags
        self.queryString = queryString
        self.timestamp = timestamp
        self.geometryOutput = geometryOutput
    }

    public var detail: NominatimDetail { NominatimDetail(zoom: zoom) }

    /// The placemark fields an answer with these options reads: a server can look up only these
    /// (`PlacemarkNeeds(fields:)`), and the answer is the same as from a full placemark.
    public var fieldsRead: [PlacemarkField] {
        let address: [PlacemarkField] = [
            .thoroughfare, .subThoroughfare, .postalCode, .subLocality, .locality, .subAdministrativeArea, .administrativeArea,
            .administrativeAreaCode, .country, .isoCountryCode,
        ]
        return extraTags ? address + [.timeZone, .inlandWater, .ocean] : address
    }
}

/// A placemark seen as a Nominatim place: its address parts cut to the requested detail, the level
/// of the finest part left, and the names and ranks derived from it. Every output shape is written
/// from this one value, so `where --format nominatim` and `travel411 serve` always agree.
public struct NominatimPlace: Sendable {
    public let location: Coordinate
    public let level: NominatimDetail
    /// Address parts in Nominatim's order, finest first, only those present.
    public let address: [(key: String, value: String)]
    /// The keys `address` names the county and the state under (`island` where Nominatim labels them so).
    let upperKeys: (county: String, state: String)
    public let displayName: String
    public let name: String
    /// The answering OpenStreetMap object's names by tag, when the placemark carries them (`AnsweringFeature.names`).
    let objectNames: [String: String]
    public let placeID: UInt64
    public let timeZone: String?
    public let water: String?
    /// What the answer is, as Nominatim names it: the OpenStreetMap object's main tag and rank when one
    /// answers (`amenity`/`bench`, 30), else the level's (`highway`/`road`, 26).
    public let category: String
    public let type: String
    public let addressType: String
    public let placeRank: Int
    /// The OpenStreetMap element answering (`way`, 123), nil when the answer is no single object.
    public let element: (type: String, id: Int64)?
    /// The object's extent, for `boundingbox`; nil for a box around the point.
    package var extent: BoundingBox?
    /// The outline to print with `polygon_*`, already simplified; nil prints the point.
    public var geometry: Shape?

    /// nil when the point has no answer at this detail (at sea, or nothing known): "Unable to geocode". `maximumRank`,
    /// the zoom's (`NominatimDetail.maximumRank(zoom:)`), lets a suburb or village node answer at zooms 12-13.
    public init?(_ p: Placemark, detail: NominatimDetail = .building, maximumRank: Int = 30) {
        guard let subject = p.nominatimSubject(detail: detail, maximumRank: maximumRank) else { return nil }
        func upTo<T>(_ level: NominatimDetail, _ value: T?) -> T? { detail >= level ? value : nil }
        let houseNumber = p.printsHouseNumber ? upTo(.building, p.subThoroughfare) : nil, road = upTo(.street, p.nominatimRoad)
        let (neighbourhood, neighbourhoodKey, suburb) = Self.neighbourhoodAndSuburb(p, detail: detail, maximumRank: maximumRank)
        let finePlace = upTo(.suburb, p.finePlaceFeature?.name), ownQuarter = upTo(.suburb, p.ownQuarterFeature?.name)
        let suburbBoundary = suburb == nil ? nil : p.suburbBoundaryFeature?.name
        let villagePart = upTo(.suburb, p.villagePartFeature?.name), city = upTo(.city, p.locality)
        let enclosingMunicipality = city == nil ? nil : p.enclosingMunicipalityFeature?.name
        let county = upTo(.county, p.subAdministrativeArea), state = upTo(.state, p.administrativeArea)
        level = subject.level
        let feature = subject.feature, area = subject.area, finest = (level, subject.finestName)
        let key = { (part: AnsweringFeature?, level: NominatimDetail, otherwise: String) in Self.key(part, level, otherwise, subject) }
        // Above street level the postcode is that area's own, which only an OpenStreetMap database knows
        // (`OSMAreaPostcodes`); a postcode point's is no town's.
        let postcode = detail >= .street ? p.postalCode : area?.postcode
        // A named point of interest or building heads its address, under its main tag's key (`amenity`: Ravintola
        // Bank, `building`: Alma-talo).
        let poi = feature.flatMap { f in f.rank >= 30 && f.category != "place" ? f.name : nil }
        let fineIsCoarser = NominatimFormatter.isCoarserThanANeighbourhood(p.finePlaceFeature)
        // A boundary that is an island, or is linked to one, is the address's `island` (`get_label_tag`).
        upperKeys = (key(p.subAdministrativeAreaFeature, .county, "county"), key(p.administrativeAreaFeature, .state, "state"))
        var parts: [(NominatimDetail, String, String?)] = [
            (.building, feature?.category ?? "amenity", poi), (.building, "house_number", houseNumber), (.street, "road", road),
            (.street, neighbourhoodKey, fineIsCoarser ? neighbourhood : nil),
            (.suburb, p.finePlaceFeature?.addressKey ?? "quarter", finePlace),
            (.street, neighbourhoodKey, fineIsCoarser ? nil : neighbourhood),
            (.suburb, "quarter", ownQuarter),
            // An extract's suburb or municipality under its place type, as Nominatim keys them (`village`: Gamprin).
            (.suburb, key(p.subLocalityFeature, .suburb, "suburb"), suburb),
            Self.subdivisionLine(after: suburb, of: p.subLocalityFeature, .suburb),
            (.suburb, key(p.suburbBoundaryFeature, .suburb, "suburb"), suburbBoundary),
            Self.subdivisionLine(after: suburbBoundary, of: p.suburbBoundaryFeature, .suburb),
            (.suburb, p.villagePartFeature?.addressKey ?? "village", villagePart),
            (.city, key(p.localityFeature, .city, "city"), city), Self.subdivisionLine(after: city, of: p.localityFeature, .city),
            (.city, p.enclosingMunicipalityFeature?.addressKey ?? "municipality", enclosingMunicipality),
            Self.subdivisionLine(after: enclosingMunicipality, of: p.enclosingMunicipalityFeature, .city),
            (.county, upperKeys.county, county), Self.subdivisionLine(after: county, of: p.subAdministrativeAreaFeature, .county),
            (.state, upperKeys.state, state), Self.stateSubdivisionLine(state: state, p, detail: detail),
            (.street, "postcode", postcode),
            (.country, "country", p.country), (.country, "country_code", p.isoCountryCode?.lowercased()),
        ]
        Self.insertAddressPlaceLines(into: &parts, p, detail: detail)
        address = Self.keptOnce(parts)
        displayName = Self.displayName(parts.map { $0.1.hasPrefix(Self.subdivisionKeyPrefix) || $0.1 == "country_code" ? nil : $0.2 })
        timeZone = p.timeZone
        water = p.inlandWater ?? p.ocean
        if let feature {
            name = feature.name ?? ""
            location = feature.location
            category = feature.category
            type = feature.type
            addressType = feature.category == "highway" ? "road" : feature.category
            placeRank = feature.rank
            element = (feature.elementType.rawValue, feature.elementID)
            extent = feature.extent
            placeID = NominatimPlaceKinds.placeID([feature.elementType.rawValue, String(feature.elementID)])
        } else if let area {
            name = finest.1 ?? ""
            location = area.location
            category = area.category
            type = area.type
            addressType = area.ownKey ?? area.addressKey ?? level.addressType
            placeRank = area.rank
            element = (area.elementType.rawValue, area.elementID)
            extent = area.extent
            placeID = NominatimPlaceKinds.placeID([area.elementType.rawValue, String(area.elementID)])
        } else {
            name = level == .building ? "" : (finest.1 ?? "")
            location = p.location
            category = level.category
            type = level.type
            addressType = level.addressType
            placeRank = level.placeRank
            element = nil
            extent = nil
            placeID = NominatimPlaceKinds.placeID([road, city, state, p.isoCountryCode])
        }
        objectNames = (feature ?? area)?.names ?? [:]
    }

    /// Every part its own (every address line but the codes), the house number too, as Nominatim joins them ("20,
    /// Unioninkatu"); a part the same as the one before it is left out, as Nominatim's `display_name`
    /// (`nominatim_api/results.py`) leaves it (the bus stop "Kaivokatu" on the street Kaivokatu: "Kaivokatu, Keskusta, …").
    private static func displayName(_ parts: [String?]) -> String {
        var display = ""
        display.reserveCapacity(160)
        var previous: String?
        for case let part? in parts where part != previous {
            if !display.isEmpty { display += ", " }
            display += part
            previous = part
        }
        return display
    }

    /// The key of an address part: the answer's own line by the boundary's own `place` tag (`AnsweringFeature.ownKey`),
    /// every other by its key in addresses.
    private static func key(_ part: AnsweringFeature?, _ level: NominatimDetail, _ otherwise: String, _ subject: NominatimSubject) -> String
    {
        (level == subject.level && subject.feature == nil ? subject.area?.ownKey : nil) ?? part?.addressKey ?? otherwise
    }

    /// `namedetails`: every name of the answering OpenStreetMap object (`name`, then `name:xx` by tag) when the
    /// placemark carries them, else the answer's name.
    public var nameDetails: [(key: String, value: String)] {
        guard !objectNames.isEmpty else { return name.isEmpty ? [] : [("name", name)] }
        return objectNames.sorted { ($0.key == "name" ? "" : $0.key) < ($1.key == "name" ? "" : $1.key) }.map { ($0.key, $0.value) }
    }

    /// Nominatim's importance for a place without a Wikipedia-based one, as JSON.
    package var importanceJSON: String {
        element == nil ? level.importanceJSON : JSONText.number(0.40001 - Double(placeRank) / 75)
    }

    /// [south, north, west, east], as Nominatim orders `boundingbox`: a small box around the point,
    /// since the database keeps no outline for localities and streets.
    var box: [Double] {
        if let extent { return [extent.minY, extent.maxY, extent.minX, extent.maxX].map { ($0 * 1e7).rounded() / 1e7 } }
        // Nominatim's box around a node of rank 30: ± 0.00005°.
        let delta = element != nil ? 0.00005 : level >= .street ? 0.0005 : 0.005
        let lat = location.latitude, lon = location.longitude
        return [lat - delta, lat + delta, lon - delta, lon + delta].map { ($0 * 1e7).rounded() / 1e7 }
    }

    var extraTags: [(key: String, value: String)] {
        [("timezone", timeZone), ("water", water)].compactMap { key, value in value.map { (key, $0) } }
    }
}

/// Nominatim's reverse answers in every format, for clients written against Nominatim.
public enum NominatimFormatter {
    /// The keys an address may give its municipality and its suburb under (`NominatimPlace.address`).
    static let cityKeys: Set<String> = ["city", "town", "village", "hamlet", "municipality"]
    /// Whether a fine place follows the neighbourhood (24) in the address, ordered by address rank as Nominatim's
    /// (`settings/address-levels.json`): a quarter or croft (22, 20) does, a locality, farm or city block (25) not.
    static func isCoarserThanANeighbourhood(_ place: AnsweringFeature?) -> Bool { ["quarter", "croft"].contains(place?.addressKey ?? "") }

    static let suburbKeys: Set<String> = ["suburb", "quarter", "neighbourhood", "city_district", "borough"]
    /// `where --format nominatim`, behind the one formatter protocol.
    public struct JSONV2: OutputFormatter {
        public func format(_ placemark: Placemark) -> String { jsonV2(placemark) }
    }

    /// GeocodeJSON's `licence` is the licence's short name; the data's OpenStreetMap parts make the whole ODbL.
    public static let geocodeJSONLicence = "ODbL"

    /// `where --format nominatim`: the jsonv2 answer at full detail.
    public static func jsonV2(_ p: Placemark) -> String {
        answer(p, options: NominatimOptions(format: .jsonv2))
    }

    /// The answer for `p`, or Nominatim's "Unable to geocode" in the requested format. `outline` gives the
    /// geometry that `options.geometryOutput` prints for the place found (nil: the point itself).
    public static func answer(
        _ p: Placemark, options: NominatimOptions, outline: ((NominatimPlace) -> Shape?)? = nil
    ) -> String {
        String(decoding: answerBytes(p, options: options, outline: outline), as: UTF8.self)
    }

    /// `answer` as UTF-8 bytes, as a server sends it: the JSON shapes are written as bytes.
    public static func answerBytes(
        _ p: Placemark, options: NominatimOptions, outline: ((NominatimPlace) -> Shape?)? = nil
    ) -> [UInt8] {
        guard var place = NominatimPlace(p, detail: options.detail, maximumRank: NominatimDetail.maximumRank(zoom: options.zoom)) else {
            return Array(unableToGeocode(options).utf8)
        }
        if options.geometryOutput != nil {
            place.geometry = outline?(place)
            // A polygon answer's box is its polygon's, as Nominatim's `boundingbox` is the geometry's
            // (`bbox_from_result`, `nominatim_api/v1/classtypes.py`), not a box around the point.
            if place.extent == nil, let geometry = place.geometry { place.extent = geometry.boundingBox }
        }
        switch options.format {
        case .json, .jsonv2: return jsonObject(place, options: options)
        case .geojson: return geoJSON(place, options: options)
        case .geocodejson: return Array(geocodeJSON(place, options: options).utf8)
        case .xml: return Array(xml(place, options: options).utf8)
        }
    }

    public static func unableToGeocode(_ options: NominatimOptions) -> String {
        guard options.format == .xml else { return "{\"error\":\"Unable to geocode\"}" }
        return xmlHeader(options) + "<error>Unable to geocode</error>\n</reversegeocode>"
    }

    /// A refused request (HTTP 400 and the like) in the shape Nominatim uses for its format.
    public static func requestError(code: Int, message: String, format: NominatimFormat) -> String {
        if format == .xml {
            return
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<error>\n  <code>\(code)</code>\n  <message>\(XMLText.escaped(message))</message>\n</error>"
        }
        // The message may echo the client's input: < and > escaped, so that no page can read it as markup.
        let text = JSONText.string(message).replacingOccurrences(of: "<", with: "\\u003c").replacingOccurrences(of: ">", with: "\\u003e")
        return "{\"error\":{\"code\":\(code),\"message\":\(text)}}"
    }

    // MARK: JSON shapes

    private static func str(_ text: String) -> String { JSONText.string(text) }
    private static func coordinateText(_ value: Double) -> String { JSONText.number(value) }

    /// An OpenStreetMap object's coordinates as Nominatim prints them, always seven decimals ("9.5103120"); other
    /// answers keep the shortest text of the number.
    static func coordinateText(_ value: Double, of place: NominatimPlace) -> String {
        place.element != nil ? DecimalText.sevenDecimals(value) : coordinateText(value)
    }

    /// Writes an object's members into one growing byte array: a `/reverse` answer is built per request, and
    /// a growing String costs twice the bytes' time (its append checks; 3.5 % of a Helsinki server's samples).
    private struct JSONObjectText {
        var bytes: [UInt8] = []
        private var isEmpty = true

        init(opening: String = "{", capacity: Int = 1024) {
            bytes.reserveCapacity(capacity)
            bytes.append(contentsOf: opening.utf8)
        }

        package mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// `"key":`, after a comma unless it is the first member.
        package mutating func key(_ key: String) {
            if !isEmpty { bytes.append(UInt8(ascii: ",")) }
            isEmpty = false
            bytes.append(UInt8(ascii: "\""))
            bytes.append(contentsOf: key.utf8)
            bytes.append(UInt8(ascii: "\""))
            bytes.append(UInt8(ascii: ":"))
        }

        mutating func string(_ key: String, _ value: String) {
            self.key(key)
            JSONText.append(value, to: &bytes)
        }

        /// A value that is JSON already: a number, an object, an array.
        mutating func raw(_ key: String, _ json: String) {
            self.key(key)
            bytes.append(contentsOf: json.utf8)
        }

        package mutating func integer(_ key: String, _ value: UInt64) {
            self.key(key)
            JSONText.appendDecimal(value, to: &bytes)
        }

        /// A coordinate as a JSON string, an OpenStreetMap object's with seven decimals
        /// (`NominatimFormatter.coordinateText(_:of:)`).
        mutating func coordinate(_ value: Double, of place: NominatimPlace) {
            guard place.element != nil else { return JSONText.append(NominatimFormatter.coordinateText(value), to: &bytes) }
            bytes.append(UInt8(ascii: "\""))
            DecimalText.appendSevenDecimals(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }

        /// `"key":{"k":"v",…}` from pairs of strings.
        package mutating func object(_ key: String, _ pairs: [(key: String, value: String)]) {
            self.key(key)
            bytes.append(UInt8(ascii: "{"))
            for (index, pair) in pairs.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "\""))
                bytes.append(contentsOf: pair.key.utf8)
                bytes.append(UInt8(ascii: "\""))
                bytes.append(UInt8(ascii: ":"))
                JSONText.append(pair.value, to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }

        mutating func close() -> [UInt8] {
            bytes.append(UInt8(ascii: "}"))
            return bytes
        }
    }

    private static func appendOptionalMembers(_ place: NominatimPlace, options: NominatimOptions, to members: inout JSONObjectText) {
        if options.addressDetails { members.object("address", place.address) }
        if options.extraTags { members.object("extratags", place.extraTags) }
        if options.nameDetails { members.object("namedetails", place.nameDetails) }
    }

    private static func jsonObject(_ place: NominatimPlace, options: NominatimOptions) -> [UInt8] {
        var members = JSONObjectText()
        members.integer("place_id", place.placeID)
        members.raw("licence", options.licence.json)
        if let element = place.element {
            members.string("osm_type", element.type)
            members.raw("osm_id", String(element.id))
        }
        members.key("lat")
        members.coordinate(place.location.latitude, of: place)
        members.key("lon")
        members.coordinate(place.location.longitude, of: place)
        members.string(options.format == .json ? "class" : "category", place.category)
        members.string("type", place.type)
        members.integer("place_rank", UInt64(max(place.placeRank, 0)))
        members.raw("importance", place.importanceJSON)
        members.string("addresstype", place.addressType)
        members.string("name", place.name)
        members.string("display_name", place.displayName)
        appendOptionalMembers(place, options: options, to: &members)
        members.key("boundingbox")
        for (index, value) in place.box.enumerated() {
            members.append(index == 0 ? "[" : ",")
            members.coordinate(value, of: place)
        }
        members.append("]")
        if let output = options.geometryOutput {
            let shape = place.geometry ?? .point(Point2D(x: place.location.longitude, y: place.location.latitude))
            switch output {
            case .geojson: members.raw("geojson", NominatimGeometryText.geoJSON(shape))
            case .kml: members.string("geokml", NominatimGeometryText.kml(shape))
            case .svg: members.string("svg", NominatimGeometryText.svg(shape))
            case .text: members.string("geotext", NominatimGeometryText.wkt(shape))
            }
        }
        return members.close()
    }

    /// The feature's geometry in GeoJSON and GeocodeJSON: the outline with `polygon_geojson`, else the point.
    private static func featureGeometry(_ place: NominatimPlace, options: NominatimOptions) -> String {
        guard options.geometryOutput == .geojson, let shape = place.geometry else { return pointGeometry(place) }
        return NominatimGeometryText.geoJSON(shape)
    }

    private static func pointGeometry(_ place: NominatimPlace) -> String {
        "{\"type\":\"Point\",\"coordinates\":[\(coordinateText(place.location.longitude)),\(coordinateText(place.location.latitude))]}"
    }

    private static func geoJSON(_ place: NominatimPlace, options: NominatimOptions) -> [UInt8] {
        var properties = JSONObjectText(
            opening: "{\"type\":\"FeatureCollection\",\"licence\":\(options.licence.json),"
                + "\"features\":[{\"type\":\"Feature\",\"properties\":{")
        properties.integer("place_id", place.placeID)
        if let element = place.element {
            properties.string("osm_type", element.type)
            properties.raw("osm_id", String(element.id))
        }
        properties.raw("place_rank", String(place.placeRank))
        properties.string("category", place.category)
        properties.string("type", place.type)
        properties.raw("importance", place.importanceJSON)
        properties.string("addresstype", place.addressType)
        properties.string("name", place.name)
        properties.string("display_name", place.displayName)
        appendOptionalMembers(place, options: options, to: &properties)
        let box = place.box
        let bbox = [box[2], box[0], box[3], box[1]].map(coordinateText).joined(separator: ",")
        return properties.close() + Array(",\"bbox\":[\(bbox)],\"geometry\":\(featureGeometry(place, options: options))}]}".utf8)
    }

    /// GeocodeJSON names the address parts by level, whatever Nominatim's key (a village is the `city`). Made once,
    /// not per answer (and per address part for the levels), which cost 3 % of a request.
    private static let geocodeJSONKeys: [String: String] = {
        var keys = [
            "house_number": "housenumber", "road": "street", "county": "county", "state": "state", "postcode": "postcode",
            "country": "country", "country_code": "country_code",
        ]
        for key in cityKeys { keys[key] = "city" }
        for key in suburbKeys { keys[key] = "district" }
        return keys
    }()

    /// The `admin` levels of GeocodeJSON's address parts.
    private static let geocodeJSONAdminLevels: [String: String] = {
        // No `level2`: Nominatim's country is an address line of its own (`place`/`country`), no boundary's.
        var levels = ["state": "level4", "county": "level6"]
        for key in cityKeys { levels[key] = "level8" }
        return levels
    }()

    private static func geocodeJSON(_ place: NominatimPlace, options: NominatimOptions) -> String {
        var geocoding = [
            "\"place_id\":\(place.placeID)"
        ]
        if let element = place.element {
            geocoding += ["\"osm_type\":\(str(element.type))", "\"osm_id\":\(element.id)"]
        }
        geocoding += [
            "\"osm_key\":\(str(place.category))",
            "\"osm_value\":\(str(place.type))",
            // By the answer's address rank (`GEOCODEJSON_RANKS`, 28 and finer a `house`): a point of interest without a
            // number too, which travel411 answers at street level.
            "\"type\":\(str(place.element != nil && place.placeRank >= 28 ? "house" : place.level.geocodeJSONType))",
            // The answer's distance from the point in degrees, as an integer (`format_base_geocodejson`): 0.
            "\"accuracy\":0",
            "\"label\":\(str(place.displayName))",
        ]
        // Nominatim leaves the name out when the place has none (a house).
        if !place.name.isEmpty { geocoding.append("\"name\":\(str(place.name))") }
        if options.addressDetails {
            // A key once, the first (finest) part's: `_write_geocodejson_address` of Nominatim's
            // `nominatim_api/v1/format_json.py` keeps a rank name it has (a suburb and a city_district are one `district`).
            let upperLevel = { (key: String) in key == place.upperKeys.state ? "state" : key == place.upperKeys.county ? "county" : nil }
            let geocodeJSONKey = { (key: String) in Self.geocodeJSONKeys[key] ?? upperLevel(key) }
            // The answer's own line is no part of its address (`obj_place_id`), only its name: a street's `street`, a
            // town's `city`. Its finest part of rank 5-27 when it names the answer (a country's is its own line).
            let own =
                (5...27).contains(place.placeRank)
                ? place.address.firstIndex { !["postcode", "house_number"].contains($0.key) && geocodeJSONKey($0.key) != nil } : nil
            let skipped = own.flatMap { index in
                place.address[index].value == place.name && geocodeJSONKey(place.address[index].key) != "country" ? index : nil
            }
            var written: Set<String> = []
            geocoding += place.address.indices.compactMap { index in
                let part = place.address[index]
                return index == skipped
                    ? nil : geocodeJSONKey(part.key).flatMap { written.insert($0).inserted ? "\(str($0)):\(str(part.value))" : nil }
            }
            var levels: Set<String> = []
            let admin = place.address.compactMap { part in
                (Self.geocodeJSONAdminLevels[part.key] ?? upperLevel(part.key).flatMap { Self.geocodeJSONAdminLevels[$0] }).flatMap {
                    levels.insert($0).inserted ? "\(str($0)):\(str(part.value))" : nil
                }
            }
            geocoding.append("\"admin\":{" + admin.joined(separator: ",") + "}")
        }
        if options.extraTags {
            geocoding.append("\"extra\":{" + place.extraTags.map { "\(str($0.key)):\(str($0.value))" }.joined(separator: ",") + "}")
        }
        // A reverse answer's `query` is empty: `reverse_endpoint` of Nominatim 5.3's `nominatim_api/v1/server_glue.py`
        // passes a query string to the formatter for XML only.
        return
            "{\"type\":\"FeatureCollection\",\"geocoding\":{\"version\":\"0.1.0\",\"attribution\":\(options.licence.json),\"licence\":\(str(geocodeJSONLicence)),\"query\":\"\"},"
            + "\"features\":[{\"type\":\"Feature\",\"properties\":{\"geocoding\":{" + geocoding.joined(separator: ",")
            + "}},\"geometry\":\(featureGeometry(place, options: options))}]}"
    }

    // MARK: XML

    private static func xmlHeader(_ options: NominatimOptions) -> String {
        var attributes = ""
        if let timestamp = options.timestamp { attributes += " timestamp=\"\(XMLText.escaped(httpDate(timestamp)))\"" }
        attributes += " attribution=\"\(XMLText.escaped(options.licence.text))\" querystring=\"\(XMLText.escaped(options.queryString))\""
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<reversegeocode\(attributes)>\n"
    }

    private static func xml(_ place: NominatimPlace, options: NominatimOptions) -> String {
        let box = place.box.map { coordinateText($0, of: place) }.joined(separator: ",")
        var text = xmlHeader(options)
        text += "<result place_id=\"\(place.placeID)\""
        if let element = place.element { text += " osm_type=\"\(element.type)\" osm_id=\"\(element.id)\"" }
        if !place.name.isEmpty { text += " ref=\"\(XMLText.escaped(place.name))\"" }
        text +=
            " lat=\"\(coordinateText(place.location.latitude, of: place))\" lon=\"\(coordinateText(place.location.longitude, of: place))\""
        text += " boundingbox=\"\(box)\" place_rank=\"\(place.placeRank)\" address_rank=\"\(place.placeRank)\""
        var kml: String?
        if let output = options.geometryOutput {
            let shape = place.geometry ?? .point(Point2D(x: place.location.longitude, y: place.location.latitude))
            switch output {
            case .text: text += " geotext=\"\(XMLText.escaped(NominatimGeometryText.wkt(shape)))\""
            case .svg: text += " geosvg=\"\(XMLText.escaped(NominatimGeometryText.svg(shape)))\""
            case .geojson: text += " geojson=\"\(XMLText.escaped(NominatimGeometryText.geoJSON(shape)))\""
            case .kml: kml = NominatimGeometryText.kml(shape)
            }
        }
        text += ">" + XMLText.escaped(place.displayName) + "</result>\n"
        if let kml { text += "<geokml>\(kml)</geokml>\n" }
        if options.addressDetails {
            text +=
                "<addressparts>" + place.address.map { "<\($0.key)>\(XMLText.escaped($0.value))</\($0.key)>" }.joined()
                + "</addressparts>\n"
        }
        if options.extraTags {
            text +=
                "<extratags>" + place.extraTags.map { "<tag key=\"\($0.key)\" value=\"\(XMLText.escaped($0.value))\"/>" }.joined()
                + "</extratags>\n"
        }
        if options.nameDetails {
            text +=
                "<namedetails>"
                + place.nameDetails.map { "<name desc=\"\(XMLText.escaped($0.key))\">\(XMLText.escaped($0.value))</name>" }.joined()
                + "</namedetails>\n"
        }
        return text + "</reversegeocode>"
    }

    /// "Tue, 25 Nov 2026 00:34:04 +00:00", as Nominatim writes its timestamps. From the calendar fields, not
    /// a DateFormatter: making one per answer took 64 % of an XML request's CPU.
    static func httpDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var fields = tm()
        guard gmtime_r(&seconds, &fields) != nil else { return "" }
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : String(value) }
        let day = weekdays[Int(fields.tm_wday) % 7], month = months[Int(fields.tm_mon) % 12]
        return
            "\(day), \(two(fields.tm_mday)) \(month) \(1900 + Int(fields.tm_year)) \(two(fields.tm_hour)):\(two(fields.tm_min)):\(two(fields.tm_sec)) +00:00"
    }

    private static let weekdays = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
}
