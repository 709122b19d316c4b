import Foundation
import Travel411Core
import Travel411Geocoder

/// Where the extracts' own places replace the embedded data's (GeoNames'): inside the extracts' data (`DataTiles`)
/// and within reach of one of the extracts' towns, each city, town or village of an extract (its node, or an area's
/// representative point) with the reach of Nominatim 5.3's search for a place node of its search rank
/// (`reverse_place_diameter`, lib-sql/functions/ranking.sql: a city 0.16°, a town 0.08°, a village 0.04°), in
/// degrees of longitude and latitude as Nominatim measures it. There the embedded place is the extract's town or a
/// part of it, and the extract's place describes the point.
/// Where the extract names no town (a city's streets cut out of it: central Zagreb's, central Ankara's) the
/// embedded place stays, to describe the point ("in Trešnjevka", not "12.5 km E of Strmec"); it never names the
/// point's town or suburb there, which come from the extract alone (`OSMAnswerRules.extractLocalityCount`).
struct ExtractPlaces {
    /// Cells of 0.2°, more than the widest reach, so that a place is reached only from its own cell or a neighbour.
    private static let cellDegrees = 0.2
    let tiles: DataTiles
    private let keys: [Int64]
    private let places: [(latitude: Double, longitude: Double, reach: Double)]

    /// `localities`' first `reaches.count` are the extracts' (`LookupCollector.extractLocalityReaches`).
    init(tiles: DataTiles, localities: [LookupCollector.Locality], reaches: [Double]) {
        self.tiles = tiles
        let sorted = zip(localities, reaches).map { locality, reach in
            (
                key: Self.key(Self.cell(locality.coordinate.latitude), Self.cell(locality.coordinate.longitude)),
                place: (locality.coordinate.latitude, locality.coordinate.longitude, reach)
            )
        }
        .sorted { $0.key < $1.key }
        keys = sorted.map(\.key)
        places = sorted.map(\.place)
    }

    /// Whether an embedded place at `point` gives way to the extracts'.
    func replace(_ point: Coordinate) -> Bool { tiles.contains(point) && reaches(point) }

    private func reaches(_ point: Coordinate) -> Bool {
        let row = Self.cell(point.latitude), column = Self.cell(point.longitude)
        for r in row - 1...row + 1 {
            for c in column - 1...column + 1 {
                let key = Self.key(r, c)
                var i = firstIndex(atLeast: key)
                while i < keys.count, keys[i] == key {
                    let place = places[i]
                    let dy = place.latitude - point.latitude, dx = place.longitude - point.longitude
                    if dx * dx + dy * dy < place.reach * place.reach { return true }
                    i += 1
                }
            }
        }
        return false
    }

    private func firstIndex(atLeast key: Int64) -> Int {
        var low = 0, high = keys.count
        while low < high {
            let middle = (low + high) / 2
            if keys[middle] < key { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func cell(_ degrees: Double) -> Int { Int((degrees / cellDegrees).rounded(.down)) }
    private static func key(_ row: Int, _ column: Int) -> Int64 { Int64(row) << 32 | Int64(UInt32(truncatingIfNeeded: column)) }
}
