import Travel411Core
import Travel411Store

extension ReverseGeocoder {
    /// An administrative boundary that answers by itself (a suburb boundary at zooms 14-15, or where no street or
    /// object is in reach) carries Nominatim 5.3's address of a boundary, which names no place node: Nominatim
    /// indexes the administrative boundaries before every other place of rank 5 and more (`index_full`:
    /// `index_boundaries`, then `index_by_rank`, src/nominatim_db/indexer/indexer.py), so when a boundary's address
    /// lines are computed (`insert_addresslines`, lib-sql/functions/placex_triggers.sql) only the countries and the
    /// boundaries indexed before it are there to be named. München's Bezirksteile answer "Bezirksteil Kreuzviertel,
    /// Deutschland", without the city node München that every street of theirs names; Monaco's quarters without
    /// the city node Monaco. A municipality drawn around a town node gives way to the boundary under it, if any
    /// (its `code`: `OSMSubpartNodes`), as at coarser zooms (`dropCityNodeAboveRank`).
    func dropPlaceNodesFromBoundaryAnswer(_ record: inout PlacemarkRecord, maximumRank: Int) {
        guard maximumRank >= Self.suburbAnswerRank, record.street < 0, record.object < 0, record.finePlace < 0,
            record.cityArea >= 0, record.suburbArea >= 0,
            let suburb = areaFeature(.suburb, record.suburbArea, rank: 20, location: record.location),
            Self.isAdministrativeBoundary(suburb),
            let city = areaFeature(.city, record.cityArea, rank: 16, location: record.location),
            !Self.isAdministrativeBoundary(city)
        else { return }
        let below = Self.number(withArea(.city) { $0.bytes(Int(record.cityArea), .code) })
        record.cityArea = below.map { Int32(truncatingIfNeeded: $0) } ?? -1
        record.locality = -1
    }

    /// The lowest maximum rank (zoom 14's, `NominatimDetail.maximumRank`) at which a suburb answers.
    static let suburbAnswerRank = 22

    private static func isAdministrativeBoundary(_ feature: AnsweringFeature) -> Bool {
        feature.elementType == .relation && feature.category == "boundary" && feature.type == "administrative"
    }
}
