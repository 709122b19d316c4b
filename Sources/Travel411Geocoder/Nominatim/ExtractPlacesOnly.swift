import Foundation
import Travel411Core
import Travel411Store

/// Where an extract's rules answer (`OSMAnswerRules.covers`), the suburb is the extract's own place, never the
/// embedded data's from beyond it. Nominatim names only objects of the data it imported (its address parts are
/// `placex` rows, `nominatim_api/reverse.py`). The embedded data's places are imported with an extract for the points
/// outside it, described from the nearest real town (docs/osm.md), and inside its data where no town of the extract
/// reaches (`ExtractPlaces`, at import); one outside may hold the point in its catchment (Lund's station extract,
/// which has no town node, named "Södra Sandby" 10 km away), one inside may be the nearest (central Zagreb's
/// extract, without Zagreb's node, and GeoNames' Trešnjevka). The town itself is dropped unless an area holds the
/// answer (`dropLocalityOutsideMunicipalities`); its neighbourhood here, unless it is the extract's own place. The
/// nearest place still describes the point.
extension ReverseGeocoder {
    func dropSubLocalityFromBeyondTheExtract(_ record: inout PlacemarkRecord) {
        // A database recording its extracts' own places has dropped the others' (`dropTownsDescribingOnly`).
        guard let rules = osmRules, rules.extractLocalityCount == nil, record.subLocality >= 0 else { return }
        _ = withPoints(.locality) { level in
            if let place = level.records.coordinate(Int(record.subLocality)), !rules.covers(place) { record.subLocality = -1 }
        }
    }

    /// An embedded place kept where no town of the extract reaches (`ExtractPlaces`) only describes the point: where
    /// the extract's rules answer it names no town or suburb (Nominatim names only what it imported), and beside
    /// them neither does one inside the extract's tiles, nor one farther out whose catchment the kept one would have
    /// held: Nominatim on the extract names none there (Lund's station extract: "Sverige" where the kept Lund
    /// answered "Lund, Sverige"; its compared city 96.3 % before, when "Södra Sandby" reached in, 100 % now).
    func dropTownsDescribingOnly(_ record: inout PlacemarkRecord) {
        guard let rules = osmRules, let extractCount = rules.extractLocalityCount, let tiles = rules.coverageTiles else { return }
        let count = Int32(clamping: extractCount)
        guard record.locality >= count || record.subLocality >= count else { return }
        let everywhere = record.followsNominatim
        _ = withPoints(.locality) { level in
            for keyPath in [\PlacemarkRecord.locality, \PlacemarkRecord.subLocality] where record[keyPath: keyPath] >= count {
                if everywhere || level.records.coordinate(Int(record[keyPath: keyPath])).map(tiles.contains) == true {
                    record[keyPath: keyPath] = -1
                }
            }
        }
    }
}
