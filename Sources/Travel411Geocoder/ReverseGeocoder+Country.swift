import Foundation
import Synchronization
import Travel411Core
import Travel411Store

/// The country and first-level area of a point: near coasts, in territorial waters, across borders.
extension ReverseGeocoder {
    /// Outside every country polygon: look around on widening rings of eight points, and take the
    /// country most of the nearest ring's hits fall in (ties: the first found, going clockwise from
    /// north), with its admin area when the point has none. Open sea, whose tiles and neighbouring
    /// tiles hold no country at all, is skipped at once.
    func snapToNearbyCountry(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
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
    func takeCountryFromTerritorialWaters(_ record: inout PlacemarkRecord, needs: PlacemarkNeeds) {
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
    func dropAdminOfAnotherCountry(_ record: inout PlacemarkRecord) {
        let owner = withArea(.admin) { $0.countryFeature(of: record.admin) } ?? -1
        if owner >= 0, owner != record.country { record.admin = -1 }
    }

    /// The coastal snap's rings (1, 2.5, 5, 10 and 20 km) and eight bearings (clockwise from north),
    /// as sines and cosines computed once; plain vectors, so threads read them without reference counting.
    struct CoastalProbes {
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
}
