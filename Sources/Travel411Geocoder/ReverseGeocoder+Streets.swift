import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// Street, house number, postcode and the areas of a Nominatim answer: the street-level rules.
extension ReverseGeocoder {
    /// Thoroughfare from the nearest named line; house number from the nearest address point on that
    /// street (or, with no line near, the nearest address point at all, which then names the street);
    /// postcode from that address, else from the nearest postcode centroid.
    func decideStreetAddress(_ record: inout PlacemarkRecord) {
        let point = record.location
        let settings = self.settings(for: record)
        // An OpenStreetMap database keeps unnamed streets (Nominatim answers with them); this rule names a street.
        let isOSM = record.followsNominatim
        if let street = withStreets({ level in
            level.index.nearest(
                to: point, radiusMetres: settings.thoroughfareRadiusMetres,
                accept: isOSM ? { !(level.names.bytes(Int($0), 0)?.isEmpty ?? true) } : nil)
        }) ?? nil {
            record.street = Int32(street.id)
        }
        let streetField = PlacesSchema.AddressField.street.rawValue
        let found: UInt32?? = withPoints(.address, near: point, within: settings.addressRadiusMetres) { addresses in
            // Made here, not before: most points lie beyond every address, and the unit vector costs four trig calls.
            let query = PointIndex.Query(point)
            let chord = PointIndex.chord(metres: settings.addressRadiusMetres)
            guard record.street >= 0, let streetName = withStreets({ $0.names.bytes(Int(record.street), 0) }) ?? nil else {
                return addresses.index.nearest(to: query, maxChord: chord)?.id
            }
            return addresses.index.nearest(to: query, maxChord: chord) { id in
                addresses.records.field(Int(id), streetField, equals: streetName)
            }
        }
        if let found = found ?? nil { record.address = Int32(found) }
        // Below Nominatim's zoom 18 only streets answer.
        if record.followsNominatim, settings.detail == .building { preferNearerAddress(&record) }
        let addressHasPostcode =
            record.address >= 0
            && !(withPoints(.address) {
                $0.records.bytes(Int(record.address), PlacesSchema.AddressField.postcode.rawValue)?.isEmpty ?? true
            } ?? true)
        if !addressHasPostcode { takeNearestPostcode(&record) }
    }

    /// The postcode of the nearest postcode point within the postcode radius; on a database with an extract, of
    /// the answered country only (`takeNearestPostcodeOfTheCountry`), outside the extract's streets too.
    func takeNearestPostcode(_ record: inout PlacemarkRecord) {
        if hasOSMRules { return takeNearestPostcodeOfTheCountry(&record) }
        takeNearestPostcodePoint(&record)
    }

    /// The postcode of the nearest postcode point within the postcode radius, whatever its country.
    func takeNearestPostcodePoint(_ record: inout PlacemarkRecord) {
        let settings = self.settings(for: record)
        if let found = withPoints(
            .postcode, near: record.location, within: settings.postcodeRadiusMetres,
            {
                $0.index.nearest(to: PointIndex.Query(record.location), maxChord: PointIndex.chord(metres: settings.postcodeRadiusMetres))?
                    .id
            }) ?? nil
        {
            record.postcode = Int32(found)
        }
    }

    /// A suburb made from an OpenStreetMap place node names only points of the municipality holding the node
    /// (`municipality`, the record's city when nil), or of the town node whose box holds it
    /// (`PlaceNodeSearch.names(_:partOf:townNode:cityNodes:)`).
    func dropSuburbOfAnotherCity(_ record: inout PlacemarkRecord, municipality: Int32? = nil) {
        guard let city = Self.number(lookup.area(.suburb)?.bytes(Int(record.suburbArea), .municipality)) else { return }
        let municipality = municipality ?? record.cityArea
        guard Int64(city) != Int64(municipality) else { return }
        let named =
            suburbNodes?._withUnsafeGuaranteedRef { nodes in
                nodes.node(ofFeature: record.suburbArea).map {
                    PlaceNodeSearch.names(
                        $0, partOf: municipality, townNode: townNode(ofCity: municipality), cityNodes: lookup.cityNodeSearch())
                }
            } ?? nil
        if named != true { record.suburbArea = -1 }
    }

    /// The town or village node a city-level feature was drawn around; nil for a polygon.
    func townNode(ofCity city: Int32) -> PlaceNodeSearch.Node? {
        city < 0 ? nil : lookup.cityNodeSearch()?.node(ofFeature: city)
    }

    /// The maximum ranks (zooms 13-15) at which Nominatim answers with the place node nearest by its rule (at
    /// zooms 16-18 too where no street or object is within reach).
    static let placeNodeRanks = 19...25

    /// Where the extract's suburbs are place nodes, the one Nominatim answers with at this zoom (`PlaceNodeSearch`),
    /// else none; a suburb polygon holding the point stays. A suburb polygon of a search rank within the zoom's answers,
    /// or a place node of a higher rank inside it (`suburbPolygonAsNominatim`); at zoom 13 one beyond it (a suburb
    /// boundary, 20) Nominatim's area search passes over to the nodes inside the municipality. Below 13 no suburb
    /// answers at all (`NominatimDetail.includesSuburbLevel`).
    func chooseSuburbNodeAsNominatim(_ record: inout PlacemarkRecord, maximumRank: Int) {
        _ = suburbNodes?._withUnsafeGuaranteedRef { search in
            if let answering = suburbPolygonAsNominatim(record, search: search, maximumRank: maximumRank) {
                return record.suburbArea = answering
            }
            if (Self.placeNodeRanks.lowerBound..<Self.suburbAreaRank).contains(maximumRank) {
                if record.suburbArea >= 0, !search.isNodeArea(record.suburbArea) || search.boundaryBelow(record.suburbArea) != nil {
                    record.suburbArea = -1
                }
            } else if let below = search.boundaryBelow(record.suburbArea),
                suburbPolygonAnswers(below, at: record.location, maximumRank: maximumRank)
            {
                return record.suburbArea = below
            }
            guard !search.isEmpty, record.suburbArea < 0 || search.isNodeArea(record.suburbArea) else { return }
            let x = record.location.longitude, y = record.location.latitude
            if let across = nodeAcrossTownArea(record, search: search, maximumRank: maximumRank) {
                record.suburbArea = across.feature
                record.cityArea = across.municipality
                return
            }
            record.suburbArea = search.answer(x: x, y: y, maximumRank: maximumRank, municipality: record.cityArea) ?? -1
        }
    }

    /// A place node of another municipality that answers a point inside a town or village node's area. That area is
    /// travel411's, not a polygon of Nominatim 5.3, whose area search (`_lookup_area_address`, then `lookup_country`,
    /// `nominatim_api/reverse.py`) finds no polygon there and takes the place nodes of the point's country within
    /// their reach (`reverse_place_diameter`), the highest search rank first, then the nearest: the town node itself
    /// or a suburb node across the river. Centro Histórico (a suburb, 19) answers Vila Nova de Gaia's riverside at
    /// zoom 14 before Gaia's town node (18), with its own address, Porto. Nil where the town node or a node of its
    /// area answers, as the confined search (`PlaceNodeSearch.answer`) finds.
    private func nodeAcrossTownArea(
        _ record: PlacemarkRecord, search: PlaceNodeSearch, maximumRank: Int
    ) -> (feature: Int32, municipality: Int32)? {
        guard let town = townNode(ofCity: record.cityArea), town.boundaryBelow < 0 else { return nil }
        let x = record.location.longitude, y = record.location.latitude
        guard let answering = search.answer(x: x, y: y, maximumRank: maximumRank, municipality: -1),
            let node = search.node(ofFeature: answering), node.municipality != record.cityArea,
            record.country < 0 || isCountry(feature(.country, node.x, node.y), sameAs: record.country)
        else { return nil }
        func distanceSquared(_ other: PlaceNodeSearch.Node) -> Double {
            let dx = other.x - x, dy = other.y - y
            return dx * dx + dy * dy
        }
        let townReach = NominatimPlaceKinds.reversePlaceDiameter(searchRank: town.rank)
        let townAnswers =
            town.rank <= maximumRank && distanceSquared(town) < townReach * townReach
            && (town.rank > node.rank || (town.rank == node.rank && distanceSquared(town) <= distanceSquared(node)))
        return townAnswers ? nil : (answering, node.municipality)
    }

    /// How far `street` passes from a place node, in degrees, when it passes through the node's box (half-widths
    /// `box`); nil otherwise: Nominatim's test that a street passes through a place node's area (`getNearFeatures`
    /// intersects the street with the box) and its distance (the whole street's from the node). The street's
    /// point nearest the node alone lies outside the box where the street cuts a corner of it (Nendeln's box and
    /// a street of Eschen, one of Liechtenstein's 300 zoom-18 points): the point nearest that corner then lies
    /// inside. Only the cells of the street's extent are read: Helsinki's server spent 10 µs a request measuring
    /// its suburb nodes' distances over their whole boxes.
    /// `segments`, when given, are the street's within its extent, measured in place of a search.
    static func distance(
        ofLine street: UInt32, from node: (x: Double, y: Double), within box: (x: Double, y: Double), streets: PlacesLookup.LineLevel,
        extent: BoundingBox?, segments: LineSegments? = nil
    ) -> Double? {
        let nodeBox = BoundingBox(minX: node.x - box.x, minY: node.y - box.y, maxX: node.x + box.x, maxY: node.y + box.y)
        if let extent, !extent.intersects(nodeBox) { return nil }
        // Every point of the box lies within half its diagonal of the node and of the corner of its quarter.
        let reach = (box.x * box.x + box.y * box.y).squareRoot()
        func nearest(to x: Double, _ y: Double) -> (degrees: Double, closest: Coordinate)? {
            let point = Coordinate(latitude: y, longitude: x)
            if let segments { return segments.nearestInDegrees(to: point, radiusDegrees: reach) }
            return streets.index.nearestInDegrees(to: point, radiusDegrees: reach, onlyLine: street, clip: extent)
                .map { ($0.degrees, $0.closest) }
        }
        func inBox(_ point: Coordinate) -> Bool { abs(point.longitude - node.x) <= box.x && abs(point.latitude - node.y) <= box.y }
        guard let found = nearest(to: node.x, node.y) else { return nil }
        if inBox(found.closest) { return found.degrees }
        for corner in [(-1.0, -1.0), (1, -1), (-1, 1), (1, 1)] {
            if let near = nearest(to: node.x + corner.0 * box.x, node.y + corner.1 * box.y), inBox(near.closest) {
                return found.degrees
            }
        }
        return nil
    }

    /// At most this many cells of a street's extent, and segments of the street in them, are gathered to measure it
    /// from its place nodes (a long road is searched from each).
    static let gatheredCells = 64
    static let gatheredSegments = 256

    /// The point of `street` nearest to `point`, within the reach a parent street is looked for in (`parentStreet`);
    /// only the cells of the street's `extent` are read, when known.
    static func nearestPoint(
        of street: UInt32, to point: Coordinate, streets: PlacesLookup.LineLevel, extent: BoundingBox?
    ) -> Coordinate? {
        streets.index.nearestInDegrees(to: point, radiusDegrees: 0.1, onlyLine: street, clip: extent.map(widenedPastRounding))?.closest
    }

    /// Nominatim's address of a street, or of an object on it, names of the municipalities and suburbs the street
    /// runs through the one holding the answer's own point (the street's point nearest the query, the object's
    /// point), not the query's: a point in Schaan next to Kuegrat, which is Planken's there, answers Planken.
    /// Liechtenstein's city at zoom 18 agreed with Nominatim at 82.0 % without it, 93.7 % with it.
    func takeAreasOfTheAnswer(
        _ record: inout PlacemarkRecord, objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel
    ) {
        let street: UInt32? = record.street >= 0 ? UInt32(record.street) : nil
        // The street's own municipality, the one holding its centroid: Nominatim's `insert_addresslines` takes the
        // boundary nearest the centroid for the street's address (`isaddress`) and keeps only the place nodes inside
        // it (`current_boundary`), the street intersected with each node's box (`distance(ofLine:)`). -1 for none.
        let ownCity: Int32 =
            street.flatMap { Self.point(streets.names.bytes(Int($0), PlacesSchema.StreetField.centroid.rawValue)) }
            .map { feature(.city, $0.longitude, $0.latitude) } ?? -1
        // The street's extent, read once for the searches confined to it below.
        let extent = street.flatMap { Self.extent(ofStreet: $0, streets: streets) }
        guard
            let located = answerPointAndCity(
                of: record, street: street, ownCity: ownCity, extent: extent, objects: objects, streets: streets)
        else { return }
        let answer = located.answer, pointCity = record.cityArea
        var city = located.city
        if let street {
            let centroid = Self.point(streets.names.bytes(Int(street), PlacesSchema.StreetField.centroid.rawValue))
            if let crossed = municipalityOnStreet(
                street, city: city, ownCity: ownCity, centroid: centroid, extent: extent, streets: streets)
            {
                city = crossed
            } else if let guess = townNodeOfStreet(street, near: answer, city: city, ownCity: ownCity, extent: extent, streets: streets) {
                city = guess
            } else if city < 0, record.streetAnswers {
                // A street's point outside every municipality: its own (`isaddress`) one, as for an object above;
                // `complete_address_details` (nominatim_api/results.py) ranks a street's `isaddress` lines before
                // those not holding the result's point. Youssoufia's roads running out of the town name the town.
                city = ownCity
            }
        }
        // The object's own `addr:city` before the street's municipality (`ObjectAddressCity`).
        if let named = addressCity(of: record, objects: objects) { city = named }
        // Outside every municipality (a street running out of the extract) the point's stays.
        if city >= 0, city != record.cityArea {
            record.cityArea = city
            if record.subLocality >= 0 { dropSubLocalityOfAnotherCity(&record) }
        }
        // The parts are confined to the municipality holding the street or the answer's point, not to a guessed town
        // node: `insert_addresslines` skips guesses only outside `current_boundary`, a polygon; a guessed town's box
        // (`current_node_area`) only ranks them (`PlaceNodeSearch.addressParts`).
        takeSuburbAndNeighbourhood(
            &record, answer: answer, result: located.result, street: street,
            ownCity: ownCity >= 0 ? ownCity : located.city >= 0 ? located.city : pointCity, extent: extent, streets: streets)
    }

    /// The answer's point and the municipality holding it: a street's centre, or an object's centre moved onto its
    /// street where the street's address decides (below); nil when neither a street nor an object answers.
    /// `result`: the answering street's or object's own point (Nominatim's result centroid).
    private func answerPointAndCity(
        of record: PlacemarkRecord, street: UInt32?, ownCity: Int32, extent: BoundingBox?,
        objects: PlacesLookup.LineLevel, streets: PlacesLookup.LineLevel
    ) -> (answer: Coordinate, city: Int32, result: Coordinate)? {
        var answer: Coordinate
        var city: Int32
        var result: Coordinate? = nil
        if record.streetAnswers {
            // An area's result point is its centre, a line's its point nearest the query (Nominatim's centroid).
            answer =
                Self.point(streets.names.bytes(Int(record.street), PlacesSchema.StreetField.centre.rawValue)) ?? record.streetPoint
            city = feature(.city, answer.longitude, answer.latitude)
        } else if record.object >= 0, let centre = Self.centre(of: UInt32(record.object), objects: objects) {
            answer = centre
            result = centre
            let holding = feature(.city, centre.longitude, centre.latitude)
            city = holding
            // An object's address is its street's: of the areas the street runs through, the one holding the object,
            // else the street's own (`complete_address_details` puts the street's address lines that contain the
            // result's point first, then its `isaddress` ones). The street runs through the area at its point nearest
            // the object and through its own; elsewhere it is not known, and taken not to (Malbun's huts in a piece
            // of Schaan, on a Triesenberg street, are Triesenberg's; a bench in Schaan whose street is Schaan's and
            // passes nearest it in Triesenberg, Schaan's).
            if let street, let nearest = Self.nearestPoint(of: street, to: centre, streets: streets, extent: extent) {
                let passing = feature(.city, nearest.longitude, nearest.latitude)
                if holding == passing {
                    answer = nearest
                } else if holding < 0 || holding != ownCity {
                    answer = nearest
                    city = ownCity >= 0 ? ownCity : passing
                }
            }
        } else {
            return nil
        }
        return (answer, city, result ?? answer)
    }

    /// The suburb (a polygon holding the answer's point, or the place nodes nearest the street's line) and the
    /// neighbourhood of an answer whose point and municipality are decided; `result`: the answering object's point.
    private func takeSuburbAndNeighbourhood(
        _ record: inout PlacemarkRecord, answer: Coordinate, result: Coordinate, street: UInt32?, ownCity: Int32, extent: BoundingBox?,
        streets: PlacesLookup.LineLevel
    ) {
        // The suburb too: a polygon holding the answer's point; among place nodes, those nearest the street's line
        // (`PlaceNodeSearch.addressParts`), and the neighbourhood so.
        let nodes = suburbNodes
        // The street's segments within its extent, gathered at the first node measured and measured from every node:
        // one search per node and corner was half of this function's time in a Helsinki server's profile. Nil after
        // gathering when the street is too long to gather: then each node searches.
        var segments: LineSegments?, gathered = false
        func gatheredSegments() -> LineSegments? {
            guard let street else { return nil }
            if !gathered {
                gathered = true
                segments = extent.flatMap {
                    streets.index.segments(
                        ofLine: street, in: Self.widenedPastRounding($0), maxCells: Self.gatheredCells, maxSegments: Self.gatheredSegments)
                }
            }
            return segments
        }
        func streetDistance(from x: Double, _ y: Double, within box: (x: Double, y: Double)) -> Double? {
            guard let street else { return nil }
            return Self.distance(ofLine: street, from: (x, y), within: box, streets: streets, extent: extent, segments: gatheredSegments())
        }
        record.suburbArea = feature(.suburb, answer.longitude, answer.latitude)
        let suburbAtAnswer = record.suburbArea
        // Place nodes name parts of the street's own municipality, also where the answer is in another
        // ("Schaanwald, Eschen": a path of Mauren's, at its point in Eschen).
        let nodesMunicipality = ownCity >= 0 ? ownCity : record.cityArea
        // The suburb boundary of the street's centroid, or the one the street passes through nearest it, confines
        // its nodes (`SuburbBoundaryOfStreet`). Parts the nodes name are the municipality's already (`addressParts`).
        var ownBoundary: Int32 = -1, partsFromNodes = false
        _ = nodes?._withUnsafeGuaranteedRef { nodes in
            // Without suburb nodes (a suburb node linked to its boundary is none), the suburb boundaries a street enters
            // still name its suburb: Ankara's 6. Cadde, whose centroid lies outside Bahçelievler Mahallesi.
            guard let street, !nodes.isEmpty || withArea(.suburb, { _ in true }) != nil else { return }
            let isLine = Self.point(streets.names.bytes(Int(street), PlacesSchema.StreetField.centre.rawValue)) == nil
            let centroid = Self.point(streets.names.bytes(Int(street), PlacesSchema.StreetField.centroid.rawValue))
            ownBoundary = ownSuburbBoundary(centroid: centroid, isLine: isLine, segments: gatheredSegments, nodes: nodes)
            // Without one, a suburb polygon holding the answer's point is the suburb, else the nodes' parts are.
            guard ownBoundary >= 0 || record.suburbArea < 0 || nodes.isNodeArea(record.suburbArea) else { return }
            // `current_node_area` is the box of the town named for the street, when that is a guess.
            let parts = nodes.addressParts(
                near: answer, along: extent, municipality: nodesMunicipality,
                townNode: townNode(ofCity: record.cityArea) ?? townNode(ofCity: nodesMunicipality),
                cityNodes: lookup.cityNodeSearch(), boundary: ownBoundary
            ) { node, box in
                streetDistance(from: node.x, node.y, within: box)
            }
            // The node inside the street's boundary is a finer part than the boundary and names the suburb; without
            // one, the street's boundary holding the result's point does, else the street's own.
            let boundary =
                ownBoundary >= 0
                ? suburbBoundary(
                    ofResultAt: result, onStreet: record.streetAnswers, own: ownBoundary, centroid: centroid, isLine: isLine,
                    segments: gatheredSegments, nodes: nodes) : -1
            // One part alone is the subLocality, as the areas at a point give it; both, the village the coarser.
            record.suburbArea = parts.part ?? parts.village ?? boundary
            record.suburbBoundaryLine = (parts.part ?? parts.village) != nil ? boundary : -1
            record.villagePart = parts.part != nil ? parts.village ?? -1 : -1
            partsFromNodes = parts.part != nil || parts.village != nil
        }
        if record.suburbArea >= 0, !partsFromNodes { dropSuburbOfAnotherCity(&record, municipality: nodesMunicipality) }
        let finer = finerBoundary(
            ofAnswerOn: street, streets: streets, result: result, answerPolygon: suburbAtAnswer, segments: gatheredSegments, nodes: nodes)
        takeNeighbourhood(
            &record, answer: answer, finer: finer, onStreet: street != nil, ownBoundary: ownBoundary, streetDistance: streetDistance)
    }

    /// The quarter and neighbourhood nodes of an answer whose suburb is decided: on a street, the one nearest the
    /// street's line inside the box of the hamlet or suburb node named, and the neighbourhood inside the quarter's
    /// (Nominatim's `current_node_area`), and inside the street's suburb boundary (`current_boundary`); else the
    /// neighbourhood nearest the point. `streetDistance`: the street's distance from a node within its box; for a place
    /// node's own address (`takeOwnSuburbOfAnsweringFineNode`), the place node's.
    func takeNeighbourhood(
        _ record: inout PlacemarkRecord, answer: Coordinate, finer: (feature: Int32, rank: Int)?, onStreet: Bool, ownBoundary: Int32,
        streetDistance: (Double, Double, (x: Double, y: Double)) -> Double?
    ) {
        let nodes = suburbNodes
        let part = record.suburbArea
        func insidePart(_ x: Double, _ y: Double) -> Bool {
            guard part < 0 || nodes?._withUnsafeGuaranteedRef({ $0.boxHolds(part, x: x, y: y) }) ?? true else { return false }
            guard ownBoundary >= 0, let nodes else { return true }
            let holder = nodes._withUnsafeGuaranteedRef { suburbBoundary(at: Coordinate(latitude: y, longitude: x), nodes: $0) }
            return holder == ownBoundary
        }
        // A boundary of the rank holding the answer's point (on a street, the street's: `finerBoundary(ofAnswerOn:)`)
        // comes before the nodes (`insert_addresslines` orders each rank's candidates `isguess asc`): London's Inner and
        // Middle Temples (a quarter), Porto's parishes (neighbourhoods), which their linked nodes no longer stand in for
        // (`LinkedPlaceNodesSchema`).
        if finer?.rank == 24 { record.neighbourhoodArea = finer?.feature ?? -1 }
        // The quarter (rank 22) comes before the neighbourhood (24), which must then lie in its box.
        let fine = onStreet ? lookup.finePlaceNodes() : nil
        if finer?.rank == 22 {
            record.quarterArea = finer?.feature ?? -1
        } else if let fine, !fine.isEmpty {
            record.quarter =
                fine.nearestQuarter(near: answer) { node, box in
                    insidePart(node.x, node.y) ? streetDistance(node.x, node.y, box) : nil
                } ?? -1
        }
        _ = neighbourhoods?._withUnsafeGuaranteedRef { neighbourhoods in
            guard !neighbourhoods.isEmpty, record.neighbourhoodArea < 0 else { return }
            if onStreet {
                let quarter = record.quarter
                record.neighbourhood =
                    neighbourhoods.nearest(near: answer) { node, box in
                        guard insidePart(node.x, node.y), fine?.boxHolds(quarter, x: node.x, y: node.y) ?? true else { return nil }
                        return streetDistance(node.x, node.y, box)
                    } ?? -1
            } else {
                record.neighbourhood = neighbourhoods.nearest(to: answer) ?? -1
            }
        }
    }

    /// The boundary of the neighbourhood band holding the answer's point (`polygon`, the suburb-level polygon found
    /// there), a quarter's (address rank 22) or a neighbourhood's (24) by its place type
    /// (`OSMLevelMapping.withFinerBoundaries`), under a suburb node's area cut to it or alone.
    func finerBoundary(ofPolygon polygon: Int32, nodes: Unmanaged<PlaceNodeSearch>?) -> (feature: Int32, rank: Int)? {
        var holder = polygon
        guard holder >= 0 else { return nil }
        if let nodes, nodes._withUnsafeGuaranteedRef({ $0.isNodeArea(holder) }) {
            guard let below = nodes._withUnsafeGuaranteedRef({ $0.boundaryBelow(holder) }) else { return nil }
            holder = below
        }
        guard let rank = placeTypeRank(ofSuburbPolygon: holder), rank == 22 || rank == 24 else { return nil }
        return (holder, rank)
    }

    /// A place node names a part of the municipality holding it only: Planken's village node is no part of Eschen.
    /// Nor is it a part of the municipality drawn around itself: Nominatim's address holds each place once (one
    /// `place_addressline` row per place, `insert_addresslines`), so Aixirivall, a village node naming the city
    /// part of Sant Julià de Lòria's parish around it (`OSMSubpartNodes`), is not its suburb too. Nor is the node of a
    /// municipality boundary's name inside it: the boundary links it (`find_linked_place`, placex_triggers.sql) and the
    /// node names nothing of its own (`linked_place_id`): Stauceni's village node in Stauceni's boundary.
    func dropSubLocalityOfAnotherCity(_ record: inout PlacemarkRecord) {
        guard let place = withPoints(.locality, { $0.records.coordinate(Int(record.subLocality)) }) ?? nil else { return }
        if feature(.city, place.longitude, place.latitude) != record.cityArea {
            record.subLocality = -1
        } else if let city = areaFeature(.city, record.cityArea, rank: 16, location: record.location) {
            let ownPoint =
                city.elementType == .node && abs(city.location.latitude - place.latitude) < 1e-5
                && abs(city.location.longitude - place.longitude) < 1e-5
            let field = PlacesSchema.LocalityField.name.rawValue
            let name = withPoints(.locality) {
                $0.records.bytes(Int(record.subLocality), field).map { String(decoding: $0, as: UTF8.self) }
            }
            let linked = city.elementType != .node && (name ?? nil).map { $0.lowercased() == city.name?.lowercased() } ?? false
            if ownPoint || linked { record.subLocality = -1 }
        }
    }

    /// Nominatim answers the nearest object, a street or an address: where an address point lies nearer
    /// than the street chosen, the answer is that address, its street the address's own.
    func preferNearerAddress(_ record: inout PlacemarkRecord) {
        guard record.street >= 0 else { return }
        let point = record.location
        let settings = self.settings(for: record)
        guard
            let streetMetres = withStreets({ level in
                level.index.nearest(
                    to: point, radiusMetres: settings.thoroughfareRadiusMetres,
                    accept: { !(level.names.bytes(Int($0), 0)?.isEmpty ?? true) })?.metres
            }) ?? nil
        else { return }
        let reach = PointIndex.chord(metres: min(streetMetres, settings.addressRadiusMetres))
        let query = PointIndex.Query(point)
        guard
            let nearer = withPoints(.address, near: point, within: streetMetres, { $0.index.nearest(to: query, maxChord: reach)?.id })
                ?? nil,
            !(withPoints(.address) { $0.records.bytes(Int(nearer), PlacesSchema.AddressField.street.rawValue)?.isEmpty ?? true } ?? true)
        else { return }
        record.address = Int32(nearer)
        record.street = -1
    }
}
