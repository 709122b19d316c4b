import Travel411Core
import Travel411Store
import Travel411StoreWriters

/// The localities' cell tiles (`LocalityCells`) and their groups' blob, built beside the rest of the localities'
/// step: each tile is kept in the form the pages table stores it (deflated with an extract, `PageCompression`) as
/// soon as it is built, so that the tiles waiting for the connection hold their stored bytes, not their full ones.
struct LocalityCellPages {
    let tiles: [(number: Int, blob: [UInt8])]
    let groups: [UInt8]

    /// `firstLevels`: each place's first-level area (`FirstLevelAreas`), by its id.
    init(_ places: [PointIndexBuilder.Place], firstLevels: [UInt32], deflate: Bool) {
        let cellPlaces = places.map {
            LocalityCellsBuilder.Place(
                coordinate: $0.coordinate, id: $0.id, catchmentMetres: $0.catchmentMetres,
                population: $0.population, country: PointIndex.packCountry($0.country), group: $0.group,
                firstLevel: firstLevels[Int($0.id)])
        }
        tiles = LocalityCellsBuilder().build(cellPlaces) { PageCompression.compressed($0, deflate: deflate) }
        groups = LocalityCellsBuilder().groups(cellPlaces)
    }

    /// Inserts the tiles as they are; the caller stores the groups' blob through its own page store.
    func storeTiles(in database: SQLiteDatabase) throws {
        let insert = try database.prepare("INSERT INTO travel411_pages (key, blob) VALUES (?, ?)")
        for tile in tiles {
            try insert.run([.integer(PlacesSchema.PageKind.localityCells.key(level: 0, page: tile.number)), .blob(tile.blob)])
        }
    }
}
