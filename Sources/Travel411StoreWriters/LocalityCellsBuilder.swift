import Foundation
import Travel411Core
import Travel411Store

/// Builds the per-tile blobs of `LocalityCells`.
package struct LocalityCellsBuilder {
    package init() {}

    package struct Place {
        var coordinate: Coordinate
        var id: UInt32
        var catchmentMetres: Double
        var population: UInt32
        var country: UInt16
        /// What nearest searches may filter on besides the country (localities: admin polygon + 1).
        var group: UInt32 = 0
        /// The first-level area the place belongs to by its own data (`FirstLevelAreas`); 0 unknown.
        var firstLevel: UInt32 = 0

        package init(
            coordinate: Coordinate, id: UInt32, catchmentMetres: Double, population: UInt32, country: UInt16, group: UInt32 = 0,
            firstLevel: UInt32 = 0
        ) {
            self.coordinate = coordinate
            self.id = id
            self.catchmentMetres = catchmentMetres
            self.population = population
            self.country = country
            self.group = group
            self.firstLevel = firstLevel
        }
    }

    /// The blob of every place's group, by record id.
    package func groups(_ places: [Place]) -> [UInt8] {
        var groups = [UInt32](repeating: 0, count: (places.map(\.id).max().map { Int($0) + 1 }) ?? 0)
        for place in places { groups[Int(place.id)] = place.group }
        var writer = ByteWriter(capacity: groups.count * 4)
        writer.append(contentsOf: groups)
        return writer.bytes
    }

    /// Tile number → blob, each blob passed through `coding` as soon as it is built (a caller that stores the
    /// tiles deflated holds them deflated, not every tile's full blob at once).
    package func build(_ places: [Place], coding: ([UInt8]) -> [UInt8] = { $0 }) -> [(number: Int, blob: [UInt8])] {
        let cells = CellMembers(places)
        let neighbourhoods = NeighbourhoodRule.neighbourhoods(of: places) { i in
            let home = LocalityCells.cell(of: places[i].coordinate)
            return cells.candidates(of: home.row * Self.columnCount + home.column)
        }
        return cells.tiles().map { tile in
            (tile, coding(Self.tileBlob(tile, places: places, cells: cells, neighbourhoods: neighbourhoods)))
        }
    }

    private static let columnCount = 360 * LocalityCells.subdivisions

    /// Each cell's places by global cell number (row × 3600 + column), as indices into the places: the candidates
    /// (the places whose catchment's box reaches the cell) and the residents (the places lying in it). Each
    /// membership is one sorted key, cell number << 32 | place index, so that a cell's members are a run in index
    /// order: 8 bytes a membership where a dictionary of arrays took about 20.
    private struct CellMembers {
        private var candidateKeys: [UInt64] = []
        private var residentKeys: [UInt64] = []

        init(_ places: [Place]) {
            let perTile = LocalityCells.subdivisions
            residentKeys.reserveCapacity(places.count)
            for (index, place) in places.enumerated() {
                let home = LocalityCells.cell(of: place.coordinate)
                residentKeys.append(Self.key(home.row * columnCount + home.column, index))
                let box = BoundingBox(around: place.coordinate, metres: place.catchmentMetres)
                let south = max(0, Int(((box.minY + 90) * Double(perTile)).rounded(.down)))
                let north = min(180 * perTile - 1, Int(((box.maxY + 90) * Double(perTile)).rounded(.down)))
                // Near the poles, or for huge discs, every column.
                let allColumns = box.maxX - box.minX >= 360
                let west = Int(((box.minX + 180) * Double(perTile)).rounded(.down))
                let east = Int(((box.maxX + 180) * Double(perTile)).rounded(.down))
                let columns = allColumns ? 0...(columnCount - 1) : west...max(west, east)
                guard south <= north else { continue }
                for cellRow in south...north {
                    for rawColumn in columns {
                        let column = ((rawColumn % columnCount) + columnCount) % columnCount
                        candidateKeys.append(Self.key(cellRow * columnCount + column, index))
                    }
                }
            }
            candidateKeys.sort()
            residentKeys.sort()
        }

        private static func key(_ cell: Int, _ index: Int) -> UInt64 { UInt64(cell) << 32 | UInt64(index) }

        func candidates(of cell: Int) -> [Int] { Self.members(candidateKeys, cell) }
        func residents(of cell: Int) -> [Int] { Self.members(residentKeys, cell) }

        /// The tiles that have a candidate or a resident, in increasing order.
        func tiles() -> [Int] {
            let perTile = LocalityCells.subdivisions
            var tiles: Set<Int> = []
            for keys in [candidateKeys, residentKeys] {
                for key in keys {
                    let cell = Int(key >> 32), row = cell / columnCount, column = cell % columnCount
                    tiles.insert((row / perTile) * 360 + column / perTile)
                }
            }
            return tiles.sorted()
        }

        private static func members(_ keys: [UInt64], _ cell: Int) -> [Int] {
            let first = UInt64(cell) << 32
            var low = 0, high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] < first { low = middle + 1 } else { high = middle }
            }
            var members: [Int] = []
            while low < keys.count, keys[low] >> 32 == UInt64(cell) {
                members.append(Int(keys[low] & 0xFFFF_FFFF))
                low += 1
            }
            return members
        }
    }

    /// One tile's blob: the candidates' and residents' counts and offsets per cell, then their entries.
    private static func tileBlob(
        _ tile: Int, places: [Place], cells: CellMembers, neighbourhoods: [Bool]
    ) -> [UInt8] {
        let perTile = LocalityCells.subdivisions
        let tileRow = tile / 360, tileColumn = tile % 360
        let cellNumbers = (0..<(perTile * perTile)).map { sub in
            (tileRow * perTile + sub / perTile) * columnCount + tileColumn * perTile + sub % perTile
        }
        var candidateOffsets: [UInt32] = [0], residentOffsets: [UInt32] = [0]
        var candidateEntries = ByteWriter(), residentEntries = ByteWriter()
        for cell in cellNumbers {
            let members = cells.candidates(of: cell).sorted {
                places[$0].population != places[$1].population
                    ? places[$0].population > places[$1].population : places[$0].id < places[$1].id
            }
            for member in members {
                let place = places[member]
                let (x, y, z) = PointIndex.unitVector(latitude: place.coordinate.latitude, longitude: place.coordinate.longitude)
                candidateEntries.append(Float(x))
                candidateEntries.append(Float(y))
                candidateEntries.append(Float(z))
                // Rounded up, with the Float positions' own error of about 1e-7 allowed for.
                candidateEntries.append((Float(PointIndex.chord(metres: place.catchmentMetres)) + 2e-7).nextUp)
                candidateEntries.append(place.population)
                candidateEntries.append(place.id)
                candidateEntries.append(place.country)
                candidateEntries.append(neighbourhoods[member] ? LocalityCells.neighbourhoodFlag : UInt16(0))
                candidateEntries.append(place.firstLevel)
            }
            candidateOffsets.append(UInt32(candidateOffsets.last.map { Int($0) + members.count } ?? 0))
            let dwellers = cells.residents(of: cell)
            for member in dwellers {
                let place = places[member]
                let (x, y, z) = PointIndex.unitVector(latitude: place.coordinate.latitude, longitude: place.coordinate.longitude)
                residentEntries.append(x)
                residentEntries.append(y)
                residentEntries.append(z)
                residentEntries.append(place.id)
                residentEntries.append(place.country)
                residentEntries.append(UInt16(0))
            }
            residentOffsets.append(UInt32(residentOffsets.last.map { Int($0) + dwellers.count } ?? 0))
        }
        var writer = ByteWriter()
        writer.append(candidateOffsets.last ?? 0)
        writer.append(residentOffsets.last ?? 0)
        writer.append(contentsOf: candidateOffsets)
        writer.append(contentsOf: residentOffsets)
        var blob = writer.bytes
        blob.append(contentsOf: candidateEntries.bytes)
        while blob.count % 8 != 0 { blob.append(0) }
        blob.append(contentsOf: residentEntries.bytes)
        return blob
    }
}

extension NeighbourhoodRule {
    /// The neighbourhood flag of every place, by index: `reaching(i)` lists the indices of the places
    /// whose catchment may reach place i (the catchment candidates of its cell). Only a more
    /// populous place of the same country and first-level area can make it a neighbourhood.
    package static func neighbourhoods(of places: [LocalityCellsBuilder.Place], reaching: (Int) -> [Int]) -> [Bool] {
        places.indices.map { i in
            let place = places[i]
            let core = PlaceExtent.coreMetres(population: Double(place.population))
            return reaching(i).contains { j in
                let larger = places[j]
                guard larger.population > place.population, larger.country == place.country,
                    FirstLevelAreas.compatible(larger.firstLevel, place.firstLevel)
                else { return false }
                return isNeighbourhood(
                    catchment: place.catchmentMetres, core: core, largerCatchment: larger.catchmentMetres,
                    distance: GreatCircle.distance(from: place.coordinate, to: larger.coordinate))
            }
        }
    }
}
