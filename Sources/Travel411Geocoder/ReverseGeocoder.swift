import Foundation
import Synchronization
import Travel411Core
import Travel411Store

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
    /// `osmRules != nil`, for the per-point tests: comparing the optional with nil copied and destroyed the rules
    /// through their value witnesses each time.
    let hasOSMRules: Bool
    let lookup: PlacesLookup
    /// Each country's only time zone, by country feature; -1 where it has several, `noZoneOfItsOwn` where none
    /// (`reconcileTimeZoneAndCountry` reads it for every point, so it is made once here).
    let soleTimeZones: [Int32]
    /// The OpenStreetMap elements behind area polygons, read once each (a server asks per answer).
    let areaElements = Mutex<[Int64: AreaElement?]>([:])
    let hot: HotReferences
    /// Keeps `hot.gridRows` alive.
    private let gridRows: AreaLookupLockstep.GridRows?
    /// When everything was read up front for a batch printing the district: `noteDistrictFromLocality`'s
    /// comparison as numbers.
    let localityAdminMatch: LocalityAdminMatch?
    /// The locality rules' distances as chords (`settings`').
    let localityChords: LocalityChords

    /// Everything a lookup touches, held without reference counting when all of it was read up
    /// front: threads sharing one geocoder would otherwise contend on the same counters for every
    /// point. `lookup` keeps the objects alive.
    ///
    /// They are read through `Unmanaged._withUnsafeGuaranteedRef`, the standard library's underscored
    /// way to borrow an unowned object without retain/release. Safe because `lookup` owns every object
    /// for as long as the geocoder lives. Retain/release on counters shared by the workers makes a batch
    /// 10-13 % slower on 2 cores (docs/development.md, "Development log").
    struct HotReferences {
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
        var streetCovers: Unmanaged<StreetTiles>?
        var interpolations: Unmanaged<PlacesLookup.LineLevel>?
        /// The extract's place nodes of the suburb level and its neighbourhoods.
        var suburbNodes: Unmanaged<PlaceNodeSearch>?
        var neighbourhoods: Unmanaged<NeighbourhoodNodeTiles>?
        /// Per area level (by ordinal), what its lockstep lookups read; nil for a missing level.
        var lockstep: [AreaLookupLockstep.Level?] = []
        /// The levels' grid references tile by tile, where those lookups start (`gridRows` keeps it).
        var gridRows: Unmanaged<AreaLookupLockstep.GridRows>?
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
        hasOSMRules = rules != nil
        self.settings = settings
        localityChords = LocalityChords(settings: settings)
        self.nominatimSettings = nominatimSettings
        let lookup = try PlacesLookup(path: databasePath, loading: loading == .everything ? .everything : .onDemand, needs: needs)
        self.lookup = lookup
        soleTimeZones = Self.soleTimeZones(of: lookup.area(.timezone)?.countryFeatures ?? [])
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
                hot.streetCovers = lookup.streetCovers().map(Unmanaged.passUnretained)
                hot.interpolations = lookup.interpolationLevel().map(Unmanaged.passUnretained)
                hot.suburbNodes = lookup.suburbNodeSearch().map(Unmanaged.passUnretained)
                hot.neighbourhoods = lookup.neighbourhoodNodes().map(Unmanaged.passUnretained)
            }
            hot.lockstep = PlacesSchema.AreaLevel.allCases.map { lookup.area($0)?.index.lockstepLevel }
            hot.isComplete = true
        }
        gridRows = hot.isComplete ? AreaLookupLockstep.GridRows(levels: hot.lockstep) : nil
        hot.gridRows = gridRows.map(Unmanaged.passUnretained)
        self.hot = hot
        localityAdminMatch =
            if loading == .everything, needs.contains(.district), let admins = lookup.area(.admin),
                let localities = lookup.pointLevel(.locality)
            {
                LocalityAdminMatch(admins: admins, localities: localities)
            } else {
                nil
            }
    }

    /// The licences of the data this database was imported from (`DataLicence`): what its Nominatim answers carry.
    public var licence: DataLicence { lookup.licence() }

    /// Throws when a lookup met a damaged structure in the database (a page whose size does not match
    /// its header, a missing page): answers were given without it, so the caller should say so and stop.
    public func checkIndex() throws {
        if let damage = lookup.damage { throw IndexFormatError.damaged(path: databasePath, what: damage) }
    }

    /// `body`, whose lookups read the pages they first touch from one snapshot of the database
    /// (`SharedDatabaseReader.readingOneSnapshot`): a batch's, not a server's.
    package func readingOneSnapshot<R>(_ body: () throws -> R) throws -> R { try lookup.reader.readingOneSnapshot(body) }

    // MARK: Deciding

    public func placemark(for coordinate: Coordinate) -> Placemark {
        placemark(from: record(for: coordinate))
    }

    /// The answer for one point, as numbers. `needs` leaves out
    /// lookups whose fields nobody will print; what it keeps is decided exactly as with `.all`.
    /// Inlinable, as the next one: a call through a wrapper returning the record copied it (160 bytes) on its way.
    @inlinable
    public func record(for coordinate: Coordinate, needs: PlacemarkNeeds = .all) -> PlacemarkRecord {
        record(for: coordinate, needs: needs, maximumRank: settings.maximumRank, layers: settings.layers)
    }

    /// `maximumRank` in place of the settings' (a server answers each request at its own zoom); `layers`, the
    /// kinds of object that may answer (Nominatim's `layer`). No answer at all is a record with nothing found.
    @inlinable
    public func record(
        for coordinate: Coordinate, needs: PlacemarkNeeds = .all, maximumRank: Int, layers: ReverseLayers = .standard
    ) -> PlacemarkRecord {
        record(for: coordinate, needs: needs, maximumRank: maximumRank, layers: layers, otherCountriesAreas: false)
    }

    /// `otherCountriesAreas`: keeps the areas of another country than the answered one, for `--explain` to name.
    @usableFromInline
    func record(
        for coordinate: Coordinate, needs: PlacemarkNeeds, maximumRank: Int, layers: ReverseLayers, otherCountriesAreas: Bool
    ) -> PlacemarkRecord {
        // Decided in place, in the record returned: built and returned by the function deciding it, it was copied
        // three times a point on the way out (memcpy, two of them where the ways out met).
        var record = PlacemarkRecord(location: coordinate)
        decide(&record, needs: needs, maximumRank: maximumRank, layers: layers, otherCountriesAreas: otherCountriesAreas)
        return record
    }

    /// `record(for:)`'s rules, on an empty record of the point; an empty answer leaves it empty.
    private func decide(
        _ record: inout PlacemarkRecord, needs: PlacemarkNeeds, maximumRank: Int, layers: ReverseLayers, otherCountriesAreas: Bool
    ) {
        let coordinate = record.location
        // Railways, rivers and man-made objects alone: travel411 imports none of them.
        guard !layers.isDisjoint(with: .standard) else { return }
        record.followsNominatim = false
        // Within the extracts' extent, and beyond it where a place node of theirs reaches (`PlaceNodeReach`).
        if hasOSMRules, let rules = osmRules {
            record.followsNominatim = rules.covers(coordinate) || placeNodeReaches(coordinate, nearData: rules.coverageTiles)
        }
        // POIs alone: an extract's, at building level (Nominatim's rank 30); elsewhere there are none.
        let poisAlone = !layers.contains(.address)
        if poisAlone, !record.followsNominatim || maximumRank < 30 {
            record = PlacemarkRecord(location: coordinate)
            return
        }
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
        if record.followsNominatim, needs.contains(.subLocality) { dropSuburbPolygonAboveRank(&record, maximumRank: maximumRank) }
        if record.followsNominatim, Self.placeNodeRanks.contains(maximumRank), needs.contains(.subLocality) {
            chooseSuburbNodeAsNominatim(&record, maximumRank: maximumRank)
            chooseFinePlaceNodeAsNominatim(&record, maximumRank: maximumRank)
            chooseSubpartNodeAsNominatim(&record, maximumRank: maximumRank)
        }
        if needs.contains(.localities) { decideLocalities(&record, needs: needs) }
        if hasOSMRules, needs.contains(.localities) { dropTownsDescribingOnly(&record) }
        if record.followsNominatim, needs.contains(.subLocality) { dropSubLocalityFromBeyondTheExtract(&record) }
        if record.followsNominatim, needs.contains(.localities) {
            dropCityNodeAboveRank(&record, maximumRank: maximumRank)
            dropCityBoundaryAboveRank(&record, maximumRank: maximumRank)
        }
        if record.followsNominatim, record.subLocality >= 0, record.cityArea >= 0 { dropSubLocalityOfAnotherCity(&record) }
        if needs.contains(.streets) { decideStreets(&record, needs: needs, maximumRank: maximumRank, layers: layers) }
        if record.followsNominatim, needs.contains(.localities) {
            decideMunicipalityOutsideAreas(&record, maximumRank: maximumRank)
            dropPlaceNodesFromBoundaryAnswer(&record, maximumRank: maximumRank)
        }
        // Decided last, over every rule above that names an area: none of another country (`SameCountryAreas`).
        // Outside the extract's data tiles too: the area drawn around a city node reaches 15 km, past them and
        // into the next country (Monaco's into France). Only an extract's import gives areas a country: a
        // database without one (the default's batch) skips the check.
        if hasOSMRules, !otherCountriesAreas { dropAreasOfAnotherCountry(&record) }
        // The state and county of the answering place, not the point's (`UpperAreasOfTheAnswer`).
        if record.followsNominatim, settings.addressOfTheAnswer, needs.contains(.admin) || needs.contains(.district) {
            takeUpperAreasOfTheAnswer(&record, objects: lookup.objectLevel(), streets: lookup.streetLevel(), needs: needs)
        }
        // A POI or nothing: Nominatim looks for no area or country without the address layer.
        if poisAlone, record.object < 0 {
            record = PlacemarkRecord(location: coordinate)
            return
        }
        if needs.contains(.osmElement) { record.osmElement = osmElement(of: record) }
    }

    /// The street, address and postcode rules (`record(for:)`'s, when the streets are needed).
    private func decideStreets(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds, maximumRank: Int, layers: ReverseLayers) {
        // A database with OpenStreetMap objects answers as Nominatim does; one without, by the nearby-feature rules.
        var hasObjects = false
        if record.followsNominatim {
            hasObjects =
                withObjects { objects in
                    _ = withStreets { streets in
                        decideAsNominatim(&record, objects: objects, streets: streets, maximumRank: maximumRank, layers: layers)
                        // No street or object within reach: Nominatim's area search then looks for place nodes
                        // inside the municipality as at zooms 13-15 (`_lookup_area_address`). Without it,
                        // Liechtenstein's object, suburb and city agreed less often with Nominatim. Its nodes are
                        // of a search rank up to the zoom's (`max_rank`, `zoom_to_rank` in `nominatim_api/v1/helpers.py`)
                        // and an address rank up to 25 (`IntersectsReverseDistance`): below zoom 16 no street is
                        // looked for, and at zoom 10 no suburb node answers.
                        if record.street < 0, record.object < 0, needs.contains(.subLocality) {
                            chooseSuburbNodeAsNominatim(&record, maximumRank: min(maximumRank, Self.placeNodeRanks.upperBound))
                        }
                        if settings.addressOfTheAnswer {
                            if needs.contains(.localities) { takeAreasOfTheAnswer(&record, objects: objects, streets: streets) }
                            if needs.contains(.country) { takeCountryOfTheAnswer(&record, objects, streets, needs: needs) }
                        }
                    }
                    return true
                } ?? false
        }
        if !hasObjects { decideStreetAddress(&record) }
    }

    /// The OpenStreetMap element of the record's Nominatim place. Both fields from one Nominatim place: making it per
    /// field cost 3.8 µs a field (100,000 Helsinki points).
    private func osmElement(of record: PlacemarkRecord) -> (AnsweringFeature.ElementType, Int64)? {
        placemark(from: record).nominatimSubject(detail: settings.detail, maximumRank: settings.maximumRank)?.element.flatMap { element in
            AnsweringFeature.ElementType(rawValue: element.type).map { ($0, element.id) }
        }
    }

    /// Every needed area level at once, their lookups in lockstep (all levels in memory): the same
    /// answers as one `feature` call per level, with the cache misses of the levels overlapping.
    @inline(__always)
    func decideAreasTogether(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
        // Set whenever the lockstep levels are (`hot.isComplete`, the only caller's case).
        hot.gridRows?._withUnsafeGuaranteedRef { rows in
            let start = AreaLookupLockstep.Start(longitude: record.location.longitude, latitude: record.location.latitude)
            let references = rows.references + start.tile * AreaLookupLockstep.GridRows.stride
            // The levels read, lowest ordinal first, as `need(ordinal:)` and the present levels give them.
            let wanted = rows.present & PlacesSchema.AreaLevel.ordinals(readBy: needs)
            withUnsafeTemporaryAllocation(of: AreaLookupLockstep.Walk.self, capacity: AreaLookupLockstep.capacity) { walks in
                var count = 0
                var bits = wanted
                while bits != 0 {
                    let ordinal = bits.trailingZeroBitCount
                    bits &= bits &- 1
                    walks.initializeElement(
                        at: count, to: AreaLookupLockstep.Walk(level: rows.levels[ordinal], start: start, reference: references[ordinal]))
                    count &+= 1
                }
                var answers = SIMD8<Int32>(repeating: -1)
                withUnsafeMutableBytes(of: &answers) {
                    AreaLookupLockstep.resolve(
                        UnsafeMutableBufferPointer(rebasing: walks[0..<count]), answers: $0.bindMemory(to: Int32.self))
                }
                bits = wanted
                var lane = 0
                while bits != 0 {
                    let ordinal = bits.trailingZeroBitCount
                    bits &= bits &- 1
                    record.setFeature(answers[lane], of: PlacesSchema.AreaLevel(ordinal: ordinal))
                    lane &+= 1
                }
            }
        }
    }

    @inline(__always)
    func feature(_ level: PlacesSchema.AreaLevel, _ x: Double, _ y: Double) -> Int32 {
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

    @inline(__always)
    func withStreetCovers<R>(_ body: (StreetTiles) -> R) -> R? {
        if hot.isComplete { return hot.streetCovers?._withUnsafeGuaranteedRef(body) }
        return lookup.streetCovers().map(body)
    }

    /// The pieces of the extracts' interpolation lines, borrowed as `withObjects`.
    @inline(__always)
    func withInterpolations<R>(_ body: (PlacesLookup.LineLevel) -> R) -> R? {
        if hot.isComplete { return hot.interpolations?._withUnsafeGuaranteedRef(body) }
        return lookup.interpolationLevel().map(body)
    }

    func withStreetPostcodes<R>(_ body: (PagedRecords) -> R) -> R? {
        if hot.isComplete { return hot.streetPostcodes?._withUnsafeGuaranteedRef(body) }
        return lookup.streetPostcodes().map(body)
    }

    /// The extract's suburb-level place nodes, not retained: the lookup keeps them for its life, and references
    /// taken on their arrays per point by every thread showed as 5 % of a Liechtenstein batch's CPU.
    var suburbNodes: Unmanaged<PlaceNodeSearch>? {
        hot.isComplete ? hot.suburbNodes : lookup.suburbNodeSearch().map(Unmanaged.passUnretained)
    }

    /// The extract's neighbourhood nodes, as `suburbNodes`.
    var neighbourhoods: Unmanaged<NeighbourhoodNodeTiles>? {
        hot.isComplete ? hot.neighbourhoods : lookup.neighbourhoodNodes().map(Unmanaged.passUnretained)
    }

    /// The settings of the rules `record` answers by.
    @inline(__always) func settings(for record: PlacemarkRecord) -> GeocoderSettings {
        record.followsNominatim ? nominatimSettings : settings
    }

    @inline(__always)
    func withStreetAddresses<R>(_ body: (PagedRecords) -> R) -> R? {
        if hot.isComplete { return hot.streetAddresses?._withUnsafeGuaranteedRef(body) }
        return lookup.streetAddresses().map(body)
    }
}

public enum PlacesLookupLoading: Sendable { case onDemand, everything }
