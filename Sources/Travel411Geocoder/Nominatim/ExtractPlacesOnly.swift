import Foundation
import Travel411Core
import Travel411Store

/// Where an extract's rules answer (`OSMAnswerRules.covers`), the suburb is the extract's own place, never the
/// embedded data's from beyond it. Nominatim names only objects of the data it imported (its address parts are
/// `placex` rows, `nominatim_api/reverse.py`). The embedded data's places are imported with an extract for the points
/// outside it, described from the nearest real town (docs/osm.md); those inside the extract's data were left out of
/// the lookups at import, but one outside may still hold the point in its catchment (Lund's station extract, which
/// has no town node, named "Södra Sandby" 10 km away). The town itself is dropped unless an area holds the answer
/// (`dropLocalityOutsideMunicipalities`); its neighbourhood here. The nearest place still describes the point.
extension ReverseGeocoder {
    func dropSubLocalityFromBeyondTheExtract(_ record: inout PlacemarkRecord) {
        guard let rules = osmRules, record.subLocality >= 0 else { return }
        _ = withPoints(.locality) { level in
            if let place = level.records.coordinate(Int(record.subLocality)), !rules.covers(place) { record.subLocality = -1 }
        }
    }
}
