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

    /// Tile number → blob.
    package func build(_ places: [Place]) -> [(number: Int, blob: [UInt8])] {
        let cells = Self.cellMembers(places)
        let columnCount = Self.columnCount
        let neighbourhoods = NeighbourhoodRule.neighbourhoods(of: places) { i in
            let home = LocalityCells.cell(of: places[i].coordinate)
            return cells.candidates[home.row * columnCount + home.column] ?? []
        }
        let perTile = LocalityCells.subdivisions
        var tiles: Set<Int> = []
        for cell in Array(cells.candidates.keys) + Array(cells.residents.keys) {
            let row = cell / columnCount, column = cell % columnCount
            tiles.insert((row / perTile) * 360 + column / perTile)
        }
        return tiles.sorted().map { tile in
            (tile, Self.tileBlob(tile, places: places, cells: cells, neighbourhoods: neighbourhoods))
        }
    }

    private static let columnCount = 360 * LocalityCells.subdivisions

    /// Each cell's places by global cell number (row × 3600 + column), as indices into the places: the candidates
    /// (the places whose catchment's box reaches the cell) and the residents (the places lying in it).
    private static func cellMembers(_ places: [Place]) -> (candidates: [Int: [Int]], residents: [Int: [Int]]) {
        let perTile = LocalityCells.subdivisions
        var candidates: [Int: [Int]] = [:]
        var residents: [Int: [Int]] = [:]
        for (index, place) in places.enumerated() {
            let home = LocalityCells.cell(of: place.coordinate)
            residents[home.row * columnCount + home.column, default: []].append(index)
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
                    candidates[cellRow * columnCount + column, default: []].append(index)
                }
            }
        }
        return (candidates, residents)
    }

    /// One tile's blob: the candidates' and residents' counts and offsets per cell, then their entries.
    private static func tileBlob(
        _ tile: Int, places: [Place], cells: (candidates: [Int: [Int]], residents: [Int: [Int]]), neighbourhoods: [Bool]
    ) -> [UInt8] {
        let perTile = LocalityCells.subdivisions
        let tileRow = tile / 360, tileColumn = tile % 360
        let cellNumbers = (0..<(perTile * perTile)).map { sub in
            (tileRow * perTile + sub / perTile) * columnCount + tileColumn * perTile + sub % perTile
        }
        var candidateOffsets: [UInt32] = [0], residentOffsets: [UInt32] = [0]
        var candidateEntries = ByteWriter(), residentEntries = ByteWriter()
        for cell in cellNumbers {
            let members = (cells.candidates[cell] ?? []).sorted {
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
            let dwellers = cells.residents[cell] ?? []
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
