import Travel411Core
import Travel411Store

/// Cache hints for the texts a batch row prints, issued once its record is decided and before its first
/// field is printed: every name's offset first, then (the offsets having arrived together) every name's
/// first bytes, so that printing's misses overlap one another instead of coming one field at a time.
/// Not for the countries', time zones' and oceans' names: a few hundred short names, printed for nearly every row,
/// whose lines a batch keeps cached anyway: a hint for them costs instructions and can save no miss.
extension ReverseGeocoder {
    @inline(__always)
    package func prefetchTexts(of record: PlacemarkRecord, needs: PlacemarkNeeds) {
        guard hot.isComplete else { return }
        for stage in 0..<2 {
            if needs.contains(.localities) || needs.contains(.nearestLocality) {
                hot.localities?._withUnsafeGuaranteedRef { level in
                    guard let names = level.names.map(Unmanaged.passUnretained) else { return }
                    names._withUnsafeGuaranteedRef { names in
                        names.prefetch(Int(record.nearest), stage: stage)
                        // Most often the nearest place itself: one hint is enough.
                        if record.locality != record.nearest { names.prefetch(Int(record.locality), stage: stage) }
                        names.prefetch(Int(record.subLocality), stage: stage)
                    }
                    // A first-level area without second-level names prints the locality's own (`noteDistrictFromLocality`).
                    if record.subAdministrativeFromLocality, needs.contains(.district) {
                        Unmanaged.passUnretained(level.records)._withUnsafeGuaranteedRef {
                            $0.prefetch(Int(record.locality), PlacesSchema.LocalityField.admin2.rawValue, stage: stage)
                        }
                    }
                }
            }
            prefetchAreaText(.admin, record.admin, .administrativeArea, stage: stage)
            prefetchAreaText(.district, record.district, .name, stage: stage)
            prefetchAreaText(.inlandWater, record.inlandWater, .name, stage: stage)
        }
    }

    @inline(__always)
    private func prefetchAreaText(_ level: PlacesSchema.AreaLevel, _ feature: Int32, _ text: AreaText, stage: Int) {
        guard feature >= 0 else { return }
        hot.areas[Int(level.ordinal)]?._withUnsafeGuaranteedRef { $0.prefetchText(Int(feature), text, stage: stage) }
    }
}
