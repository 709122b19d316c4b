import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// The locality, its neighbourhoods and the nearest place: the embedded data's rules (docs/fields.md).
extension ReverseGeocoder {
    /// Locality: of the places of the point's country whose catchment contains the point, neighbourhoods
    /// of more populous places left out, the one the point lies deepest in, preferring the places of the
    /// point's own first-level area; else the nearest place of that country within the fallback distance
    /// (10 km). subLocality: a less populous neighbourhood of the locality's first-level area nearby
    /// whose core disc holds the point, no farther from it than the locality's own point. At sea there is no
    /// locality, only the nearest one, unless the coast is close enough to snap to (see settings).
    func decideLocalities(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
        _ = withPoints(.locality) { level in
            var candidates = LocalityCandidates(location: record.location)
            if needs.contains(.nearestLocality) {
                candidates.findNearestPlace(in: level, withinChord: localityChords.nearestFromCells, recordingIn: &record)
            }
            // The nearest place's coordinate was sent for while the locality is decided; read now, on every way out.
            defer { candidates.recordDistanceAndBearing(in: &record) }
            guard var country = pointCountry(of: record) else {
                if record.country >= 0 { record.locality = localityInCodelessCountry(record, in: level, candidates: candidates) ?? -1 }
                return
            }
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
                    &record, locality: locality, population: catchment.population, firstLevel: catchment.firstLevel,
                    localityChordSquared: catchment.chordSquared, in: level, candidates: candidates, country: &country)
            }
        }
    }

    /// The nearby localities of one point: the nearest place overall, found when first needed (a batch
    /// that prints only the locality skips it whenever a catchment answers) and then remembered.
    /// It holds no reference to the level, which each call borrows: a stored one was retained and released
    /// per point by both of a batch's threads, whose contention on its reference count took 3 % of a central
    /// Helsinki batch's samples (perf, a busy machine).
    struct LocalityCandidates {
        let location: Coordinate
        let query: PointIndex.Query
        private var nearestFound: UInt32?? = nil
        /// The nearest place's packed country as its cell entry holds it; nil when the tree found it.
        private(set) var nearestCountry: UInt16? = nil
        /// The nearest place's latitude and longitude in its record, not read yet (a cache miss, hinted).
        private var pendingCoordinate: UnsafePointer<Double>? = nil
        /// Where the nearest place's latitude sine and cosine are kept, when they are (hinted as well). The level,
        /// which owns them, outlives the point's answer.
        private var pendingLatitudes: UnsafeMutablePointer<Atomic<UInt64>>? = nil

        init(location: Coordinate) {
            self.location = location
            query = PointIndex.Query(location)
        }

        /// The nearest place if it has been looked for already; nil if not, or if there is none.
        var knownNearest: UInt32? { nearestFound ?? nil }

        /// Finds the nearest place overall and writes it into the record, its distance and bearing once
        /// `recordDistanceAndBearing` is called (its coordinate, a cache miss, is hinted meanwhile); keeps its
        /// packed country when the cells found it. (Not its group: no rule asks for it, and reading it was a
        /// cache miss per point.) `chord`: `PointIndex.chord(metres: ReverseGeocoder.nearestFromCellsMetres)`.
        @inline(__always)
        mutating func findNearestPlace(
            in level: PlacesLookup.PointLevel, withinChord chord: Double, recordingIn record: inout PlacemarkRecord
        ) {
            if nearestFound != nil { return }
            var found: UInt32? = nil
            // The cells answer exactly when a place lies within their reach (or the point's 1° tile names its nearest
            // place, the open sea's mostly); the tree beyond it. Borrowed, as the level is: an optional copy of the
            // cells took a reference per point.
            let fromCells = level.cells.flatMap { cells in
                Unmanaged.passUnretained(cells)._withUnsafeGuaranteedRef { cells -> (id: UInt32, country: UInt16?)? in
                    guard cells.knowsGroups else { return nil }
                    return cells.nearestPlace(
                        to: location, query: query, withinMetres: ReverseGeocoder.nearestFromCellsMetres, chord: chord)
                }
            }
            let candidate = fromCells?.id ?? level.index.nearestAnywhere(to: query, at: location)?.id
            if let nearest = candidate, let place = level.records.prefetchCoordinate(Int(nearest)) {
                record.nearest = Int32(nearest)
                pendingCoordinate = place
                pendingLatitudes = level.latitudes?.prefetchSlot(Int(nearest))
                found = nearest
                nearestCountry = fromCells?.country ?? nil
            }
            nearestFound = .some(found)
        }

        /// Writes the nearest place's distance and bearing into the record, if it was found and they are not
        /// written yet: the numbers `GreatCircle.distance` and `initialBearing` give, the bearing as the two numbers
        /// its arctangent takes (`PlacemarkRecord.nearestBearing` gives its degrees).
        @inline(__always)
        mutating func recordDistanceAndBearing(in record: inout PlacemarkRecord) {
            guard let pending = pendingCoordinate else { return }
            pendingCoordinate = nil
            let place = Coordinate(latitude: pending[0], longitude: pending[1])
            // The point's own latitude sine and cosine from the query, the place's kept per place when they can be:
            // the same numbers, two or four calls of trigonometry fewer.
            let (sinφ1, cosφ1) =
                if let slot = pendingLatitudes {
                    PlaceLatitudeTrigonometry.sineAndCosine(at: slot, latitude: place.latitude)
                } else {
                    GreatCircle.latitudeSineAndCosine(place.latitude)
                }
            (record.nearestDistance, record.nearestEast, record.nearestNorth) = GreatCircle.distanceAndBearingComponents(
                from: place, to: location, sinφ1: sinφ1, cosφ1: cosφ1, sinφ2: query.sinLatitude, cosφ2: query.cosLatitude)
        }
    }

    /// The country of the point, as the localities are filtered by it.
    struct PointCountry {
        /// The ISO code's bytes, as the locality records store it.
        let code: UnsafeBufferPointer<UInt8>
        /// A two-letter code packed for the cells' and the tree's filters; 0 for anything else (rare),
        /// which is then checked against the records.
        let packed: UInt16
        /// Whether the nearest place overall is of this country: asked by both the locality fallback and
        /// the subLocality rule, read from the records once.
        private var nearestIsInCountry: Bool?

        init(code: UnsafeBufferPointer<UInt8>) {
            self.code = code
            packed = code.count == 2 ? UInt16(code[0]) << 8 | UInt16(code[1]) : 0
        }

        private static let countryField = PlacesSchema.LocalityField.countryCode.rawValue

        func contains(_ place: UInt32, records: PagedRecords) -> Bool {
            packed != 0 || records.field(Int(place), Self.countryField, equals: code)
        }

        /// `packedCountry`: the place's packed code from its cell entry, nil when unknown. The cells pack
        /// the code the records hold (`PointIndex.packCountry`), so for a two-letter point country the
        /// packed codes decide without reading the record: equal exactly when the codes are, and a place
        /// packed 0 has no code or one of another length.
        mutating func containsNearest(_ nearest: UInt32, packedCountry: UInt16?, records: PagedRecords) -> Bool {
            if let known = nearestIsInCountry { return known }
            let answer =
                if packed != 0, let packedCountry { packedCountry == packed } else {
                    records.field(Int(nearest), Self.countryField, equals: code)
                }
            nearestIsInCountry = answer
            return answer
        }
    }

    @inline(__always)
    func pointCountry(of record: PlacemarkRecord) -> PointCountry? {
        guard record.country >= 0, let code = withArea(.country, { $0.bytes(Int(record.country), .code) }), !code.isEmpty else {
            return nil
        }
        return PointCountry(code: code)
    }

    /// The place of the point's country whose catchment holds the point deepest, neighbourhoods left out,
    /// those of the point's first-level area first (`LocalityCells.locality(containing:)`); else the
    /// nearest place of that country within the fallback distance (the nearest overall when it qualifies
    /// and is already known, else the nearest from the cells around the point). With a catchment, also
    /// the locality's population, first-level area and squared chord distance from the point.
    @inline(__always)
    func locality(
        of record: inout PlacemarkRecord, in level: PlacesLookup.PointLevel, candidates: inout LocalityCandidates,
        country: inout PointCountry, needs: PlacemarkNeeds
    ) -> (Int32, (population: UInt32, firstLevel: UInt32, chordSquared: Double)?)? {
        // Without the admin polygon (a batch not printing it), it is looked up only where the catchments
        // holding the point are of several first-level areas: the same answer, one lookup saved mostly.
        let knowsAdmin = needs.contains(.admin)
        let pointArea = knowsAdmin ? firstLevel(ofAdmin: record.admin) : 0
        // Borrowed: `level.cells?.` took and dropped a reference per point, on a count both of a batch's threads share.
        if var found = level.cells.map(Unmanaged.passUnretained)?._withUnsafeGuaranteedRef({
            $0.localityWithPopulation(containing: record.location, query: candidates.query, country: country.packed, firstLevel: pointArea)
        }) {
            if !knowsAdmin, found.areasDiffer, case let area = firstLevel(ofAdminAt: record), area != 0,
                let preferred = level.cells?.localityWithPopulation(
                    containing: record.location, query: candidates.query, country: country.packed, firstLevel: area)
            {
                found = preferred
            }
            return (Int32(found.id), (found.population, found.firstLevel, found.chordSquared))
        }
        let reach = settings.nearestLocalityFallbackMetres
        candidates.recordDistanceAndBearing(in: &record)
        if let known = candidates.knownNearest,
            country.containsNearest(known, packedCountry: candidates.nearestCountry, records: level.records),
            record.nearestDistance <= reach
        {
            return (Int32(known), nil)
        }
        if let found = nearest(
            in: level, to: record.location, query: candidates.query, filter: PointIndex.NearestFilter(country: country.packed),
            withinMetres: reach, chord: localityChords.fallback),
            country.contains(found, records: level.records)
        {
            return (Int32(found), nil)
        }
        return nil
    }

    /// A country polygon without an ISO 3166-1 code (Somaliland, Northern Cyprus, the Cyprus buffer zone) has
    /// no places of its own: GeoNames files every place under a code, Hargeisa under Somalia's. Its locality is
    /// the place of any country whose catchment holds the point deepest (neighbourhoods left out), else the
    /// nearest place within the fallback distance, when that place lies in the same polygon: a neighbour's
    /// town never answers. Without a catchment's population and area, it has no subLocality.
    func localityInCodelessCountry(
        _ record: PlacemarkRecord, in level: PlacesLookup.PointLevel, candidates: LocalityCandidates
    ) -> Int32? {
        let found =
            level.cells?.localityWithPopulation(containing: record.location, query: candidates.query, country: 0, firstLevel: 0)?.id
            ?? nearest(
                in: level, to: record.location, query: candidates.query, filter: PointIndex.NearestFilter(),
                withinMetres: settings.nearestLocalityFallbackMetres, chord: localityChords.fallback)
        guard let id = found, let place = level.records.coordinate(Int(id)),
            feature(.country, place.longitude, place.latitude) == record.country
        else { return nil }
        return Int32(id)
    }

    @inline(__always)
    func firstLevel(ofAdmin admin: Int32) -> UInt32 {
        admin >= 0 ? withArea(.admin) { $0.firstLevel(of: admin) } ?? 0 : 0
    }

    /// The first-level area of the admin polygon `record(for:)` would answer when asked for it: the one
    /// the coastal snap found, else the one at the point, dropped when of another country.
    func firstLevel(ofAdminAt record: PlacemarkRecord) -> UInt32 {
        var admin = record.admin
        if admin < 0 { admin = feature(.admin, record.location.longitude, record.location.latitude) }
        guard admin >= 0 else { return 0 }
        let owner = withArea(.admin) { $0.countryFeature(of: admin) } ?? -1
        return owner >= 0 && owner != record.country ? 0 : firstLevel(ofAdmin: admin)
    }

    /// A first-level area without second-level names (a borough-less county) takes its district from the
    /// locality when the locality lies in the same first-level area.
    @inline(__always)
    func noteDistrictFromLocality(_ record: inout PlacemarkRecord, locality: Int32, records: PagedRecords) {
        guard record.district < 0 else { return }
        if let known = localityAdminMatch?.districtFromLocality(locality, admin: record.admin) {
            if known { record.subAdministrativeFromLocality = true }
            return
        }
        if record.admin >= 0,
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
    /// least 1 km) holds the point, and which lies no farther from the point than the locality's own point
    /// (`localityChordSquared`). A separate town next door (Neuilly-sur-Seine beside the Eiffel Tower) is too far
    /// from the point for its core to hold it, and a town of its own is never one: then there is no
    /// subLocality at all. The locality's point stands for its centre, whose district GeoNames often lacks
    /// (Paris's 1st to 9th arrondissements): at Notre-Dame, 92 m from Paris's point, the 11th's, 2.3 km
    /// away, is not where the point is.
    @inline(__always)
    func decideSubLocality(
        _ record: inout PlacemarkRecord, locality: Int32, population: UInt32, firstLevel: UInt32, localityChordSquared: Double,
        in level: PlacesLookup.PointLevel, candidates: LocalityCandidates, country: inout PointCountry
    ) {
        // Borrowed, both: a local reference was taken and dropped per point by each thread.
        guard let cells = level.cells.map(Unmanaged.passUnretained) else { return }
        Unmanaged.passUnretained(level.records)._withUnsafeGuaranteedRef { records in
            cells._withUnsafeGuaranteedRef { cells in
                decideSubLocality(
                    &record, locality: locality, population: population, firstLevel: firstLevel,
                    localityChordSquared: localityChordSquared, records: records, cells: cells, candidates: candidates, country: &country)
            }
        }
    }

    @inline(__always)
    func decideSubLocality(
        _ record: inout PlacemarkRecord, locality: Int32, population: UInt32, firstLevel: UInt32, localityChordSquared: Double,
        records: PagedRecords, cells: LocalityCells, candidates: LocalityCandidates, country: inout PointCountry
    ) {
        let nameField = PlacesSchema.LocalityField.name.rawValue
        // Read only once a candidate is found: for most points none is, and the name's offsets are a miss.
        var localityName: UnsafeBufferPointer<UInt8>?
        // Only a point that asks for its subLocality pays the square root.
        let reach = min(localityChords.subLocality, localityChordSquared.squareRoot())
        var excluded: UInt32 = .max
        for _ in 0..<2 {
            guard
                let found = cells.nearestHolding(
                    candidates.location, query: candidates.query, country: country.packed, firstLevel: firstLevel,
                    below: population, excluding: excluded, maxChord: reach),
                country.contains(found, records: records)
            else { return }
            let name = localityName ?? records.bytes(Int(locality), nameField) ?? UnsafeBufferPointer(start: nil, count: 0)
            localityName = name
            if !records.field(Int(found), nameField, equals: name) {
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
    /// `chord`: `PointIndex.chord(metres: metres)`, when the caller knows it.
    @inline(__always)
    func nearest(
        in level: PlacesLookup.PointLevel, to coordinate: Coordinate, query: PointIndex.Query,
        filter: PointIndex.NearestFilter, withinMetres metres: Double, chord: Double? = nil
    ) -> UInt32? {
        let chord = chord ?? PointIndex.chord(metres: metres)
        if let cells = level.cells, filter.group == 0 || cells.knowsGroups {
            return cells.nearest(to: coordinate, query: query, filter: filter, withinMetres: metres, chord: chord)
        }
        return level.index.nearest(to: query, maxChord: chord, filter: filter)?.id
    }

    /// The chords of the locality rules' distances, which are the same for every point: computed once, not a sine
    /// per point and rule. The same function of the same numbers, so the same bits.
    struct LocalityChords: Sendable {
        /// `nearestFromCellsMetres`'.
        let nearestFromCells: Double
        /// `settings.nearestLocalityFallbackMetres`'.
        let fallback: Double
        /// `settings.subLocalityRadiusMetres`'.
        let subLocality: Double

        init(settings: GeocoderSettings) {
            nearestFromCells = PointIndex.chord(metres: ReverseGeocoder.nearestFromCellsMetres)
            fallback = PointIndex.chord(metres: settings.nearestLocalityFallbackMetres)
            subLocality = PointIndex.chord(metres: settings.subLocalityRadiusMetres)
        }
    }
}
