import Foundation
import Travel411Core
import Travel411OSM
import Travel411Store
import Travel411StoreWriters

/// The objects carrying each `addr:postcode` of an extract, for the postcode points: Nominatim's point of a
/// postcode is the mean of the distinct points of the objects carrying it, once `OSMPostcodes` has said which
/// values are postcodes, which needs every value's count first.
///
/// Only a count per value as written stays in memory. The carriers go to sort runs on disk and come back one
/// postcode at a time, so memory holds the points of the largest postcode, not of the extract.
struct OSMPostcodeCarriers {
    private struct Carrier: BitwiseCopyable {
        /// The value as written (its index in `written`), then, once sorted again, the postcode's rank.
        var value: UInt32
        var latitude: Double
        var longitude: Double
    }

    private var indexes: [String: UInt32] = [:]
    private var written: [String] = []
    private var carrierCounts: [Int] = []
    private let runPrefix: String
    private let bufferBytes: Int
    private let carriers: ExternalSorter<Carrier>

    /// Sort runs are created as `runPrefix` and a number, each of `bufferBytes` of carriers (24 bytes each).
    /// 4 MB: the buffer fills during the read, beside the other sorters' (16 MB was full at 2,400 copies of
    /// Liechtenstein and a third full at 600, issue 35); 20 million carriers make 120 runs, merged 64 at a time.
    init(runPrefix: String, bufferBytes: Int = 4 << 20) {
        self.runPrefix = runPrefix
        self.bufferBytes = bufferBytes
        carriers = ExternalSorter(runPrefix: runPrefix + "written-", bufferBytes: bufferBytes) { UInt64($0.value) }
    }

    /// An object carrying `postcode`, as written, at `coordinate`.
    mutating func add(_ postcode: String, at coordinate: Coordinate) throws {
        let index: UInt32
        if let known = indexes[postcode] {
            index = known
        } else {
            index = UInt32(written.count)
            indexes[postcode] = index
            written.append(postcode)
            carrierCounts.append(0)
        }
        carrierCounts[Int(index)] += 1
        try carriers.append(Carrier(value: index, latitude: coordinate.latitude, longitude: coordinate.longitude))
    }

    /// A named administrative boundary's own postcode (`postal_code`, else `addr:postcode`) carries a postcode
    /// point too, at the boundary's point on its surface, besides naming everything inside it (`OSMPostcodeAreas`):
    /// Nominatim 5.3 keeps the tag in the boundary's `address` column (`ADDRESS_TAGS.core.postcode`,
    /// `lib-lua/themes/nominatim/presets.lua`), and `_update_guessed_postcode` (`nominatim_db/tools/postcodes.py`)
    /// makes the postcode points from every `placex` row with `address ? 'postcode'` at its centroid
    /// (`get_center_point`, `lib-sql/functions/utils.sql`: `ST_PointOnSurface` of an area). So Karachi's Gulshan
    /// Town (way 521991332, admin_level 9, `postal_code=75300`) gives 75300 to the objects outside it
    /// (`get_nearest_postcode`). Only a closed outline: a boundary cut open is no `placex` area.
    mutating func add(boundaryPostcode postcode: String, of shape: Shape) throws {
        guard case .polygon = shape else { return }
        let point = shape.pointOnSurface
        try add(postcode, at: Coordinate(latitude: point.y, longitude: point.x))
    }

    /// How many objects carry each value, as written.
    var counts: [String: Int] {
        Dictionary(uniqueKeysWithValues: zip(written, carrierCounts))
    }

    /// These carriers for `centroids`, once the read is done; this value keeps none of its per-value tables, which
    /// grow with the extract's distinct values (a large country's or the planet's millions of postcodes, issue 35),
    /// so that they go when the centroids are made rather than with the whole import.
    mutating func taken() -> OSMPostcodeCarriers {
        var taken = self
        taken.indexes = [:]
        taken.carrierCounts = []
        (indexes, written, carrierCounts) = ([:], [], [])
        return taken
    }

    /// Each postcode's point, the mean of its carriers' distinct points, in the postcodes' order. The carriers
    /// are gone afterwards.
    func centroids(_ postcodes: OSMPostcodes) throws -> [(code: String, coordinate: Coordinate)] {
        try centroids(postcodes, countryOf: { _ in nil }).map { ($0.code, $0.coordinate) }
    }

    /// Each postcode's point per country, the mean of the distinct points of its carriers in that country, in
    /// the order of the postcodes and countries: Nominatim's `location_postcodes` holds a postcode once per
    /// country (`tools/postcodes.py` computes them country by country), and a carrier's postcode is read in
    /// its own country's form (`OSMPostcodes.normalised(_:countryCode:)`). The carriers are gone afterwards.
    /// `excluding`: the carriers left out (those inside a postal_code polygon: `OSMPostcodeAreas.excludes`).
    func centroids(
        _ postcodes: OSMPostcodes, countryOf: (Coordinate) -> String?, excluding: (Coordinate) -> Bool = { _ in false }
    ) throws -> [OSMPostcodeCentroid] {
        // A carrier's postcode and country, as `country \0 postcode`: one centroid per pair.
        var keys: [String: UInt32] = [:]
        var pairs: [(code: String, country: String?)] = []
        let byPostcode = ExternalSorter<Carrier>(runPrefix: runPrefix + "postcode-", bufferBytes: bufferBytes) { UInt64($0.value) }
        try carriers.drain { carrier in
            let coordinate = Coordinate(latitude: carrier.latitude, longitude: carrier.longitude)
            guard !excluding(coordinate) else { return }
            let country = countryOf(coordinate)
            guard let code = postcodes.normalised(written[Int(carrier.value)], countryCode: country) else { return }
            let key = (country ?? "") + "\u{0}" + code
            let pair: UInt32
            if let known = keys[key] {
                pair = known
            } else {
                pair = UInt32(pairs.count)
                keys[key] = pair
                pairs.append((code, country))
            }
            try byPostcode.append(Carrier(value: pair, latitude: carrier.latitude, longitude: carrier.longitude))
        }
        var sums: [(pair: UInt32, coordinate: Coordinate)] = []
        sums.reserveCapacity(pairs.count)
        var points: [Coordinate] = []
        var current: UInt32?
        func addCentroid() {
            guard let current else { return }
            sums.append((current, Self.meanOfDistinct(points)))
            points.removeAll(keepingCapacity: true)
        }
        // Values written differently (`00100`, `00100 `) are one postcode: sorted again by the postcode.
        try byPostcode.drain { carrier in
            if carrier.value != current {
                addCentroid()
                current = carrier.value
            }
            points.append(Coordinate(latitude: carrier.latitude, longitude: carrier.longitude))
        }
        addCentroid()
        return sums.map {
            OSMPostcodeCentroid(code: pairs[Int($0.pair)].code, countryCode: pairs[Int($0.pair)].country, coordinate: $0.coordinate)
        }
        .sorted { ($0.code, $0.countryCode ?? "") < ($1.code, $1.countryCode ?? "") }
    }

    /// The mean of the distinct points, summed in their sorted order so that the last digits do not depend on
    /// the order the carriers came in.
    static func meanOfDistinct(_ points: [Coordinate]) -> Coordinate {
        var distinct = points.sorted { ($0.latitude, $0.longitude) < ($1.latitude, $1.longitude) }
        distinct.removeDuplicates()
        let count = Double(distinct.count)
        return Coordinate(
            latitude: distinct.reduce(0) { $0 + $1.latitude } / count, longitude: distinct.reduce(0) { $0 + $1.longitude } / count)
    }
}

/// A postcode point: the mean of the objects carrying the postcode in one country.
struct OSMPostcodeCentroid: Equatable {
    var code: String
    var countryCode: String?
    var coordinate: Coordinate
}

extension Array where Element: Equatable {
    /// Removes each element equal to the one before it: on a sorted array, every repeat.
    fileprivate mutating func removeDuplicates() {
        var kept = 0
        for index in indices where kept == 0 || self[index] != self[kept - 1] {
            self[kept] = self[index]
            kept += 1
        }
        removeLast(count - kept)
    }
}
