import Foundation

/// The response shapes of Nominatim's `/reverse`.
public enum NominatimFormat: String, CaseIterable, Sendable {
    case xml, json, jsonv2, geojson, geocodejson

    public var isJSON: Bool { self != .xml }
}

/// How fine an answer may be. Nominatim's `zoom` picks the level: 3 country, 5 state, 8 county,
/// 10 city, 14 suburb, 16-17 street, 18 building; the zooms between fall to the coarser level.
public enum NominatimDetail: Int, Comparable, CaseIterable, Sendable {
    case country, state, county, city, suburb, street, building

    public init(zoom: Int) {
        switch zoom {
        case ..<5: self = .country
        case 5..<8: self = .state
        case 8..<10: self = .county
        case 10..<14: self = .city
        case 14..<16: self = .suburb
        case 16..<18: self = .street
        default: self = .building
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// The highest rank Nominatim's reverse search answers with at a zoom (its `REVERSE_MAX_RANKS`): 26
    /// major streets at 16, 27 every street at 17, 30 addresses and points of interest at 18.
    public static func maximumRank(zoom: Int) -> Int {
        let ranks = [2, 2, 2, 4, 4, 8, 10, 10, 12, 12, 16, 17, 18, 19, 22, 25, 26, 27, 30]
        return ranks[min(max(zoom, 0), ranks.count - 1)]
    }

    /// Nominatim's place_rank (and address_rank) for an answer of this level.
    public var placeRank: Int { [4, 8, 12, 16, 20, 26, 30][rawValue] }
    /// Nominatim's importance for a place without a Wikipedia-based one: 0.40001 - rank / 75, which puts
    /// countries first and houses last.
    var importance: Double { 0.40001 - Double(placeRank) / 75 }
    /// `importance` as JSON, made once per level: formatting a Double costs more than the rest of the member.
    var importanceJSON: String { Self.importanceTexts[rawValue] }
    private static let importanceTexts = allCases.map { JSONText.number($0.importance) }
    /// category (jsonv2) or class (json), type, addresstype, and GeocodeJSON's type.
    var category: String { ["boundary", "boundary", "boundary", "place", "place", "highway", "place"][rawValue] }
    var type: String { ["administrative", "administrative", "administrative", "city", "suburb", "road", "house"][rawValue] }
    var addressType: String { ["country", "state", "county", "city", "suburb", "road", "place"][rawValue] }
    var geocodeJSONType: String { ["country", "state", "county", "city", "district", "street", "house"][rawValue] }
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
    var extent: BoundingBox?
    /// The outline to print with `polygon_*`, already simplified; nil prints the point.
    public var geometry: Shape?

    /// nil when the point has no answer at this detail (at sea, or nothing known): "Unable to geocode".
    public init?(_ p: Placemark, detail: NominatimDetail = .building) {
        guard p.namesAPlace else { return nil }
        func upTo<T>(_ level: NominatimDetail, _ value: T?) -> T? { detail >= level ? value : nil }
        let houseNumber = p.thoroughfare != nil ? upTo(.building, p.subThoroughfare) : nil
        let road = upTo(.street, p.thoroughfare)
        let neighbourhood = upTo(.street, p.neighbourhoodFeature?.name)
        let suburb = upTo(.suburb, p.subLocality)
        let villagePart = upTo(.suburb, p.villagePartFeature?.name)
        let city = upTo(.city, p.locality)
        let county = upTo(.county, p.subAdministrativeArea)
        let state = upTo(.state, p.administrativeArea)
        let feature = p.feature.flatMap { detail >= ($0.rank >= 30 ? .building : .street) ? $0 : nil }
        let named: [(NominatimDetail, String?)] = [
            (.building, houseNumber), (.street, road), (.suburb, suburb), (.city, city),
            (.county, county), (.state, state), (.country, p.country),
        ]
        guard let finest = named.first(where: { $0.1 != nil }) else { return nil }
        level = finest.0
        // Without a street or building, the area the level names, when an extract gave it: the municipality's
        // boundary, the suburb's node, the country's boundary.
        var area: AnsweringFeature?
        if feature == nil {
            switch level {
            case .suburb: area = p.subLocalityFeature
            case .city: area = p.localityFeature
            case .county: area = p.subAdministrativeAreaFeature
            case .state: area = p.administrativeAreaFeature
            case .country: area = p.countryFeature
            case .street, .building: area = nil
            }
        }
        // Above street level the postcode is that area's own, which only an OpenStreetMap database knows
        // (`OSMAreaPostcodes`); a postcode point's is no town's.
        let postcode = detail >= .street ? p.postalCode : area?.postcode
        // A named point of interest or building heads its address, under its main tag's key (`amenity`: Ravintola
        // Bank, `building`: Alma-talo).
        let poi = feature.flatMap { f in f.rank >= 30 && f.category != "place" ? f.name : nil }
        let parts: [(NominatimDetail, String, String?)] = [
            (.building, feature?.category ?? "amenity", poi), (.building, "house_number", houseNumber), (.street, "road", road),
            // An extract's suburb or municipality under its place type, as Nominatim keys them (`village`: Gamprin).
            (.street, "neighbourhood", neighbourhood), (.suburb, p.subLocalityFeature?.addressKey ?? "suburb", suburb),
            (.suburb, p.villagePartFeature?.addressKey ?? "village", villagePart),
            (.city, p.localityFeature?.addressKey ?? "city", city),
            (.county, "county", county), (.state, "state", state),
            // Nominatim's key for the ISO 3166-2 code of the first-level area.
            (.state, "ISO3166-2-lvl4", upTo(.state, p.administrativeAreaCode)), (.street, "postcode", postcode),
            (.country, "country", p.country), (.country, "country_code", p.isoCountryCode?.lowercased()),
        ]
        // One value a key, the finest, as Nominatim's answer keeps it: a village inside a municipality keyed
        // `village` too leaves the municipality out (Rotenboden, not Triesenberg).
        var kept: [(key: String, value: String)] = []
        for case let (_, key, value?) in parts where !kept.contains(where: { $0.key == key }) { kept.append((key, value)) }
        address = kept
        // Every part its own, the house number too, as Nominatim joins them ("20, Unioninkatu").
        var display = ""
        display.reserveCapacity(160)
        for case let part? in [poi, houseNumber, road, neighbourhood, suburb, villagePart, city, county, state, postcode, p.country] {
            if !display.isEmpty { display += ", " }
            display += part
        }
        displayName = display
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
            placeID = Self.placeID([feature.elementType.rawValue, String(feature.elementID)])
        } else if let area {
            name = finest.1 ?? ""
            location = area.location
            category = area.category
            type = area.type
            addressType = area.addressKey ?? level.addressType
            placeRank = area.rank
            element = (area.elementType.rawValue, area.elementID)
            extent = area.extent
            placeID = Self.placeID([area.elementType.rawValue, String(area.elementID)])
        } else {
            name = level == .building ? "" : (finest.1 ?? "")
            location = p.location
            category = level.category
            type = level.type
            addressType = level.addressType
            placeRank = level.placeRank
            element = nil
            extent = nil
            placeID = Self.placeID([road, city, state, p.isoCountryCode])
        }
        objectNames = (feature ?? area)?.names ?? [:]
    }

    /// `namedetails`: every name of the answering OpenStreetMap object (`name`, then `name:xx` by tag) when the
    /// placemark carries them, else the answer's name.
    public var nameDetails: [(key: String, value: String)] {
        guard !objectNames.isEmpty else { return name.isEmpty ? [] : [("name", name)] }
        return objectNames.sorted { ($0.key == "name" ? "" : $0.key) < ($1.key == "name" ? "" : $1.key) }.map { ($0.key, $0.value) }
    }

    /// Nominatim's importance for a place without a Wikipedia-based one, as JSON.
    var importanceJSON: String {
        element == nil ? level.importanceJSON : JSONText.number(0.40001 - Double(placeRank) / 75)
    }

    /// A stable number for the answer: the same place always gets the same id (FNV-1a of its names).
    static func placeID(_ names: [String?]) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ byte: UInt8) { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        for (index, name) in names.enumerated() {
            if index > 0 { add(UInt8(ascii: "|")) }
            guard var name else { continue }
            name.withUTF8 { for byte in $0 { add(byte) } }
        }
        return hash >> 12
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

    /// Nominatim's box around a place node, by its kind (half the side, in degrees); nil for a kind it keeps
    /// no size for (± 0.00005°).
    static func nodeExtent(category: String, type: String) -> Double? {
        guard category == "place" else { return nil }
        switch type {
        case "city", "municipality": return 0.16
        case "town": return 0.04
        case "village", "hamlet", "district", "borough", "suburb": return 0.02
        case "locality", "neighbourhood", "quarter", "city_block", "farm": return 0.01
        default: return nil
        }
    }

    /// Nominatim's search rank of a place node, its `place_rank` (its address-levels.json: a suburb node is 19,
    /// though it makes an address part of rank 20); nil for a kind it does not list.
    static func nodeRank(type: String) -> Int? {
        switch type {
        case "municipality": return 14
        case "city": return 16
        case "town", "borough": return 18
        case "village", "suburb": return 19
        case "hamlet", "quarter", "croft": return 20
        case "isolated_dwelling", "farm": return 22
        case "neighbourhood": return 24
        case "locality", "city_block": return 25
        default: return nil
        }
    }

    var extraTags: [(key: String, value: String)] {
        [("timezone", timeZone), ("water", water)].compactMap { key, value in value.map { (key, $0) } }
    }
}

/// Nominatim's reverse answers in every format, for clients written against Nominatim.
public enum NominatimFormatter {
    /// The keys an address may give its municipality and its suburb under (`NominatimPlace.address`).
    static let cityKeys: Set<String> = ["city", "town", "village", "hamlet", "municipality"]
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
        guard var place = NominatimPlace(p, detail: options.detail) else { return Array(unableToGeocode(options).utf8) }
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
        place.element != nil ? sevenDecimals(value) : coordinateText(value)
    }

    /// `value` rounded to 1e-7 with exactly seven decimals, without Foundation's formatter (a server answer
    /// prints six of them).
    static func sevenDecimals(_ value: Double) -> String {
        var bytes: [UInt8] = []
        appendSevenDecimals(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `String(format: "%.7f", value)` as bytes (as Nominatim's Python prints coordinates), without Foundation's
    /// formatter for all but the values a rounded product cannot decide: within its error of a half.
    static func appendSevenDecimals(_ value: Double, to bytes: inout [UInt8]) {
        guard value.isFinite, abs(value) < 1e11 else { return bytes.append(contentsOf: JSONText.number(value).utf8) }
        let product = value * 1e7
        // The product is off the exact one by at most half an ulp (|product| × 2^-53); beyond twice that from a
        // half, rounding it rounds the exact value the same way. Below 1e8 its integer part is exact too.
        let fraction = abs(product - product.rounded(.towardZero))
        guard abs(value) < 1e8, abs(fraction - 0.5) > abs(product) * 0x1p-52 else {
            return bytes.append(contentsOf: String(format: "%.7f", value).utf8)
        }
        let scaled = Int64(product.rounded())
        if value.sign == .minus { bytes.append(UInt8(ascii: "-")) }
        JSONText.appendDecimal(scaled.magnitude / 10_000_000, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        JSONText.appendDecimal(scaled.magnitude % 10_000_000, width: 7, to: &bytes)
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

        mutating func append(_ text: String) { bytes.append(contentsOf: text.utf8) }

        /// `"key":`, after a comma unless it is the first member.
        mutating func key(_ key: String) {
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

        mutating func integer(_ key: String, _ value: UInt64) {
            self.key(key)
            JSONText.appendDecimal(value, to: &bytes)
        }

        /// A coordinate as a JSON string, an OpenStreetMap object's with seven decimals
        /// (`NominatimFormatter.coordinateText(_:of:)`).
        mutating func coordinate(_ value: Double, of place: NominatimPlace) {
            guard place.element != nil else { return JSONText.append(NominatimFormatter.coordinateText(value), to: &bytes) }
            bytes.append(UInt8(ascii: "\""))
            NominatimFormatter.appendSevenDecimals(value, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
        }

        /// `"key":{"k":"v",…}` from pairs of strings.
        mutating func object(_ key: String, _ pairs: [(key: String, value: String)]) {
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
    /// not per answer (and per address part for the levels): 50.1 -> 48.4 us a request, medians of three runs.
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
        var levels = ["country": "level2", "state": "level4", "county": "level6"]
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
            "\"type\":\(str(place.level.geocodeJSONType))",
            "\"label\":\(str(place.displayName))",
        ]
        // Nominatim leaves the name out when the place has none (a house).
        if !place.name.isEmpty { geocoding.append("\"name\":\(str(place.name))") }
        if options.addressDetails {
            // A key once, the first (finest) part's: `_write_geocodejson_address` of Nominatim's
            // `nominatim_api/v1/format_json.py` keeps a rank name it has (a suburb and a city_district are one `district`).
            var written: Set<String> = []
            geocoding += place.address.compactMap { part in
                Self.geocodeJSONKeys[part.key].flatMap { written.insert($0).inserted ? "\(str($0)):\(str(part.value))" : nil }
            }
            var levels: Set<String> = []
            let admin = place.address.compactMap { part in
                Self.geocodeJSONAdminLevels[part.key].flatMap { levels.insert($0).inserted ? "\(str($0)):\(str(part.value))" : nil }
            }
            geocoding.append("\"admin\":{" + admin.joined(separator: ",") + "}")
        }
        if options.extraTags {
            geocoding.append("\"extra\":{" + place.extraTags.map { "\(str($0.key)):\(str($0.value))" }.joined(separator: ",") + "}")
        }
        let query = "\(coordinateText(place.location.latitude)),\(coordinateText(place.location.longitude))"
        return
            "{\"type\":\"FeatureCollection\",\"geocoding\":{\"version\":\"0.1.0\",\"attribution\":\(options.licence.json),\"licence\":\(str(geocodeJSONLicence)),\"query\":\(str(query))},"
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
    /// a DateFormatter: making one per answer took 64 % of an XML request's CPU (117 against 42 µs for JSON).
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

/// Text and attribute values inside XML: &, <, > and " are escaped (attributes are always written in
/// double quotes, so ' may stay), and control
/// characters XML 1.0 cannot carry at all are dropped.
public enum XMLText {
    public static func escaped(_ text: String) -> String {
        // Most names need nothing: walking every scalar into a new String was 13 % of an XML answer's samples.
        if !text.utf8.contains(where: mayNeedEscape) { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a UTF-8 byte may start something `escaped` changes: a markup character, a control character
    /// other than tab and line ends, or the first byte of U+FFFE / U+FFFF (0xEF, which also starts others).
    @inline(__always)
    private static func mayNeedEscape(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), 0xEF: return true
        case UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): return false
        default: return byte < 0x20
        }
    }
}
