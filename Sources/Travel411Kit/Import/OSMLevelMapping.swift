import Foundation

/// What each OpenStreetMap feature gives the lookups, after Nominatim's rules (docs/osm.md):
///
/// - a named highway is a thoroughfare (its `ref` when it has no name);
/// - an address (a node's, or a point on a building's surface) is an address point, its street `addr:street`,
///   else `addr:place`; `addr:interpolation` lines add the numbers between their end nodes;
/// - `boundary=administrative`: `admin_level` 2 is the country, 4 the administrativeArea, 6 the
///   subAdministrativeArea, 8 the municipality (the locality of every point inside it, Nominatim's `city`),
///   10 (else 9) the suburb (the subLocality); the others (3, 5, 7) name nothing Nominatim's answer shows;
/// - a place node is a locality point, with its `population` or, lacking one, a typical population of its
///   type (the catchment rule needs one); a place area of the suburb kind is a suburb where no boundary
///   gives one, of the town kind a locality where no municipality boundary does;
/// - every `addr:postcode` and `postal_code` boundary makes a postcode point: the mean of the objects that
///   carry it, as Nominatim computes its postcode points, once `OSMPostcodes` has dropped the typos.
struct OSMLevelMapping {
    let collector: LookupCollector
    /// The ISO codes of the country polygons collected.
    private(set) var countryCodes: Set<String> = []
    /// Features kept in their table but given to no lookup, by kind and reason.
    private(set) var unused: [OSMFeatureKind: [String: Int]] = [:]

    private struct PendingArea {
        var shape: Shape
        var layer: String
        var fid: Int64
        var name: String
    }
    /// Municipalities and suburbs by where they come from, decided at the end: a level takes polygons of one
    /// source only, since polygons of one level must not overlap.
    private var cityBoundaries: [PendingArea] = []
    private var cityPlaceAreas: [PendingArea] = []
    private var suburbBoundaries: [Int: [PendingArea]] = [:]
    private var suburbPlaceAreas: [PendingArea] = []
    /// Every object carrying each `addr:postcode`, as written (`OSMPostcodes` decides which are postcodes).
    private var postcodePoints: [String: [Coordinate]] = [:]
    private struct PendingAddress {
        var houseNumber: String
        var street: String?
        var postcode: String?
        var coordinate: Coordinate
    }
    /// Addresses wait for the whole extract: their postcodes are checked against all the others.
    private var pendingAddresses: [PendingAddress] = []
    /// Place nodes that name a municipality or a suburb where no polygon does (`OSMPlaceNodeAreas`).
    private var townNodes: [OSMPlaceNodeAreas.Node] = []
    private var suburbNodes: [OSMPlaceNodeAreas.Node] = []

    init(collector: LookupCollector) { self.collector = collector }

    /// Place types that name a locality or a part of one, with the population assumed when the node has
    /// none: OSM's wiki gives these orders of size (a village has up to 10,000 people, a hamlet up to 200).
    static let typicalPopulation: [String: Double] = [
        "city": 100_000, "town": 10_000, "village": 1_000, "hamlet": 100, "borough": 50_000, "suburb": 10_000,
        "quarter": 5_000, "neighbourhood": 1_000,
    ]
    static let townTypes: Set<String> = ["city", "town", "village", "hamlet", "municipality"]
    static let suburbTypes: Set<String> = ["borough", "suburb", "quarter", "neighbourhood", "city_district"]

    mutating func collect(_ feature: OSMFeature, layer: String, fid: Int64) throws {
        switch feature.kind {
        case .street:
            guard let name = feature.name ?? feature.highway?.ref else { return note(feature.kind, "no name") }
            try collector.collectStreet(name: name, lines: feature.shape.lines)
        case .address:
            guard let address = feature.address, let number = address.housenumber else { return note(feature.kind, "no house number") }
            let point = Self.coordinate(feature.representativePoint)
            pendingAddresses.append(
                PendingAddress(houseNumber: number, street: address.street ?? address.place, postcode: address.postcode, coordinate: point))
            if let postcode = address.postcode { addToPostcode(postcode, point) }
        case .addressInterpolation:
            let added = interpolate(feature)
            if added == 0 { note(feature.kind, "no numbers to interpolate") }
        case .place:
            collectPlace(feature, layer: layer, fid: fid)
        case .adminBoundary:
            collectBoundary(feature, layer: layer, fid: fid)
        case .postcodeBoundary:
            guard let postcode = feature.postcode else { return note(feature.kind, "no postcode") }
            addToPostcode(postcode, Self.coordinate(feature.representativePoint))
        case .poi:
            if let postcode = feature.address?.postcode { addToPostcode(postcode, Self.coordinate(feature.representativePoint)) }
            note(feature.kind, "points of interest name no placemark field yet")
        }
    }

    private mutating func collectPlace(_ feature: OSMFeature, layer: String, fid: Int64) {
        guard let place = feature.place, let name = feature.name else { return note(.place, "no name") }
        guard let typical = Self.typicalPopulation[place.type] else { return note(.place, "place=\(place.type) names no locality") }
        let population = place.population.map(Double.init) ?? typical
        collector.collectLocality(
            name: name, population: population, countryCode: nil, at: Self.coordinate(feature.representativePoint))
        if case .point(let point) = feature.shape {
            let node = OSMPlaceNodeAreas.Node(name: name, type: place.type, point: point, layer: layer, fid: fid)
            if OSMPlaceNodeAreas.halfWidthMetres(townType: place.type) != nil { townNodes.append(node) }
            if OSMPlaceNodeAreas.halfWidthMetres(suburbType: place.type) != nil { suburbNodes.append(node) }
            return
        }
        let area = PendingArea(shape: feature.shape, layer: layer, fid: fid, name: name)
        if Self.townTypes.contains(place.type) { cityPlaceAreas.append(area) }
        if Self.suburbTypes.contains(place.type) { suburbPlaceAreas.append(area) }
    }

    private mutating func collectBoundary(_ feature: OSMFeature, layer: String, fid: Int64) {
        guard let boundary = feature.adminBoundary, let name = feature.name else { return note(.adminBoundary, "no name") }
        let area = PendingArea(shape: feature.shape, layer: layer, fid: fid, name: name)
        switch boundary.adminLevel {
        case 2:
            guard let code = boundary.iso3166_1 else { return note(.adminBoundary, "a country without ISO3166-1") }
            _ = collector.collectArea(.country, feature.shape, layer: layer, fid: fid, name: name, code: code, countryCode: code)
            countryCodes.insert(code.uppercased())
        case 4:
            let country = boundary.iso3166_2.flatMap { $0.split(separator: "-").first.map(String.init) }
            _ = collector.collectArea(
                .admin, feature.shape, layer: layer, fid: fid, name: name, code: boundary.iso3166_2, countryCode: country)
        case 6:
            _ = collector.collectArea(.district, feature.shape, layer: layer, fid: fid, name: name, code: nil, countryCode: nil)
        case 8:
            cityBoundaries.append(area)
        case 9, 10:
            suburbBoundaries[boundary.adminLevel, default: []].append(area)
        default:
            note(.adminBoundary, "admin_level \(boundary.adminLevel) names no placemark field")
        }
    }

    /// The house numbers between an interpolation line's two numbered ends, spread evenly along it.
    private mutating func interpolate(_ feature: OSMFeature) -> Int {
        guard let line = feature.interpolation, let street = feature.address?.street ?? feature.address?.place,
            let first = line.firstHousenumber.flatMap(Int.init), let last = line.lastHousenumber.flatMap(Int.init), first != last
        else { return 0 }
        let step: Int
        switch line.scheme {
        case "odd", "even": step = 2
        case "all": step = 1
        default: step = Int(line.scheme) ?? 0
        }
        let points = feature.shape.lines.first ?? []
        // A line of a few hundred numbers at most: anything longer is a tagging error.
        guard step > 0, abs(last - first) / step <= 500, points.count >= 2 else { return 0 }
        let direction = last > first ? step : -step
        var added = 0
        var number = first + direction
        while direction > 0 ? number < last : number > last {
            let fraction = Double(number - first) / Double(last - first)
            pendingAddresses.append(
                PendingAddress(
                    houseNumber: String(number), street: street, postcode: feature.address?.postcode,
                    coordinate: Self.coordinate(Self.point(along: points, fraction: fraction))))
            added += 1
            number += direction
        }
        return added
    }

    static func point(along line: [Point2D], fraction: Double) -> Point2D {
        let lengths = zip(line, line.dropFirst()).map { ((($1.x - $0.x) * ($1.x - $0.x)) + (($1.y - $0.y) * ($1.y - $0.y))).squareRoot() }
        var remaining = lengths.reduce(0, +) * fraction
        for (i, length) in lengths.enumerated() {
            if remaining <= length, length > 0 {
                let t = remaining / length
                return Point2D(x: line[i].x + (line[i + 1].x - line[i].x) * t, y: line[i].y + (line[i + 1].y - line[i].y) * t)
            }
            remaining -= length
        }
        return line[line.count - 1]
    }

    private mutating func addToPostcode(_ postcode: String, _ point: Coordinate) {
        postcodePoints[postcode, default: []].append(point)
    }

    /// Adds what waited for the whole extract: the municipalities and suburbs, and the postcode centroids.
    mutating func finish() {
        var cities = cityBoundaries.isEmpty ? cityPlaceAreas : cityBoundaries
        if cities.isEmpty {
            cities = OSMPlaceNodeAreas.cells(of: townNodes, halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(townType: $0) }).map {
                PendingArea(shape: $0.shape, layer: $0.node.layer, fid: $0.node.fid, name: $0.node.name)
            }
        }
        for area in cities {
            _ = collector.collectArea(.city, area.shape, layer: area.layer, fid: area.fid, name: area.name, code: nil, countryCode: nil)
        }
        var suburbs = suburbBoundaries[10] ?? suburbBoundaries[9] ?? suburbPlaceAreas
        if suburbs.isEmpty {
            suburbs = OSMPlaceNodeAreas.cells(of: suburbNodes, halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(suburbType: $0) }).map {
                PendingArea(shape: $0.shape, layer: $0.node.layer, fid: $0.node.fid, name: $0.node.name)
            }
        }
        for area in suburbs {
            _ = collector.collectArea(.suburb, area.shape, layer: area.layer, fid: area.fid, name: area.name, code: nil, countryCode: nil)
        }
        let postcodes = OSMPostcodes(counts: postcodePoints.mapValues(\.count))
        for address in pendingAddresses {
            collector.collectAddress(
                houseNumber: address.houseNumber, street: address.street, postcode: address.postcode.flatMap(postcodes.normalised),
                at: address.coordinate)
        }
        pendingAddresses = []
        // A postcode's point is the mean of the distinct points of the objects carrying it, as Nominatim's.
        var points: [String: Set<Coordinate>] = [:]
        for (written, carriers) in postcodePoints {
            guard let postcode = postcodes.normalised(written) else { continue }
            points[postcode, default: []].formUnion(carriers)
        }
        for (postcode, carriers) in points.sorted(by: { $0.key < $1.key }) {
            let count = Double(carriers.count)
            collector.collectPostcode(
                postcode,
                at: Coordinate(
                    latitude: carriers.reduce(0) { $0 + $1.latitude } / count, longitude: carriers.reduce(0) { $0 + $1.longitude } / count))
        }
        cityBoundaries = []
        cityPlaceAreas = []
        suburbBoundaries = [:]
        suburbPlaceAreas = []
        townNodes = []
        suburbNodes = []
        postcodePoints = [:]
    }

    private mutating func note(_ kind: OSMFeatureKind, _ reason: String) {
        unused[kind, default: [:]][reason, default: 0] += 1
    }

    static func coordinate(_ point: Point2D) -> Coordinate { Coordinate(latitude: point.y, longitude: point.x) }
}
