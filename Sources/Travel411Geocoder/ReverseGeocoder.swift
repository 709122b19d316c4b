import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// How far the nearby-feature rules reach (docs/fields.md).
public struct GeocoderSettings: Sendable {
    /// A thoroughfare is the nearest named line within this distance.
    public var thoroughfareRadiusMetres = 100.0
    /// Whether a database may set its own thoroughfare radius (`OSMAnswerRules`): false once the user gave one.
    public var thoroughfareRadiusFromDatabase = true
    /// A house number comes from the nearest address point within this distance.
    public var addressRadiusMetres = 50.0
    /// A postcode is the nearest postcode centroid within this distance (unit postcodes are small).
    public var postcodeRadiusMetres = 200.0
    /// Whether a database may set its own postcode radius (`OSMAnswerRules`): false once the user gave one.
    public var postcodeRadiusFromDatabase = true
    /// The nearest locality becomes the subLocality within this distance.
    public var subLocalityRadiusMetres = 5000.0
    /// With no town's catchment containing the point, the nearest locality in the same country within this
    /// distance is the locality.
    public var nearestLocalityFallbackMetres = 10_000.0
    /// A point outside every country polygon takes the country found this far around it, if any
    /// (probed on rings of 1, 2.5, 5, 10 and 20 km; the nearest ring that finds land decides): the
    /// 1:10m coastline is simplified, and harbours, reclaimed land and islets fall outside it.
    public var coastalSnapMetres = 20_000.0
    /// How fine the answer may be, as Nominatim's `zoom` chooses it (`where --zoom`, docs/fields.md): the
    /// fields finer than this are left out, and `name` is the finest one left.
    public var detail: NominatimDetail = .building
    /// Nominatim's highest rank for the zoom (`NominatimDetail.maximumRank(zoom:)`), which a database imported
    /// from OpenStreetMap answers by: 26 major streets only (zoom 16), 27 all streets (17), 30 addresses and
    /// points of interest too (18).
    public var maximumRank = 30
    /// The kinds of object that may answer, as Nominatim's `layer` (`where --layer`): addresses and POIs.
    public var layers: ReverseLayers = .standard
    /// Nominatim's address on a database imported from OpenStreetMap (the server, `where --format nominatim`):
    /// the municipality and suburb are the answered street's or object's, where it is (its point nearest the
    /// query, the object's point), not the query point's. Off, a point answers the municipality it lies in.
    public var addressOfTheAnswer = false

    public init() {}
}

/// Answers coordinates from a places database, from any number of threads at once. `.onDemand` (the
/// default, for single lookups) reads only the pages a query touches; `.everything` reads the area levels
/// and localities up front (batches), which makes their lookups faster. Streets, addresses and postcodes
/// are read by tile in both, so that opening costs the same whatever their number.
///
/// Every answer is decided once, in `record(for:)`, as plain numbers; `placemark(for:)` turns that
/// into strings and the batch writer prints it straight from the database's text tables, so a
/// single `where` and a batch can never disagree.
public final class ReverseGeocoder: Sendable {
    public typealias Loading = PlacesLookupLoading
    package typealias AreaText = PlacesLookup.AreaText

    public let databasePath: String
    /// The settings as given: those of the embedded data's rules.
    public let settings: GeocoderSettings
    /// Where the extracts' rules hold (`OSMAnswerRules`): their radii, unless the caller chose its own.
    let nominatimSettings: GeocoderSettings
    /// Set for a database imported from OpenStreetMap extracts.
    let osmRules: OSMAnswerRules?
    let lookup: PlacesLookup
    /// The OpenStreetMap elements behind area polygons, read once each (a server asks per answer).
    let areaElements = Mutex<[Int64: AreaElement?]>([:])
    private let hot: HotReferences

    /// Everything a lookup touches, held without reference counting when all of it was read up
    /// front: threads sharing one geocoder would otherwise contend on the same counters for every
    /// point. `lookup` keeps the objects alive.
    ///
    /// They are read through `Unmanaged._withUnsafeGuaranteedRef`, the standard library's underscored
    /// way to borrow an unowned object without retain/release. Safe because `lookup` owns every object
    /// for as long as the geocoder lives. Retain/release on counters shared by the workers makes a batch
    /// 10-13 % slower on 2 cores (docs/development.md, "Development log").
    private struct HotReferences {
        var areas: [Unmanaged<PlacesLookup.AreaLevel>?] = []
        var localities: Unmanaged<PlacesLookup.PointLevel>?
        var postcodes: Unmanaged<PlacesLookup.PointLevel>?
        var addresses: Unmanaged<PlacesLookup.PointLevel>?
        var streets: Unmanaged<PlacesLookup.LineLevel>?
        /// A database from OpenStreetMap extracts: its address points, buildings and POIs, and its streets' postcodes.
        var objects: Unmanaged<PlacesLookup.LineLevel>?
        var streetPostcodes: Unmanaged<PagedRecords>?
        var streetAddresses: Unmanaged<PagedRecords>?
        var objectCovers: Unmanaged<StreetTiles>?
        /// The extract's place nodes of the suburb level and its neighbourhoods.
        var suburbNodes: Unmanaged<PlaceNodeSearch>?
        var neighbourhoods: Unmanaged<NeighbourhoodNodes>?
        /// Per area level (by ordinal), what its lockstep lookups read; nil for a missing level.
        var lockstep: [AreaLookupLockstep.Level?] = []
        var isComplete = false
    }

    /// `needs` limits what `.everything` reads up front: a batch printing only some fields passes
    /// `PlacemarkNeeds(fields:)`, and must then ask `record(for:needs:)` for no more than that.
    public init(
        databasePath: String, loading: Loading = .onDemand, settings: GeocoderSettings = GeocoderSettings(),
        needs: PlacemarkNeeds = .all
    ) throws {
        self.databasePath = databasePath
        // A database built from OpenStreetMap extracts answers by Nominatim's rules (`OSMAnswerRules`).
        let rules = OSMAnswerRules.read(databasePath: databasePath)
        var nominatimSettings = settings
        if let rules, settings.postcodeRadiusFromDatabase { nominatimSettings.postcodeRadiusMetres = rules.postcodeRadiusMetres }
        if let rules, settings.thoroughfareRadiusFromDatabase {
            nominatimSettings.thoroughfareRadiusMetres = rules.thoroughfareRadiusMetres
        }
        self.osmRules = rules
        self.settings = settings
        self.nominatimSettings = nominatimSettings
        let lookup = try PlacesLookup(path: databasePath, loading: loading == .everything ? .everything : .onDemand, needs: needs)
        self.lookup = lookup
        var hot = HotReferences()
        if loading == .everything {
            hot.areas = PlacesSchema.AreaLevel.allCases.map { lookup.area($0).map(Unmanaged.passUnretained) }
            hot.localities = lookup.pointLevel(.locality).map(Unmanaged.passUnretained)
            hot.postcodes = lookup.pointLevel(.postcode).map(Unmanaged.passUnretained)
            hot.addresses = lookup.pointLevel(.address).map(Unmanaged.passUnretained)
            hot.streets = lookup.streetLevel().map(Unmanaged.passUnretained)
            if rules != nil {
                hot.objects = lookup.objectLevel().map(Unmanaged.passUnretained)
                hot.streetPostcodes = lookup.streetPostcodes().map(Unmanaged.passUnretained)
                hot.streetAddresses = lookup.streetAddresses().map(Unmanaged.passUnretained)
                hot.objectCovers = lookup.objectCovers().map(Unmanaged.passUnretained)
                hot.suburbNodes = lookup.suburbNodeSearch().map(Unmanaged.passUnretained)
                hot.neighbourhoods = lookup.neighbourhoodNodes().map(Unmanaged.passUnretained)
            }
            hot.lockstep = PlacesSchema.AreaLevel.allCases.map { lookup.area($0)?.index.lockstepLevel }
            hot.isComplete = true
        }
        self.hot = hot
    }

    /// The licences of the data this database was imported from (`DataLicence`): what its Nominatim answers carry.
    public var licence: DataLicence { lookup.licence() }

    /// Throws when a lookup met a damaged structure in the database (a page whose size does not match
    /// its header, a missing page): answers were given without it, so the caller should say so and stop.
    public func checkIndex() throws {
        if let damage = lookup.damage { throw IndexFormatError.damaged(path: databasePath, what: damage) }
    }

    // MARK: Deciding

    public func placemark(for coordinate: Coordinate) -> Placemark {
        placemark(from: record(for: coordinate))
    }

    /// The answer for one point, as numbers. `needs` leaves out
    /// lookups whose fields nobody will print; what it keeps is decided exactly as with `.all`.
    public func record(for coordinate: Coordinate, needs: PlacemarkNeeds = .all) -> PlacemarkRecord {
        record(for: coordinate, needs: needs, maximumRank: settings.maximumRank, layers: settings.layers)
    }

    /// `maximumRank` in place of the settings' (a server answers each request at its own zoom); `layers`, the
    /// kinds of object that may answer (Nominatim's `layer`). No answer at all is a record with nothing found.
    public func record(
        for coordinate: Coordinate, needs: PlacemarkNeeds = .all, maximumRank: Int, layers: ReverseLayers = .standard
    ) -> PlacemarkRecord {
        let nothing = PlacemarkRecord(location: coordinate)
        var record = nothing
        // Railways, rivers and man-made objects alone: travel411 imports none of them.
        guard !layers.isDisjoint(with: .standard) else { return nothing }
        record.followsNominatim = osmRules?.covers(coordinate) ?? false
        // POIs alone: an extract's, at building level (Nominatim's rank 30); elsewhere there are none.
        let poisAlone = !layers.contains(.address)
        if poisAlone, !record.followsNominatim || maximumRank < 30 { return nothing }
        let x = coordinate.longitude, y = coordinate.latitude
        if hot.isComplete {
            // The locality cell's first reads go out before the area lookups, so that both wait together.
            let warmed = needs.contains(.localities) ? hot.localities?._withUnsafeGuaranteedRef { $0.cells?.warm(coordinate) } ?? 0 : 0
            decideAreasTogether(&record, needs: needs)
            AreaLookupLockstep.keepAlive(Double(warmed))
        } else {
            if needs.contains(.country) { record.country = feature(.country, x, y) }
            if needs.contains(.admin) { record.admin = feature(.admin, x, y) }
            if needs.contains(.district) { record.district = feature(.district, x, y) }
            if needs.contains(.timeZone) { record.timeZone = feature(.timezone, x, y) }
            if needs.contains(.water) {
                record.ocean = feature(.ocean, x, y)
                record.inlandWater = feature(.inlandWater, x, y)
            }
            if needs.contains(.localities) { record.cityArea = feature(.city, x, y) }
            if needs.contains(.subLocality) { record.suburbArea = feature(.suburb, x, y) }
        }
        if needs.contains(.country), record.country < 0 {
            snapToNearbyCountry(&record, needs: needs)
            if record.country < 0 { takeCountryFromTerritorialWaters(&record, needs: needs) }
        }
        if needs.contains(.timeZone) { reconcileTimeZoneAndCountry(&record) }
        if record.admin >= 0, record.country >= 0, needs.contains(.admin) { dropAdminOfAnotherCountry(&record) }
        if record.followsNominatim, record.suburbArea >= 0, needs.contains(.localities) { dropSuburbOfAnotherCity(&record) }
        if record.followsNominatim, Self.placeNodeRanks.contains(maximumRank), needs.contains(.subLocality) {
            chooseSuburbNodeAsNominatim(&record, maximumRank: maximumRank)
        }
        if needs.contains(.localities) { decideLocalities(&record, needs: needs) }
        if record.followsNominatim, record.subLocality >= 0, record.cityArea >= 0 { dropSubLocalityOfAnotherCity(&record) }
        if needs.contains(.streets) {
            // A database with OpenStreetMap objects answers as Nominatim does; one without, by the nearby-feature rules.
            var hasObjects = false
            if record.followsNominatim {
                hasObjects =
                    withObjects { objects in
                        _ = withStreets { streets in
                            decideAsNominatim(&record, objects: objects, streets: streets, maximumRank: maximumRank, layers: layers)
                            // No street or object within reach: Nominatim's area search then looks for place nodes
                            // inside the municipality as at zooms 13-15 (`_lookup_area_address`, ranks up to 25).
                            // Without it, Liechtenstein's object, suburb and city agreed less often with Nominatim.
                            if record.street < 0, record.object < 0, needs.contains(.subLocality) {
                                chooseSuburbNodeAsNominatim(&record, maximumRank: 25)
                            }
                            if settings.addressOfTheAnswer, needs.contains(.localities) {
                                takeAreasOfTheAnswer(&record, objects: objects, streets: streets)
                            }
                        }
                        return true
                    } ?? false
            }
            if !hasObjects { decideStreetAddress(&record) }
        }
        // A POI or nothing: Nominatim looks for no area or country without the address layer.
        if poisAlone, record.object < 0 { return nothing }
        if needs.contains(.osmElement) {
            // Both fields from one Nominatim place: making it per field cost 3.8 µs a field (100,000 Helsinki points).
            record.osmElement = placemark(from: record).nominatimSubject(detail: settings.detail)?.element.flatMap { element in
                AnsweringFeature.ElementType(rawValue: element.type).map { ($0, element.id) }
            }
        }
        return record
    }

    /// Every needed area level at once, their lookups in lockstep (all levels in memory): the same
    /// answers as one `feature` call per level, with the cache misses of the levels overlapping.
    @inline(__always)
    private func decideAreasTogether(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
        let x = record.location.longitude, y = record.location.latitude
        withUnsafeTemporaryAllocation(of: AreaLookupLockstep.Walk.self, capacity: AreaLookupLockstep.capacity) { walks in
            var ordinals = SIMD8<Int32>(repeating: -1)
            var count = 0
            for ordinal in 0..<PlacesSchema.AreaLevel.count where needs.contains(PlacesSchema.AreaLevel.need(ordinal: ordinal)) {
                guard let level = hot.lockstep[ordinal] else { continue }
                walks.initializeElement(at: count, to: AreaLookupLockstep.Walk(level: level, longitude: x, latitude: y))
                ordinals[count] = Int32(ordinal)
                count += 1
            }
            var answers = SIMD8<Int32>(repeating: -1)
            withUnsafeMutableBytes(of: &answers) {
                AreaLookupLockstep.resolve(UnsafeMutableBufferPointer(rebasing: walks[0..<count]), answers: $0.bindMemory(to: Int32.self))
            }
            for lane in 0..<count {
                record.setFeature(answers[lane], of: PlacesSchema.AreaLevel(ordinal: Int(ordinals[lane])))
            }
        }
    }

    @inline(__always)
    private func feature(_ level: PlacesSchema.AreaLevel, _ x: Double, _ y: Double) -> Int32 {
        withArea(level) { Int32($0.index.featureIndex(longitude: x, latitude: y) ?? -1) } ?? -1
    }

    @inline(__always)
    func withArea<R>(_ level: PlacesSchema.AreaLevel, _ body: (PlacesLookup.AreaLevel) -> R) -> R? {
        if hot.isComplete {
            return hot.areas[Int(level.ordinal)]?._withUnsafeGuaranteedRef(body)
        }
        return lookup.area(level).map(body)
    }

    @inline(__always)
    func withPoints<R>(
        _ level: PlacesSchema.PointLevel, near point: Coordinate? = nil, within metres: Double = 0,
        _ body: (PlacesLookup.PointLevel) -> R
    ) -> R? {
        if hot.isComplete {
            let reference: Unmanaged<PlacesLookup.PointLevel>?
            switch level {
            case .locality: reference = hot.localities
            case .postcode: reference = hot.postcodes
            case .address: reference = hot.addresses
            }
            return reference?._withUnsafeGuaranteedRef { points in
                if let point, !PlacesLookup.mayHold(points.bounds, point, within: metres) { return nil }
                return body(points)
            } ?? nil
        }
        return lookup.pointLevel(level, near: point, within: metres).map(body)
    }

    @inline(__always)
    func withStreets<R>(_ body: (PlacesLookup.LineLevel) -> R) -> R? {
        if hot.isComplete { return hot.streets?._withUnsafeGuaranteedRef(body) }
        return lookup.streetLevel().map(body)
    }

    /// The levels of an OpenStreetMap database, borrowed as `withStreets` borrows the streets: each point
    /// asks for them several times, and taking references on the shared objects showed in a batch's profile.
    @inline(__always)
    func withObjects<R>(_ body: (PlacesLookup.LineLevel) -> R) -> R? {
        if hot.isComplete { return hot.objects?._withUnsafeGuaranteedRef(body) }
        return lookup.objectLevel().map(body)
    }

    @inline(__always)
    func withObjectCovers<R>(_ body: (StreetTiles) -> R) -> R? {
        if hot.isComplete { return hot.objectCovers?._withUnsafeGuaranteedRef(body) }
        return lookup.objectCovers().map(body)
    }

    func withStreetPostcodes<R>(_ body: (PagedRecords) -> R) -> R? {
        if hot.isComplete { return hot.streetPostcodes?._withUnsafeGuaranteedRef(body) }
        return lookup.streetPostcodes().map(body)
    }

    /// The extract's suburb-level place nodes, not retained: the lookup keeps them for its life, and references
    /// taken on their arrays per point by every thread showed as 5 % of a Liechtenstein batch's CPU.
    private var suburbNodes: Unmanaged<PlaceNodeSearch>? {
        hot.isComplete ? hot.suburbNodes : lookup.suburbNodeSearch().map(Unmanaged.passUnretained)
    }

    /// The extract's neighbourhood nodes, as `suburbNodes`.
    var neighbourhoods: Unmanaged<NeighbourhoodNodes>? {
        hot.isComplete ? hot.neighbourhoods : lookup.neighbourhoodNodes().map(Unmanaged.passUnretained)
    }

    /// The settings of the rules `record` answers by.
    @inline(__always) private func settings(for record: PlacemarkRecord) -> GeocoderSettings {
        record.followsNominatim ? nominatimSettings : settings
    }

    @inline(__always)
    func withStreetAddresses<R>(_ body: (PagedRecords) -> R) -> R? {
        if hot.isComplete { return hot.streetAddresses?._withUnsafeGuaranteedRef(body) }
        return lookup.streetAddresses().map(body)
    }

    /// Outside every country polygon: look around on widening rings of eight points, and take the
    /// country most of the nearest ring's hits fall in (ties: the first found, going clockwise from
    /// north), with its admin area when the point has none. Open sea, whose tiles and neighbouring
    /// tiles hold no country at all, is skipped at once.
    private func snapToNearbyCountry(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
        let reach = settings.coastalSnapMetres
        guard reach > 0, withArea(.country, { $0.index.mayHoldFeature(near: record.location, withinMetres: reach) }) == true else { return }
        let origin = GreatCircle.Origin(record.location)
        let probes = CoastalProbes.shared
        for ring in 0..<CoastalProbes.ringCount where probes.radii[ring] <= reach {
            let step = probes.step(ring)
            // A coastal point probes up to forty times: hits stay in a vector, not a heap array.
            var hits = SIMD8<Int32>(repeating: -1)
            if hot.isComplete, let countries = hot.lockstep[Int(PlacesSchema.AreaLevel.country.ordinal)] {
                withUnsafeTemporaryAllocation(of: AreaLookupLockstep.Walk.self, capacity: 8) { walks in
                    for i in 0..<8 {
                        let probe = origin.destination(step, probes.heading(i))
                        walks.initializeElement(
                            at: i, to: AreaLookupLockstep.Walk(level: countries, longitude: probe.longitude, latitude: probe.latitude))
                    }
                    withUnsafeMutableBytes(of: &hits) { AreaLookupLockstep.resolve(walks, answers: $0.bindMemory(to: Int32.self)) }
                }
            } else {
                for i in 0..<8 {
                    let probe = origin.destination(step, probes.heading(i))
                    hits[i] = feature(.country, probe.longitude, probe.latitude)
                }
            }
            guard any(hits .>= 0) else { continue }
            var winner = 0, winnerVotes = 0
            for i in 0..<8 where hits[i] >= 0 {
                var votes = 0
                for j in 0..<8 where hits[j] == hits[i] { votes += 1 }
                if votes > winnerVotes {
                    winner = i
                    winnerVotes = votes
                }
            }
            record.country = hits[winner]
            // The locality rule may need the admin polygon too (`firstLevel(ofAdminAt:)`).
            if record.admin < 0, needs.contains(.admin) || needs.contains(.localities) {
                let probe = origin.destination(step, probes.heading(winner))
                record.admin = feature(.admin, probe.longitude, probe.latitude)
            }
            return
        }
    }

    /// Outside every country polygon with no land within the coastal snap's reach, inside a land time
    /// zone: the zone's country (tzdata's zone.tab), whose polygons follow the territorial waters,
    /// decides (atolls the 1:10m coastline leaves out). `Etc/` zones at sea have no country.
    @inline(__always)
    private func takeCountryFromTerritorialWaters(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
        let zone =
            needs.contains(.timeZone)
            ? record.timeZone
            : feature(.timezone, record.location.longitude, record.location.latitude)
        guard let country = withArea(.timezone, { $0.countryFeature(of: zone) }), country >= 0 else { return }
        record.country = country
        record.countryFromTerritorialWaters = true
    }

    /// An admin polygon belongs to one country (the one its localities lie in): where it overlaps
    /// another country's polygon, along a simplified or disputed border, the country polygon wins and
    /// the point has no administrativeArea rather than another country's.
    @inline(__always)
    private func dropAdminOfAnotherCountry(_ record: inout PlacemarkRecord) {
        let owner = withArea(.admin) { $0.countryFeature(of: record.admin) } ?? -1
        if owner >= 0, owner != record.country { record.admin = -1 }
    }

    /// The coastal snap's rings (1, 2.5, 5, 10 and 20 km) and eight bearings (clockwise from north),
    /// as sines and cosines computed once; plain vectors, so threads read them without reference counting.
    private struct CoastalProbes {
        static let ringCount = 5
        static let shared = CoastalProbes()
        let radii = SIMD8<Double>(1000, 2500, 5000, 10_000, 20_000, .infinity, .infinity, .infinity)
        private var ringSines = SIMD8<Double>(), ringCosines = SIMD8<Double>()
        private var headingSines = SIMD8<Double>(), headingCosines = SIMD8<Double>()

        private init() {
            for ring in 0..<Self.ringCount {
                let step = GreatCircle.Step(distance: radii[ring])
                ringSines[ring] = step.sinδ
                ringCosines[ring] = step.cosδ
            }
            for i in 0..<8 {
                let heading = GreatCircle.Heading(Double(i) * 45)
                headingSines[i] = heading.sinθ
                headingCosines[i] = heading.cosθ
            }
        }

        @inline(__always) func step(_ ring: Int) -> GreatCircle.Step { GreatCircle.Step(sinδ: ringSines[ring], cosδ: ringCosines[ring]) }
        @inline(__always) func heading(_ i: Int) -> GreatCircle.Heading {
            GreatCircle.Heading(sinθ: headingSines[i], cosθ: headingCosines[i])
        }
    }

    /// Locality: of the places of the point's country whose catchment contains the point, neighbourhoods
    /// of more populous places left out, the one the point lies deepest in, preferring the places of the
    /// point's own first-level area; else the nearest place of that country within the fallback distance
    /// (10 km). subLocality: a less populous neighbourhood of the locality's first-level area nearby
    /// whose core disc holds the point. At sea there is no locality, only the nearest one, unless the
    /// coast is close enough to snap to (see settings).
    private func decideLocalities(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
        _ = withPoints(.locality) { level in
            var candidates = LocalityCandidates(location: record.location)
            if needs.contains(.nearestLocality) { _ = candidates.nearestPlace(in: level, recordingIn: &record) }
            guard var country = pointCountry(of: record) else { return }
            guard
                let (locality, catchment) = locality(of: &record, in: level, candidates: &candidates, country: &country, needs: needs)
            else {
                return
            }
            record.locality = locality
            if needs.contains(.district) { noteDistrictFromLocality(&record, locality: locality, records: level.records) }
            // A locality found without a catchment has no neighbourhood: no core disc can hold the point.
            if needs.contains(.subLocality), let catchment {
                decideSubLocality(
                    &record, locality: locality, population: catchment.population, firstLevel: catchment.firstLevel, in: level,
                    candidates: candidates, country: &country)
            }
        }
    }

    /// The nearby localities of one point: the nearest place overall, found when first needed (a batch
    /// that prints only the locality skips it whenever a catchment answers) and then remembered.
    /// It holds no reference to the level, which each call borrows: a stored one was retained and released
    /// per point by both of a batch's threads, whose contention on its reference count took 3 % of a central
    /// Helsinki batch's samples (perf, a busy machine).
    private struct LocalityCandidates {
        let location: Coordinate
        let query: PointIndex.Query
        private var nearestFound: (id: UInt32, group: UInt32)?? = nil

        package init(location: Coordinate) {
            self.location = location
            query = PointIndex.Query(location)
        }

        /// The nearest place if it has been looked for already; nil if not, or if there is none.
        var knownNearest: (id: UInt32, group: UInt32)? { nearestFound ?? nil }

        /// The nearest place overall, with its distance and bearing written into the record.
        @inline(__always)
        mutating func nearestPlace(in level: PlacesLookup.PointLevel, recordingIn record: inout PlacemarkRecord) -> (
            id: UInt32, group: UInt32
        )? {
            if let known = nearestFound { return known }
            var found: (id: UInt32, group: UInt32)? = nil
            // The cells answer exactly when a place lies within their reach; the tree beyond it. Borrowed, as the
            // level is: an optional copy of the cells took a reference per point.
            let fromCells = level.cells.flatMap { cells in
                Unmanaged.passUnretained(cells)._withUnsafeGuaranteedRef { cells -> (id: UInt32, group: UInt32)? in
                    guard cells.knowsGroups,
                        let id = cells.nearest(
                            to: location, query: query, filter: PointIndex.NearestFilter(),
                            withinMetres: ReverseGeocoder.nearestFromCellsMetres)
                    else { return nil }
                    return (id, cells.group(of: id))
                }
            }
            let candidate = fromCells ?? level.index.nearest(to: query)
            if let (nearest, group) = candidate, let place = level.records.coordinate(Int(nearest)) {
                record.nearest = Int32(nearest)
                record.nearestDistance = GreatCircle.distance(from: place, to: location)
                record.nearestBearing = GreatCircle.initialBearing(from: place, to: location)
                found = (nearest, group)
            }
            nearestFound = .some(found)
            return found
        }
    }

    /// The country of the point, as the localities are filtered by it.
    private struct PointCountry {
        /// The ISO code's bytes, as the locality records store it.
        let code: UnsafeBufferPointer<UInt8>
        /// A two-letter code packed for the cells' and the tree's filters; 0 for anything else (rare),
        /// which is then checked against the records.
        let packed: UInt16
        /// Whether the nearest place overall is of this country: asked by both the locality fallback and
        /// the subLocality rule, read from the records once.
        private var nearestIsInCountry: Bool?

        package init(code: UnsafeBufferPointer<UInt8>) {
            self.code = code
            packed = code.count == 2 ? UInt16(code[0]) << 8 | UInt16(code[1]) : 0
        }

        private static let countryField = PlacesSchema.LocalityField.countryCode.rawValue

        func contains(_ place: UInt32, records: PagedRecords) -> Bool {
            packed != 0 || records.field(Int(place), Self.countryField, equals: code)
        }

        mutating func containsNearest(_ nearest: UInt32, records: PagedRecords) -> Bool {
            if let known = nearestIsInCountry { return known }
            let answer = records.field(Int(nearest), Self.countryField, equals: code)
            nearestIsInCountry = answer
            return answer
        }
    }

    @inline(__always)
    private func pointCountry(of record: PlacemarkRecord) -> PointCountry? {
        guard record.country >= 0, let code = withArea(.country, { $0.bytes(Int(record.country), .code) }), !code.isEmpty else {
            return nil
        }
        return PointCountry(code: code)
    }

    /// The place of the point's country whose catchment holds the point deepest, neighbourhoods left out,
    /// those of the point's first-level area first (`LocalityCells.locality(containing:)`); else the
    /// nearest place of that country within the fallback distance (the nearest overall when it qualifies
    /// and is already known, else the nearest from the cells around the point). With a catchment, also
    /// the locality's population and first-level area.
    @inline(__always)
    private func locality(
        of record: inout PlacemarkRecord, in level: PlacesLookup.PointLevel, candidates: inout LocalityCandidates,
        country: inout PointCountry, needs: PlacemarkNeeds
    ) -> (Int32, (population: UInt32, firstLevel: UInt32)?)? {
        // Without the admin polygon (a batch not printing it), it is looked up only where the catchments
        // holding the point are of several first-level areas: the same answer, one lookup saved mostly.
        let knowsAdmin = needs.contains(.admin)
        let pointArea = knowsAdmin ? firstLevel(ofAdmin: record.admin) : 0
        if var found = level.cells?.localityWithPopulation(
            containing: record.location, query: candidates.query, country: country.packed, firstLevel: pointArea)
        {
            if !knowsAdmin, found.areasDiffer, case let area = firstLevel(ofAdminAt: record), area != 0,
                let preferred = level.cells?.localityWithPopulation(
                    containing: record.location, query: candidates.query, country: country.packed, firstLevel: area)
            {
                found = preferred
            }
            return (Int32(found.id), (found.population, found.firstLevel))
        }
        let reach = settings.nearestLocalityFallbackMetres
        if let known = candidates.knownNearest, country.containsNearest(known.id, records: level.records), record.nearestDistance <= reach {
            return (Int32(known.id), nil)
        }
        if let found = nearest(
            in: level, to: record.location, query: candidates.query, filter: PointIndex.NearestFilter(country: country.packed),
            withinMetres: reach),
            country.contains(found, records: level.records)
        {
            return (Int32(found), nil)
        }
        return nil
    }

    @inline(__always)
    private func firstLevel(ofAdmin admin: Int32) -> UInt32 {
        admin >= 0 ? withArea(.admin) { $0.firstLevel(of: admin) } ?? 0 : 0
    }

    /// The first-level area of the admin polygon `record(for:)` would answer when asked for it: the one
    /// the coastal snap found, else the one at the point, dropped when of another country.
    private func firstLevel(ofAdminAt record: PlacemarkRecord) -> UInt32 {
        var admin = record.admin
        if admin < 0 { admin = feature(.admin, record.location.longitude, record.location.latitude) }
        guard admin >= 0 else { return 0 }
        let owner = withArea(.admin) { $0.countryFeature(of: admin) } ?? -1
        return owner >= 0 && owner != record.country ? 0 : firstLevel(ofAdmin: admin)
    }

    /// A first-level area without second-level names (a borough-less county) takes its district from the
    /// locality when the locality lies in the same first-level area.
    @inline(__always)
    private func noteDistrictFromLocality(_ record: inout PlacemarkRecord, locality: Int32, records: PagedRecords) {
        if record.district < 0, record.admin >= 0,
            withArea(.admin, { $0.bytes(Int(record.admin), .subAdministrativeArea).isEmpty }) ?? false,
            let area = withArea(.admin, { $0.bytes(Int(record.admin), .administrativeArea) }),
            records.field(Int(locality), PlacesSchema.LocalityField.admin1.rawValue, equals: area)
        {
            record.subAdministrativeFromLocality = true
        }
    }

    /// A neighbourhood of the locality: the nearest place of the point's country and the locality's
    /// first-level area that is a neighbourhood of a more populous place (`NeighbourhoodRule`), less
    /// populous than the locality and not its namesake, whose own core disc (3,000 people per km², at
    /// least 1 km) holds the point. A separate town next door (Neuilly-sur-Seine beside the Eiffel
    /// Tower) is too far from the point for its core to hold it, and a town of its own is never one:
    /// then there is no subLocality at all.
    @inline(__always)
    private func decideSubLocality(
        _ record: inout PlacemarkRecord, locality: Int32, population: UInt32, firstLevel: UInt32, in level: PlacesLookup.PointLevel,
        candidates: LocalityCandidates, country: inout PointCountry
    ) {
        guard let cells = level.cells else { return }
        // Borrowed: a local reference was taken and dropped per point by each thread.
        Unmanaged.passUnretained(level.records)._withUnsafeGuaranteedRef { records in
            decideSubLocality(
                &record, locality: locality, population: population, firstLevel: firstLevel, records: records, cells: cells,
                candidates: candidates, country: &country)
        }
    }

    @inline(__always)
    private func decideSubLocality(
        _ record: inout PlacemarkRecord, locality: Int32, population: UInt32, firstLevel: UInt32, records: PagedRecords,
        cells: LocalityCells, candidates: LocalityCandidates, country: inout PointCountry
    ) {
        let nameField = PlacesSchema.LocalityField.name.rawValue
        let localityName = records.bytes(Int(locality), nameField) ?? UnsafeBufferPointer(start: nil, count: 0)
        let reach = PointIndex.chord(metres: settings.subLocalityRadiusMetres)
        var excluded: UInt32 = .max
        for _ in 0..<2 {
            guard
                let found = cells.nearestHolding(
                    candidates.location, query: candidates.query, country: country.packed, firstLevel: firstLevel,
                    below: population, excluding: excluded, maxChord: reach),
                country.contains(found, records: records)
            else { return }
            if !records.field(Int(found), nameField, equals: localityName) {
                record.subLocality = Int32(found)
                return
            }
            excluded = found
        }
    }

    /// Up to this distance, the nearest locality comes from the locality cells; beyond, from the tree.
    static let nearestFromCellsMetres = 10_000.0

    /// The nearest locality that `filter` accepts within `metres`: from the locality cells (a few cache
    /// misses) when they can filter as asked, else from the k-d tree (one per node); the same answer.
    @inline(__always)
    private func nearest(
        in level: PlacesLookup.PointLevel, to coordinate: Coordinate, query: PointIndex.Query,
        filter: PointIndex.NearestFilter, withinMetres metres: Double
    ) -> UInt32? {
        if let cells = level.cells, filter.group == 0 || cells.knowsGroups {
            return cells.nearest(to: coordinate, query: query, filter: filter, withinMetres: metres)
        }
        return level.index.nearest(to: query, maxChord: PointIndex.chord(metres: metres), filter: filter)?.id
    }

    /// Thoroughfare from the nearest named line; house number from the nearest address point on that
    /// street (or, with no line near, the nearest address point at all, which then names the street);
    /// postcode from that address, else from the nearest postcode centroid.
    private func decideStreetAddress(_ record: inout PlacemarkRecord) {
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
        let query = PointIndex.Query(point)
        let streetField = PlacesSchema.AddressField.street.rawValue
        let found: UInt32?? = withPoints(.address, near: point, within: settings.addressRadiusMetres) { addresses in
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

    /// The postcode of the nearest postcode point within the postcode radius.
    func takeNearestPostcode(_ record: inout PlacemarkRecord) {
        let query = PointIndex.Query(record.location)
        let settings = self.settings(for: record)
        if let found = withPoints(
            .postcode, near: record.location, within: settings.postcodeRadiusMetres,
            {
                $0.index.nearest(to: query, maxChord: PointIndex.chord(metres: settings.postcodeRadiusMetres))?.id
            }) ?? nil
        {
            record.postcode = Int32(found)
        }
    }

    /// A suburb made from an OpenStreetMap place node names only points of the municipality holding the node
    /// (`municipality`, the record's city when nil).
    private func dropSuburbOfAnotherCity(_ record: inout PlacemarkRecord, municipality: Int32? = nil) {
        guard let city = Self.number(lookup.area(.suburb)?.bytes(Int(record.suburbArea), .municipality)) else { return }
        if Int64(city) != Int64(municipality ?? record.cityArea) { record.suburbArea = -1 }
    }

    /// The maximum ranks (zooms 13-15) at which Nominatim answers with the place node nearest by its rule (at
    /// zooms 16-18 too where no street or object is within reach).
    private static let placeNodeRanks = 19...25

    /// Where the extract's suburbs are place nodes, the one Nominatim answers with at this zoom (`PlaceNodeSearch`),
    /// else none; a suburb polygon holding the point stays.
    private func chooseSuburbNodeAsNominatim(_ record: inout PlacemarkRecord, maximumRank: Int) {
        _ = suburbNodes?._withUnsafeGuaranteedRef { search in
            guard !search.isEmpty, record.suburbArea < 0 || search.isNodeArea(record.suburbArea) else { return }
            record.suburbArea =
                search.answer(
                    x: record.location.longitude, y: record.location.latitude, maximumRank: maximumRank, municipality: record.cityArea)
                ?? -1
        }
    }

    /// How far `street` passes from a place node, in degrees, when it passes through the node's box (half-widths
    /// `box`); nil otherwise: Nominatim's test that a street passes through a place node's area (`getNearFeatures`
    /// intersects the street with the box) and its distance (the whole street's from the node). The street's
    /// point nearest the node alone lies outside the box where the street cuts a corner of it (Nendeln's box and
    /// a street of Eschen, one of Liechtenstein's 300 zoom-18 points): the point nearest that corner then lies
    /// inside. Only the cells of the street's extent are read: Helsinki's server spent 10 µs a request measuring
    /// its suburb nodes' distances over their whole boxes.
    /// `segments`, when given, are the street's within its extent, measured in place of a search.
    private static func distance(
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
    private static func nearestPoint(
        of street: UInt32, to point: Coordinate, streets: PlacesLookup.LineLevel, extent: BoundingBox?
    ) -> Coordinate? {
        streets.index.nearestInDegrees(to: point, radiusDegrees: 0.1, onlyLine: street, clip: extent.map(widenedPastRounding))?.closest
    }

    /// Nominatim's address of a street, or of an object on it, names of the municipalities and suburbs the street
    /// runs through the one holding the answer's own point (the street's point nearest the query, the object's
    /// point), not the query's: a point in Schaan next to Kuegrat, which is Planken's there, answers Planken.
    /// Liechtenstein's city at zoom 18 agreed with Nominatim at 82.0 % without it, 93.7 % with it.
    private func takeAreasOfTheAnswer(
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
        var answer: Coordinate
        var city: Int32
        if record.streetAnswers {
            // An area's result point is its centre, a line's its point nearest the query (Nominatim's centroid).
            answer =
                Self.point(streets.names.bytes(Int(record.street), PlacesSchema.StreetField.centre.rawValue)) ?? record.streetPoint
            city = feature(.city, answer.longitude, answer.latitude)
        } else if record.object >= 0, let centre = Self.centre(of: UInt32(record.object), objects: objects) {
            answer = centre
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
            return
        }
        // Outside every municipality (a street running out of the extract) the point's stays.
        if city >= 0, city != record.cityArea {
            record.cityArea = city
            if record.subLocality >= 0 { dropSubLocalityOfAnotherCity(&record) }
        }
        // The suburb too: a polygon holding the answer's point; among place nodes, those nearest the street's line
        // (`PlaceNodeSearch.addressParts`), and the neighbourhood so.
        let nodes = suburbNodes
        // The street's segments within its extent, gathered at the first node measured and measured from every node:
        // one search per node and corner was half of this function's time in a Helsinki server's profile. Nil after
        // gathering when the street is too long to gather: then each node searches.
        var segments: LineSegments?, gathered = false
        func streetDistance(from x: Double, _ y: Double, within box: (x: Double, y: Double)) -> Double? {
            guard let street else { return nil }
            if !gathered {
                gathered = true
                segments = extent.flatMap {
                    streets.index.segments(
                        ofLine: street, in: Self.widenedPastRounding($0), maxCells: Self.gatheredCells, maxSegments: Self.gatheredSegments)
                }
            }
            return Self.distance(ofLine: street, from: (x, y), within: box, streets: streets, extent: extent, segments: segments)
        }
        record.suburbArea = feature(.suburb, answer.longitude, answer.latitude)
        // Place nodes name parts of the street's own municipality, also where the answer is in another
        // ("Schaanwald, Eschen": a path of Mauren's, at its point in Eschen).
        let nodesMunicipality = ownCity >= 0 ? ownCity : record.cityArea
        _ = nodes?._withUnsafeGuaranteedRef { nodes in
            guard street != nil, !nodes.isEmpty, record.suburbArea < 0 || nodes.isNodeArea(record.suburbArea) else { return }
            let parts = nodes.addressParts(near: answer, municipality: nodesMunicipality) { node, box in
                streetDistance(from: node.x, node.y, within: box)
            }
            // One part alone is the subLocality, as the areas at a point give it; both, the village the coarser.
            record.suburbArea = parts.part ?? parts.village ?? -1
            record.villagePart = parts.part != nil ? parts.village ?? -1 : -1
        }
        if record.suburbArea >= 0 { dropSuburbOfAnotherCity(&record, municipality: nodesMunicipality) }
        _ = neighbourhoods?._withUnsafeGuaranteedRef { neighbourhoods in
            guard !neighbourhoods.isEmpty else { return }
            if street != nil {
                // Only inside the box of the hamlet or suburb node named (Nominatim's `current_node_area`).
                let part = record.suburbArea
                func insidePart(_ x: Double, _ y: Double) -> Bool {
                    part < 0 || nodes?._withUnsafeGuaranteedRef { $0.boxHolds(part, x: x, y: y) } ?? true
                }
                record.neighbourhood =
                    neighbourhoods.nearest(near: answer) { node, box in
                        insidePart(node.x, node.y) ? streetDistance(from: node.x, node.y, within: box) : nil
                    } ?? -1
            } else {
                record.neighbourhood = neighbourhoods.nearest(to: answer) ?? -1
            }
        }
    }

    /// A place node names a part of the municipality holding it only: Planken's village node is no part of Eschen.
    private func dropSubLocalityOfAnotherCity(_ record: inout PlacemarkRecord) {
        guard let place = withPoints(.locality, { $0.records.coordinate(Int(record.subLocality)) }) ?? nil else { return }
        if feature(.city, place.longitude, place.latitude) != record.cityArea { record.subLocality = -1 }
    }

    /// Nominatim answers the nearest object, a street or an address: where an address point lies nearer
    /// than the street chosen, the answer is that address, its street the address's own.
    private func preferNearerAddress(_ record: inout PlacemarkRecord) {
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

public enum PlacesLookupLoading: Sendable { case onDemand, everything }
