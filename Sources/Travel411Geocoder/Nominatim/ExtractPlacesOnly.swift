import Foundation
import Travel411Core
import Travel411Store

/// Where an extract's rules answer (`OSMAnswerRules.covers`), the city and the suburb are the extract's own places,
/// never the embedded data's from beyond it. Nominatim names only objects of the data it imported (its address
/// parts are `placex` rows, `nominatim_api/reverse.py`), so on an extract without a town node it names no town. The
/// embedded data's places are imported with an extract for the points outside it, described from the nearest real
/// town (docs/osm.md); those inside the extract's data were left out of the lookups at import, but one outside may
/// still be the nearest, or hold the point in its catchment: Lund's station extract, which has no town node, named
/// "Södra Sandby" 10 km away as its city. The nearest place, its distance and bearing still describe the point.
extension ReverseGeocoder {
    func dropPlacesFromBeyondTheExtract(_ record: inout PlacemarkRecord) {
        guard let rules = osmRules else { return }
        _ = withPoints(.locality) { level in
            if record.locality >= 0, let place = level.records.coordinate(Int(record.locality)), !rules.covers(place) {
                record.locality = -1
            }
            if record.subLocality >= 0, let place = level.records.coordinate(Int(record.subLocality)), !rules.covers(place) {
                record.subLocality = -1
            }
        }
    }
}
