import Foundation
import Travel411Geocoder

/// Nominatim looks for an object's parent street among the streets of its own country only: `find_parent_for_poi`
/// (`lib-sql/functions/placex_triggers.sql`) is given the object's partition, and the searches it calls read that
/// partition's tables alone (`getNearestNamedRoadPlaceId` for the streets its `addr:street` names, through
/// `find_parent_for_address`, `lib-sql/functions/utils.sql`; `getNearestRoadPlaceId` for the nearest street;
/// `lib-sql/functions/partition-functions.sql`). A place's partition is its country's (`placex_update` sets it by
/// `get_partition` from the `country_code` of its centroid), as `settings/country_settings.yaml` gives it
/// (`partition`, read into `country_name` by `nominatim_db/data/country_info.py`); 0 for a place of no country or of
/// one the file does not list. Every country has a partition of its own but two, which share one. With no street of
/// its partition in reach an object has no parent street, and its address comes from the areas holding it.
///
/// A place the import gave no country (a shapefile's street, which Nominatim does not have; any place when the
/// extract lies in no country at all) is not compared: `unknown` may parent, and be parented by, any other.
struct NominatimPartitions: Sendable {
    /// The partition of a place whose country the import did not decide.
    static let unknown: Int32 = -1

    /// By country code, in upper and lower case.
    private let byCode: [String: Int32]

    /// Data/'s Nominatim settings' partitions; with no settings, every country is in partition 0, as Nominatim's
    /// `--no-partitions` import puts them.
    static let embedded = NominatimPartitions(settings: .embedded)

    init(settings: NominatimCountrySettings?) {
        var byCode: [String: Int32] = [:]
        for (code, country) in settings?.countries ?? [:] {
            guard let partition = country.partition.flatMap(Int32.init(exactly:)) else { continue }
            byCode[code.lowercased()] = partition
            byCode[code.uppercased()] = partition
        }
        self.byCode = byCode
    }

    /// The partition of a place of country `code` (an ISO 3166-1 code, either case); `unknown` for nil.
    func partition(of code: String?) -> Int32 {
        guard let code else { return Self.unknown }
        return byCode[code] ?? byCode[code.lowercased()] ?? 0
    }

    /// Whether a street of partition `street` may be the parent of an object of partition `object`.
    static func mayParent(street: Int32, object: Int32) -> Bool {
        street == object || street == unknown || object == unknown
    }
}
