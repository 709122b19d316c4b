import Foundation
import Travel411Core
import Travel411Geocoder
import Travel411OSM
import Travel411Store

/// What each OpenStreetMap feature gives the lookups, after Nominatim's rules (docs/osm.md):
///
/// - a named highway is a thoroughfare (its `ref` when it has no name);
/// - an address (a node's, or a point on a building's surface) is an address point, its street `addr:street`, else
///   `addr:place`; an `addr:interpolation` line's pieces are lines (`OSMInterpolationLines`);
/// - `boundary=administrative`: `admin_level` 2 is the country; the others take the placemark level of their
///   address rank in their country (`placeBoundaries`, after Nominatim's address-levels.json): by default 4
///   the administrativeArea, 6 the subAdministrativeArea, 8 the municipality (the locality of every point
///   inside it, Nominatim's `city`), 10 (else 9) the suburb (the subLocality);
/// - a city, town or village node is a locality point, with its `population` or, lacking one, a typical
///   population of its type (the catchment rule needs one); a place area of the suburb kind is a suburb where no boundary
///   gives one, of the town kind a locality where no municipality boundary does; where no polygon gives
///   suburbs, the suburb, hamlet and (inside a municipality not their own) village nodes do, by area; each country
///   decides for itself, as Nominatim ranks places per country (`OSMLevelSources`);
/// - every `addr:postcode` makes a postcode point: the mean of the objects that carry it, as Nominatim computes
///   its postcode points, once `OSMPostcodes` has dropped the typos; a `boundary=postal_code` polygon and an
///   administrative boundary's `postal_code` are postcode areas (`OSMPostcodeAreas`).
struct OSMLevelMapping {
    let collector: LookupCollector
    /// The ISO codes of the country polygons collected.
    private(set) var countryCodes: Set<String> = []
    /// Features kept in their table but given to no lookup, by kind and reason.
    private(set) var unused: [OSMFeatureKind: [String: Int]] = [:]

    /// The outlines of the boundaries and place areas below, until the end of the read.
    private let pendingShapes: OSMShapeFile
    /// Municipalities and suburbs by where they come from, decided at the end: a level takes polygons of one
    /// source, where overlapping ones are ordered finest first, as the first polygon of a level holding a point
    /// answers (`withTownNodes`, `withSubpartNodes`).
    private var cityBoundaries: [PendingArea] = []
    private var cityPlaceAreas: [PendingArea] = []
    /// The lists filled while the extract is read, on disk until it is (`PendingPlaces`).
    private var pendingPlaces: PendingPlaces
    /// Suburb-band boundaries by their address rank (`NominatimAddressLevels`).
    private var suburbBoundaries: [Int: [PendingArea]] = [:]
    /// The boundaries below the country's, ranked once the extract's countries are known (`placeBoundaries`).
    private var rankedBoundaries: [(area: PendingArea, adminLevel: Int, subdivision: String?)] = []
    /// The extract's own country polygons, which decide its objects' country first (`OSMCountryOfPoint`), on disk.
    private var extractCountries: [(code: String, shape: OSMStoredShape)] = []
    /// The part of the world the extract's streets, addresses and places cover.
    private(set) var extent = BoundingBox.empty
    private var suburbPlaceAreas: [PendingArea] = []
    /// Boundaries of the neighbourhood band, below the suburbs (`withFinerBoundaries`).
    private var finerBoundaries: [PendingArea] = []
    /// Named landuse areas of an address rank, which join them after the place polygons (`collectLanduseArea`).
    private var landuseAreas: [PendingArea] = []
    /// Every object carrying each `addr:postcode`, as written (`OSMPostcodes` decides which are postcodes).
    private var postcodeCarriers: OSMPostcodeCarriers
    /// What waits for the whole extract waits on disk (`OSMSpillFile`), as it grows with the extract: the
    /// addresses, whose postcodes are checked against all the others (`PendingAddress`); the address points and
    /// POIs, as Nominatim answers with them at zoom 18 (`PlacesSchema.ObjectField`), which wait for the postcodes
    /// and the parent streets too (`PendingObject`); each street's midpoint, which decides its postcode once the
    /// postcode points are known.
    let pendingAddresses: OSMSpillFile
    let pendingObjects: OSMSpillFile
    private let streetMidpoints: OSMSpillFile
    /// The named streets by their centres, which the addresses, POIs and interpolation lines find their street among.
    var parentStreets: OSMParentStreets
    /// The places an object's `addr:place` names, for an object whose `addr:street` names no street near.
    var addressPlaces: OSMAddressPlaceParents
    /// Place nodes with a `wikidata` item, which boundaries link to (`OSMLinkedPlaces`).
    private(set) var linkedPlaces = OSMLinkedPlaces()
    /// Place nodes that name a municipality or a suburb where no polygon does (`OSMPlaceNodeAreas`).
    private var townNodes: [OSMPlaceNodeAreas.Node] = []
    private var suburbNodes: [OSMPlaceNodeAreas.Node] = []
    /// The `boundary=postal_code` polygons and the administrative boundaries with a `postal_code` (`OSMPostcodeAreas`).
    private var postalCodeAreas: [(code: String, shape: Shape)] = []
    private var postcodeBoundaries: [(code: String, shape: Shape, adminLevel: Int)] = []

    /// The start of the temporary files' paths, beside the database being built.
    private let temporaryPrefix: String

    /// `temporaryPrefix`: the start of the paths of the temporary files, beside the database being built.
    init(collector: LookupCollector, temporaryPrefix: String) throws {
        self.collector = collector
        self.temporaryPrefix = temporaryPrefix
        postcodeCarriers = OSMPostcodeCarriers(runPrefix: temporaryPrefix + "postcode-run-")
        parentStreets = OSMParentStreets(runPrefix: temporaryPrefix + "parent-run-")
        addressPlaces = OSMAddressPlaceParents(runPrefix: temporaryPrefix + "address-place-run-")
        pendingAddresses = try OSMSpillFile(path: temporaryPrefix + "addresses")
        pendingObjects = try OSMSpillFile(path: temporaryPrefix + "objects")
        streetMidpoints = try OSMSpillFile(path: temporaryPrefix + "street-midpoints")
        pendingShapes = try OSMShapeFile(path: temporaryPrefix + "pending-shapes")
        pendingPlaces = try PendingPlaces(path: temporaryPrefix + "pending-places", shapes: pendingShapes)
    }

    /// Place types that name a locality or a part of one, with the population assumed when the node has
    /// none: OSM's wiki gives these orders of size (a village has up to 10,000 people, a hamlet up to 200).
    static let typicalPopulation: [String: Double] = [
        "city": 100_000, "town": 10_000, "village": 1_000, "hamlet": 100, "borough": 50_000, "suburb": 10_000,
        "quarter": 5_000, "neighbourhood": 1_000,
    ]
    static let townTypes: Set<String> = ["city", "town", "village", "hamlet", "municipality"]
    /// The place types a locality point is made of.
    static let localityTypes: Set<String> = ["city", "town", "village"]
    static let suburbTypes: Set<String> = ["borough", "suburb", "quarter", "neighbourhood", "city_district"]

    mutating func collect(_ feature: OSMFeature, layer: String, fid: Int64) throws {
        switch feature.kind {
        case .street:
            // Unnamed streets are answers too, without a road (Nominatim's); the lookups that want a name skip them.
            let lines = feature.shape.lines
            let rank = feature.highway.map { OSMFeatureClassifier.streetRank($0.highwayClass) }
            // An area (a pedestrian square) stands at a point on its surface, a line at its middle: Nominatim's
            // centroid (`get_center_point`), by which it answers, finds its postcode and its addresses.
            let centre = feature.areaCentre
            let midpoint = centre ?? OSMStreetPostcodes.midpoint(of: lines)
            if let midpoint { extent.extend(x: midpoint.x, y: midpoint.y) }
            if let id = try collector.collectStreet(
                name: feature.name ?? feature.highway?.ref ?? "", rank: rank, element: Self.elementText(feature.element),
                kind: feature.highway?.highwayClass, lines: lines, centre: centre, centroid: midpoint), let midpoint
            {
                try streetMidpoints.append { $0.writeStreetMidpoint(id, midpoint, postcode: feature.address?.postcode) }
                try parentStreets.add(street: id, names: feature.streetNames, midpoint: midpoint)
                if let ref = feature.highway?.ref { try parentStreets.add(street: id, ref: ref, midpoint: midpoint) }
            }
        case .address:
            guard let address = feature.address, address.isAddressPoint else { return note(feature.kind, "no house number") }
            let point = Self.coordinate(feature.representativePoint)
            extent.extend(x: point.longitude, y: point.latitude)
            // A house name without a number is an object to answer with, not a numbered address point.
            if let number = address.housenumber, !address.housenumberIsName {
                let pending = PendingAddress(
                    houseNumber: number, street: address.street ?? address.place, postcode: address.postcode, coordinate: point)
                try pendingAddresses.append { $0.write(pending) }
            }
            if let postcode = address.postcode { try postcodeCarriers.add(postcode, at: point) }
            try addObject(feature)
        case .addressInterpolation:
            let added = try interpolate(feature)
            if added == 0 { note(feature.kind, "no numbers to interpolate") }
        case .place:
            try addressPlaces.add(feature)
            try collectPlace(feature, layer: layer, fid: fid)
        case .adminBoundary:
            try addressPlaces.add(feature)
            try collectBoundary(feature, layer: layer, fid: fid)
        case .postcodeBoundary, .postcodePoint:
            guard let postcode = feature.postcode else { return note(feature.kind, "no postcode") }
            // A postal_code polygon is a postcode area, not a carrier (`OSMPostcodeAreas`).
            if feature.kind == .postcodeBoundary, case .polygon = feature.shape { return postalCodeAreas.append((postcode, feature.shape)) }
            try postcodeCarriers.add(postcode, at: Self.coordinate(feature.representativePoint))
        case .poi:
            // An address point (a house number or name) came as an address too, which carries its name.
            guard !(feature.address?.isAddressPoint ?? false) else { return }
            if let postcode = feature.address?.postcode {
                try postcodeCarriers.add(postcode, at: Self.coordinate(feature.representativePoint))
            }
            // A POI along an open line (a pier mapped as a line) is no answer: Nominatim leaves lines out.
            guard feature.element.type == .node || !feature.outline.isEmpty else { return note(feature.kind, "a line") }
            try addObject(feature)
        }
    }

    private mutating func addObject(_ feature: OSMFeature) throws {
        guard feature.answersAtBuildingLevel else { return }
        let address = feature.address
        let category = feature.pointOfInterest.map { "\($0.key)=\($0.value)" } ?? feature.building.map { "building=\($0)" }
        let object = PendingObject(
            fields: [
                feature.name, address?.housenumber, address?.street, address?.postcode,
                Self.elementText(feature.element), category, Self.extentText(feature.outline),
                Self.pointText(feature.representativePoint), address.flatMap(ObjectNearestStreets.parentMark), nil, nil, address?.city,
            ],
            point: feature.representativePoint, outline: feature.outline)
        let number = try addObject(object)
        if let place = address?.place { try addressPlaces.ask(object: number, place: place, at: object.point) }
    }

    /// Keeps an object until the extract is read, asking for its parent street; its number. Not `indexed`: a record only.
    @discardableResult mutating func addObject(_ object: PendingObject, indexed: Bool = true) throws -> UInt32 {
        let number = UInt32(pendingObjects.count)
        if let street = object.fields[PlacesSchema.ObjectField.street.rawValue] ?? nil {
            try parentStreets.ask(object: number, named: street, at: object.point)
        }
        if !indexed { collector.interpolations.addUnindexed(pendingObject: number) }
        try pendingObjects.append { $0.write(object) }
        return number
    }

    private mutating func collectPlace(_ feature: OSMFeature, layer: String, fid: Int64) throws {
        guard let place = feature.place, let name = feature.name else { return note(.place, "no name") }
        // A place on a line only parents the objects of its `addr:place` (`addressPlaces`): it holds no point.
        if case .lineString = feature.shape { return }
        if place.key == "landuse" { return try collectLanduseArea(feature, place, name: name, layer: layer, fid: fid) }
        if case .point(let point) = feature.shape { linkedPlaces.add(feature, place, at: point) }
        guard let typical = Self.typicalPopulation[place.type] else { return note(.place, "place=\(place.type) names no locality") }
        // A hamlet, suburb, quarter or neighbourhood is a part of a municipality (Nominatim's address rank 20
        // and finer), never the town itself: an extract holding only a town's parts (Kouvola's) made its
        // suburbs the city ("Ristinkallio, Ristinkallio").
        if Self.localityTypes.contains(place.type) {
            let population = place.population.map(Double.init) ?? typical
            try pendingPlaces.addLocality(name, type: place.type, population, at: Self.coordinate(feature.representativePoint))
        }
        if case .point(let point) = feature.shape {
            extent.extend(x: point.x, y: point.y)
            var node = OSMPlaceNodeAreas.Node(
                name: name, type: place.type, point: point, layer: layer, fid: fid, isCapital: place.isCapital)
            node.postcode = feature.address?.postcode
            // A village or town is a municipality's, or a part of another's: `finish` decides.
            if OSMPlaceNodeAreas.halfWidthMetres(townType: place.type) != nil {
                try pendingPlaces.addNode(node, isTown: true)
            } else if OSMPlaceNodeAreas.halfWidthMetres(suburbType: place.type) != nil {
                try pendingPlaces.addNode(node, isTown: false)
            }
            return
        }
        guard Self.townTypes.contains(place.type) || Self.suburbTypes.contains(place.type) else { return }
        let area = PendingArea(stored: try pendingShapes.store(feature.shape), layer: layer, fid: fid, name: name, placeType: place.type)
        try pendingPlaces.addPlaceArea(area, isCity: Self.townTypes.contains(place.type), isSuburb: Self.suburbTypes.contains(place.type))
    }

    /// A named landuse area that address-levels.json gives an address rank (`residential`, `industrial`, … 24; the
    /// others 0, and `_lookup_area_address` takes areas of address rank 4-25 only) lies over the suburbs as a
    /// neighbourhood polygon does (`withFinerBoundaries`), keyed by its value (`get_label_tag`,
    /// nominatim_api/v1/classtypes.py): it answers at zooms 15-17 and names the address of what it holds.
    private mutating func collectLanduseArea(_ feature: OSMFeature, _ place: OSMPlace, name: String, layer: String, fid: Int64) throws {
        let ranks = NominatimAddressLevels.embedded?.ranks(key: place.key, value: place.type, countryCode: nil)
        guard let rank = ranks?.address, NominatimAddressLevels.Band(addressRank: rank) == .neighbourhood || rank == 25 else {
            return note(.place, "landuse=\(place.type) has no address rank")
        }
        // Its own `addr:postcode` first (`token_get_postcode` in `placex_update`): Makati's Mile Long, 1200.
        let area = PendingArea(
            stored: try pendingShapes.store(feature.shape), layer: layer, fid: fid, name: name, placeType: place.type,
            postcode: feature.address?.postcode)
        try pendingPlaces.addLanduseArea(area)
    }

    private mutating func collectBoundary(_ feature: OSMFeature, layer: String, fid: Int64) throws {
        guard let boundary = feature.adminBoundary, let name = feature.name else { return note(.adminBoundary, "no name") }
        if let postcode = feature.postcode {
            try postcodeCarriers.add(boundaryPostcode: postcode, of: feature.shape)
            if boundary.adminLevel > 2 { postcodeBoundaries.append((postcode, feature.shape, boundary.adminLevel)) }
        }
        guard boundary.adminLevel == 2 else {
            var area = PendingArea(
                stored: try pendingShapes.store(feature.shape), layer: layer, fid: fid, name: name, postcode: feature.postcode)
            (area.wikidata, area.labelNode) = (feature.wikidata, feature.labelNode)
            area.boundaryPlace = boundary.place
            return try pendingPlaces.addBoundary(area, adminLevel: boundary.adminLevel, subdivision: boundary.iso3166_2)
        }
        guard let code = boundary.iso3166_1 else { return note(.adminBoundary, "a country without ISO3166-1") }
        _ = collector.collectArea(
            .country, feature.shape, layer: layer, fid: fid, name: name, code: code, countryCode: code,
            centre: feature.representativePoint)
        countryCodes.insert(code.uppercased())
        extractCountries.append((code, try pendingShapes.store(feature.shape)))
    }

    /// Gives each boundary below the country's the placemark level its address rank says in its country
    /// (`NominatimAddressLevels`, Nominatim's `settings/address-levels.json`): of each band (state, county, city,
    /// suburb) the rank Nominatim labels so (`ADMIN_LABELS` of `nominatim_api/v1/classtypes.py`: 8 State, 12
    /// County, 16 City, 20 Suburb), else the band's highest, as one placemark level takes polygons that do not
    /// overlap. A rank of 0 (the Netherlands' admin_level 7) or outside the bands names nothing. The rank is
    /// chosen per country, as the ranks are: Andorra's parishes (admin_level 7, rank 14) are its municipalities
    /// beside the French communes (admin_level 8, rank 16) of the same extract.
    private mutating func placeBoundaries(_ countries: OSMCountryOfPoint, postcodes: OSMPostcodes) {
        let levels = NominatimAddressLevels.embedded
        var bands: [BandOfCountry: [Int: [(PendingArea, String?, String?)]]] = [:]
        var parents: OSMBoundaryParents?
        for (area, adminLevel, subdivision) in rankedBoundaries {
            let country =
                subdivision.flatMap { $0.split(separator: "-").first.map(String.init) }
                ?? countries.countryCode(at: area.shape.pointOnSurface)
            // Without the settings file, Nominatim's default entry: rank twice the admin_level.
            var rank = levels.map { $0.boundaryRanks(adminLevel: adminLevel, countryCode: country)?.address ?? 0 } ?? adminLevel * 2
            var area = area
            if rank > 0, let levels, let node = linkedPlaces.node(linkedTo: area) {
                let centre = area.shape.pointOnSurface
                parents = parents ?? boundaryParents(levels, countries)
                let parentRank = parents?.parentRank(adminLevel: adminLevel, at: centre) ?? 3
                rank = OSMLinkedPlaces.rank(of: rank, linkedTo: node, parentRank: parentRank, countryCode: country, levels: levels)
                area.placeType = node.type
                linkedPlaces.noteLinked(node)
            } else if rank > 0, let levels, let place = area.boundaryPlace, !hasNodeOfItsName(area, rank: rank) {
                parents = parents ?? boundaryParents(levels, countries)
                let parentRank = parents?.parentRank(adminLevel: adminLevel, at: area.shape.pointOnSurface) ?? 3
                rank = Self.unlinkedRank(rank, place: place, parentRank: parentRank, country: country, levels: levels)
            }
            // A boundary of the neighbourhood band names no placemark field but answers at zooms 13-15, which
            // look for areas by their search rank, its admin_level's (`_lookup_area_address`; `withFinerBoundaries`).
            if NominatimAddressLevels.Band(addressRank: rank) == .neighbourhood || rank == 25 {
                if area.placeType == nil {
                    area.placeType = area.boundaryPlace ?? NominatimAdminLabel.key(addressRank: rank, countryCode: country)
                }
                finerBoundaries.append(area)
                continue
            }
            guard let band = NominatimAddressLevels.Band(addressRank: rank), band != .country, band != .neighbourhood else {
                note(.adminBoundary, "admin_level \(adminLevel) names no placemark field")
                continue
            }
            bands[BandOfCountry(band: band, country: country?.uppercased()), default: [:]][rank, default: []].append(
                (area, subdivision, country))
        }
        rankedBoundaries = []
        let labelled: [NominatimAddressLevels.Band: Int] = [.state: 8, .county: 12, .city: 16, .suburb: 20]
        // In a stable order: the areas' order decides their feature numbers.
        for (key, ranks) in bands.sorted(by: { ("\($0.key.band)", $0.key.country ?? "") < ("\($1.key.band)", $1.key.country ?? "") }) {
            let band = key.band
            let target = labelled[band] ?? 0
            guard let chosen = ranks[target] != nil ? target : ranks.keys.max() else { continue }
            // The city band keeps its coarser ranks after the chosen one: where a rank-16 municipality is missing
            // (Andorra's parishes, rank 14, hold two of them), Nominatim names the coarser one (the first polygon
            // of a level holding a point answers).
            let kept = band == .city ? ranks.keys.filter { $0 <= chosen }.sorted(by: >) : [chosen]
            for (other, dropped) in ranks where !kept.contains(other) {
                for _ in dropped { note(.adminBoundary, "address rank \(other), a finer one of its band answers") }
            }
            for rank in kept {
                for (area, subdivision, country) in ranks[rank] ?? [] {
                    var area = area
                    area.country = country
                    // A state's or county's own `addr:postcode`, which Nominatim's answer of that area carries
                    // (`token_get_postcode` in `placex_update`): Saint-Barthélemy's 97133.
                    let own = area.postcode.flatMap { postcodes.normalised($0, countryCode: country) }
                    switch band {
                    case .state, .county:
                        let label = NominatimAdminLabel.key(addressRank: rank, countryCode: country)
                        // Keyed only where its rank's label is not its band's (`state`, `county`): Belgium's regions.
                        if label != (band == .state ? "state" : "county") { area.unlinkedKey = label }
                        collectUpperArea(area, isState: band == .state, subdivision: subdivision, country: country, postcode: own)
                    case .city:
                        // An unlinked boundary is keyed by its rank's label: 14-15 `municipality`, 16 `city`.
                        if rank < 16 { area.unlinkedKey = NominatimAdminLabel.key(addressRank: rank, countryCode: country) }
                        // Linked by its `wikidata` (above), a boundary took its node's address rank (Encamp's parish
                        // is its town); a node linked by name has the boundary's own rank (`OSMNameLinks`), so a parish of
                        // rank 14 stays one beside the town node of its name (Ordino's).
                        area.rank = rank
                        cityBoundaries.append(area)
                    default: suburbBoundaries[rank, default: []].append(area)
                    }
                }
            }
        }
    }

    /// A state's or a county's area, keyed by its linked node's type, else by its own `place` (`get_label_tag`): Gozo,
    /// linked to its island node, is Malta's `island`; else by its rank (`NominatimAdminLabel`), `state` or `county` unless
    /// it says otherwise.
    private mutating func collectUpperArea(_ area: PendingArea, isState: Bool, subdivision: String?, country: String?, postcode: String?) {
        _ = collector.collectArea(
            isState ? .admin : .district, area.shape, layer: area.layer, fid: area.fid, name: area.name,
            code: isState ? subdivision : nil, countryCode: isState ? country : nil, postcode: postcode,
            placeType: area.placeType ?? area.boundaryPlace ?? area.unlinkedKey, centre: area.shape.pointOnSurface,
            taggedPostcode: postcode)
    }

    /// Whether a town node (for a boundary of the city band) or a suburb node (the suburb band) of the boundary's
    /// name lies inside it: Nominatim links them by name where their address ranks are equal (`find_linked_place`).
    private func hasNodeOfItsName(_ area: PendingArea, rank: Int) -> Bool {
        let band = NominatimAddressLevels.Band(addressRank: rank)
        let nodes = band == .city ? townNodes : band == .suburb ? suburbNodes : []
        let key = OSMParentStreets.key(area.name)
        let box = area.shape.boundingBox
        return nodes.contains { node in
            OSMParentStreets.key(node.name) == key && box.contains(x: node.point.x, y: node.point.y)
                && area.shape.contains(x: node.point.x, y: node.point.y)
        }
    }

    /// The address rank of a boundary linked to no place node but tagged with a `place`: that place type's, where it
    /// is finer than the boundary's parent and coarser than 26 (`placex_update`, "as a last resort check if the
    /// boundary is tagged with a place type"). Harrisburg's census places (`place=locality`, admin_level 8) are
    /// rank 25, which no street's address reaches (`insert_addresslines` takes ranks below 25 for streets).
    private static func unlinkedRank(_ rank: Int, place: String, parentRank: Int, country: String?, levels: NominatimAddressLevels) -> Int {
        guard let placeRank = levels.placeRanks(type: place, countryCode: country)?.address else { return rank }
        return placeRank > parentRank && placeRank < 26 ? placeRank : rank
    }

    /// The boundaries below the country's with their address ranks, for `OSMBoundaryParents`.
    private func boundaryParents(_ levels: NominatimAddressLevels, _ countries: OSMCountryOfPoint) -> OSMBoundaryParents {
        OSMBoundaryParents(
            rankedBoundaries.map { area, adminLevel, subdivision in
                let shape = area.shape
                let country =
                    subdivision.flatMap { $0.split(separator: "-").first.map(String.init) }
                    ?? countries.countryCode(at: shape.pointOnSurface)
                return (
                    { area.shape }, shape.boundingBox, adminLevel,
                    levels.boundaryRanks(adminLevel: adminLevel, countryCode: country)?.address ?? 0
                )
            })
    }

    /// The lists the read filled on disk (`PendingPlaces`); the extract's localities go to the collector in their order.
    private mutating func readBackPendingPlaces() throws {
        let lists = try pendingPlaces.readBack()
        for locality in lists.localities {
            collector.collectExtractLocality(locality)
        }
        (townNodes, suburbNodes, rankedBoundaries) = (lists.townNodes, lists.suburbNodes, lists.rankedBoundaries)
        (cityPlaceAreas, suburbPlaceAreas) = (lists.cityPlaceAreas, lists.suburbPlaceAreas)
        landuseAreas = lists.landuseAreas
    }

    /// Throws the first failure to read a waiting outline back from disk (`OSMShapeFile`), once `finish` is done.
    func checkPendingShapes() throws { try pendingShapes.checkReads() }

    /// Adds what waited for the whole extract: the municipalities and suburbs, and the postcode centroids.
    /// `fileBoxes`: each extract file's box when several are read as one (`OSMCountryGridLayer.boxes`).
    package mutating func finish(countryGrid: [NominatimCountryGrid.Piece] = [], fileBoxes: [BoundingBox]? = nil) throws {
        try readBackPendingPlaces()
        var countries = try OSMCountryOfPoint(
            extractCountries: extractCountries.lazy.map { ($0.code, $0.shape.shape) }, grid: countryGrid, box: extent,
            fileBoxes: fileBoxes, temporaryPrefix: temporaryPrefix)
        // Without place nodes (a few blocks of a city), the extract's own extent decides: Nominatim's `country_osm_grid`
        // gives a country to reclaimed land and piers that Natural Earth's coast leaves out (Singapore's Marina Bay).
        countries.setFallbacks(byMajorityOf: (townNodes + suburbNodes).map(\.point))
        extractCountries = []
        let postcodes = OSMPostcodes(counts: postcodeCarriers.counts, settings: NominatimCountrySettings.embedded)
        placeBoundaries(countries, postcodes: postcodes)
        try collector.sealSorters()
        ImportMemoryTrace.note("boundaries placed")
        let countryOf = { (point: Point2D) in countries.countryCode(at: point) }
        let (centroids, postcodeAreas) = try OSMPostcodeAreas.build(
            postal: postalCodeAreas, boundaries: postcodeBoundaries, carriers: postcodeCarriers.taken(), postcodes: postcodes,
            countryOf: countryOf)
        let areaPostcodes = OSMAreaPostcodes(centroids: centroids, areas: postcodeAreas, countryOf: countryOf)
        // An area's own `postal_code`, if it fits its country's pattern.
        let ownPostcode = { (area: PendingArea) in
            area.postcode.flatMap { postcodes.normalised($0, countryCode: countryOf(area.shape.pointOnSurface)) }
        }
        ImportMemoryTrace.note("postcode areas")
        var cities = collectMunicipalities(areaPostcodes, ownPostcode: ownPostcode, countryOf: countryOf)
        var addressCities = OSMAddressCity(areas: cities.areas, countryOf: countryOf)
        try collector.sealSorters()
        ImportMemoryTrace.note("municipalities")
        collectSuburbs(areaPostcodes, ownPostcode: ownPostcode, cities: cities, countryOf: countryOf)
        // What placed them is done with: the objects' step that follows held it all, growing with the extract (issue 35).
        (cityBoundaries, cityPlaceAreas, suburbBoundaries, suburbPlaceAreas, finerBoundaries) = ([], [], [:], [], [])
        landuseAreas = []
        (townNodes, suburbNodes, cities.areas) = ([], [], [])
        try collector.sealSorters()
        ImportMemoryTrace.note("suburbs")
        try pendingAddresses.drain { reader in
            let address = try reader.pendingAddress()
            let country = countryOf(Point2D(x: address.coordinate.longitude, y: address.coordinate.latitude))
            collector.collectAddress(
                houseNumber: address.houseNumber, street: address.street,
                postcode: address.postcode.flatMap { postcodes.normalised($0, countryCode: country) }, at: address.coordinate)
        }
        try collector.sealSorters()
        ImportMemoryTrace.note("addresses")
        try collectObjects(postcodes, countryOf: countryOf) { value, point, country in
            addressCities.area(named: value, at: point, country: country).map { String(cities.first + $0) }
        }
        try collector.sealSorters()
        ImportMemoryTrace.note("objects")
        for centroid in centroids { collector.collectPostcode(centroid.code, at: centroid.coordinate) }
        let streetPostcodes = try collector.streetPostcodes ?? StreetPostcodeTable(path: temporaryPrefix + "street-postcodes")
        collector.streetPostcodes = streetPostcodes
        try streetMidpoints.drain { reader in
            let (id, midpoint, written) = try reader.streetMidpoint()
            // Its own postcode first (a TIGER road's zip), valid in its country: `placex_update` takes the object's
            // own (`token_get_postcode`) before the one `insert_addresslines` or `get_nearest_postcode` gives.
            let country = countryOf(midpoint)
            let own = written.flatMap { postcodes.normalised($0, countryCode: country) }
            // The street's country, of its centroid (`get_country_code` in `placex_update`): a Nominatim answer's.
            try streetPostcodes.set(
                postcode: own ?? postcodeAreas.postcode(at: midpoint), country: country, own: own != nil, forStreet: id)
        }
        try countries.checkReads()
    }

    /// The municipalities: their boundaries, else the place polygons, then cells around the town nodes outside them.
    /// Returns them with the city level's number of the first.
    private mutating func collectMunicipalities(
        _ areaPostcodes: OSMAreaPostcodes, ownPostcode: (PendingArea) -> String?, countryOf: @escaping (Point2D) -> String?
    ) -> (areas: [PendingArea], first: Int) {
        let links = OSMNameLinks(townNodes, countryOf: countryOf)
        // A country's place polygons where it has no municipality boundary (`OSMLevelSources`).
        let placeAreas = OSMLevelSources(countryOf: countryOf).placeAreas(cityPlaceAreas, besides: cityBoundaries)
        var cities = Self.withTownNodes(cityBoundaries, townNodes: townNodes, links: links) + placeAreas
        // A town or village node in no municipality polygon is a guessed municipality wherever its area reaches, as
        // where the extract has no polygon at all (`insert_addresslines` takes guessed places of rank 16 outside every
        // boundary; a node inside one is linked to it or a part of it). After the polygons: the first polygon of a
        // level holding a point answers. An extract cut through its municipalities (north of Bayreuth: one boundary
        // whole of a dozen) had no municipality around the other villages.
        cities += Self.townNodeCells(Self.nodes(townNodes, outsideEvery: cities), countryOf: countryOf)
        let firstCity = collector.areas[.city]?.features.count ?? 0
        for area in cities {
            let linked = area.node == nil ? links.node(linkedTo: area) : nil
            let own = ownPostcode(area)
            _ = collector.collectArea(
                .city, area.shape, layer: area.layer, fid: area.fid, name: area.name, code: area.below.map { String(firstCity + $0) },
                countryCode: area.node.flatMap(countryOf), postcode: areaPostcodes.postcode(of: area.shape, node: area.node, own: own),
                // An address names a boundary by its linked node's type, else by its own `place` (`get_label_tag`,
                // `nominatim_api/v1/classtypes.py`; `_result_row_to_address_row` in `results.py` puts `linked_place`
                // first): Colonial Park's boundary (`place=locality`) is the `town` of its node.
                placeType: area.placeType ?? linked?.type ?? area.boundaryPlace ?? area.unlinkedKey ?? "city",
                centre: area.node ?? linked?.point ?? area.shape.pointOnSurface,
                taggedPostcode: areaPostcodes.taggedPostcode(node: area.node, own: own))
        }
        return (cities, firstCity)
    }

    /// Each town node's cell (`OSMPlaceNodeAreas`), its distances weighted by its ranks in its country.
    private static func townNodeCells(_ nodes: [OSMPlaceNodeAreas.Node], countryOf: (Point2D) -> String?) -> [PendingArea] {
        let levels = NominatimAddressLevels.embedded
        let weighted = nodes.map { node in
            var node = node
            if let ranks = levels?.placeRanks(type: node.type, countryCode: countryOf(node.point), isCapital: node.isCapital) {
                node.weight = OSMPlaceNodeAreas.distanceWeight(addressRank: ranks.address, searchRank: ranks.search)
            }
            return node
        }
        return OSMPlaceNodeAreas.cells(of: weighted, halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(townType: $0) }).map {
            PendingArea(cell: $0.shape, around: $0.node)
        }
    }

    /// The suburbs: the boundaries of the finest rank below a municipality, else the place polygons, else cells
    /// around the suburb nodes (and the town nodes inside a municipality of another name).
    private mutating func collectSuburbs(
        _ areaPostcodes: OSMAreaPostcodes, ownPostcode: (PendingArea) -> String?, cities municipalities: (areas: [PendingArea], first: Int),
        countryOf: @escaping (Point2D) -> String?
    ) {
        let (cities, firstCity) = municipalities
        // Each country's own (`OSMLevelSources`): its boundaries of its finest rank, else its place polygons.
        let sources = OSMLevelSources(countryOf: countryOf)
        let (boundaries, suburbRanks) = sources.finestSuburbBoundaries(suburbBoundaries)
        // A place area of the suburb band (17-21) is a suburb; a `quarter` polygon (22) lies over the suburbs as a
        // boundary of its band does, a `neighbourhood` one (24) is left out (`OSMLevelSources.placeAreasByBand`).
        let (placeAreas, finerPlaceAreas) = OSMLevelSources.placeAreasByBand(suburbPlaceAreas)
        finerBoundaries += finerPlaceAreas + landuseAreas
        var suburbs = boundaries + sources.placeAreas(placeAreas, besides: boundaries)
        let polygonCountries = Set(suburbs.map { sources.country(of: $0) })
        let linked = linkedPlaces.linkedSuburbPoints
        let (besidePolygons, alone) = sources.split(suburbNodes.filter { !linked.contains($0.point) }, countries: polygonCountries)
        // Suburb nodes answer beside suburb polygons of any rank: moved below one of their own rank (20), kept
        // above a coarser one (London's Inner and Middle Temples, rank 18), and outside every polygon where their
        // area reaches (`insert_addresslines` skips a guessed place only outside the finest boundary found).
        if !suburbs.isEmpty { suburbs = Self.withSubpartNodes(suburbs, suburbNodes: besidePolygons) }
        // In a country without suburb polygons, the suburb nodes' cells; in every country, the village nodes' inside a
        // municipality of another name, after the suburb polygons.
        let parts = sources.townNodesAsParts(townNodes, of: cityBoundaries)
        suburbNodes += parts
        if !(alone + parts).isEmpty {
            suburbs += OSMPlaceNodeAreas.cells(of: alone + parts, halfWidth: { OSMPlaceNodeAreas.halfWidthMetres(suburbType: $0) }).map {
                PendingArea(cell: $0.shape, around: $0.node)
            }
        }
        if !finerBoundaries.isEmpty { suburbs = Self.withFinerBoundaries(suburbs, finer: finerBoundaries) }
        // A suburb made from a place node belongs to the municipality holding the node: Nominatim names
        // Oberplanken, a part of Planken, on no street of Schaan next door.
        // Nominatim's labels of the ranks (`ADMIN_LABELS`): 20-21 Suburb, 18-19 City District.
        // Each suburb and municipality drawn around a place node keeps the node's country, as Nominatim gives a place
        // the country holding its centroid (`get_country_code`): an answer names only areas of its own country
        // (`Geocoder/Nominatim/SameCountryAreas.swift`). Such an area is a box or cell that reaches over borders
        // (Gamprin-Bendern's over the Rhine); a boundary's outline is OpenStreetMap's own, exact where Natural Earth's
        // countries are coarse, so it keeps none: Monaco's Larvotto, whose point on its surface lies in Natural Earth's
        // France, still names the points of Monaco it holds.
        let cityBoxes = BoxBuckets(cities.map(\.shape.boundingBox))
        let firstSuburb = collector.areas[.suburb]?.features.count ?? 0
        let suburbLinks = OSMNameLinks(suburbNodes, countryOf: countryOf)
        for area in suburbs {
            let municipality = area.node.flatMap { node in
                cityBoxes.holding(x: node.x, y: node.y).first { cities[$0].shape.contains(x: node.x, y: node.y) }
            }
            let linked = area.node == nil ? suburbLinks.node(linkedTo: area) : nil
            let own = ownPostcode(area), country = sources.country(of: area)
            _ = collector.collectArea(
                .suburb, area.shape, layer: area.layer, fid: area.fid, name: area.name, code: area.below.map { String(firstSuburb + $0) },
                countryCode: area.node.flatMap(countryOf), postcode: areaPostcodes.postcode(of: area.shape, node: area.node, own: own),
                municipality: municipality.map { firstCity + $0 },
                placeType: area.placeType ?? linked?.type ?? area.boundaryPlace
                    ?? NominatimAdminLabel.key(addressRank: suburbRanks[country] ?? 20, countryCode: country),
                centre: area.node ?? linked?.point ?? area.shape.pointOnSurface,
                taggedPostcode: areaPostcodes.taggedPostcode(node: area.node, own: own))
        }
    }

    private mutating func note(_ kind: OSMFeatureKind, _ reason: String) {
        unused[kind, default: [:]][reason, default: 0] += 1
    }
}

/// A band of address ranks in one country (`OSMLevelMapping.placeBoundaries`).
private struct BandOfCountry: Hashable {
    var band: NominatimAddressLevels.Band
    var country: String?
}
