import Foundation

/// The localities whose catchment disc may contain a point, listed per 0.1° cell and ordered most
/// populous first, so that the catchment rule is a short scan that stops at the first match rather
/// than a walk through the k-d tree (a batch's costliest step).
///
/// Stored as one blob per 1° tile: u32 entryCount, then 101 u32 offsets (the entries of sub-cell k,
/// row-major from the south-west, are offsets[k]..<offsets[k+1]), then entries of 28 bytes: unit
/// vector x, y, z and catchment radius as f32 (a chord), population u32, record id u32, packed
/// country u16, padding.
final class CatchmentCells: @unchecked Sendable {
    static let subdivisions = 10
    static let entryStride = 28
    static let tileCount = 360 * 180

    private let pages: PagedBlobs
    /// Every tile's blob as a bare pointer when all were read up front, so that threads sharing
    /// the cells never touch reference counts (`pages` keeps the memory alive).
    private let preloaded: UnsafeMutablePointer<UnsafeRawPointer?>?

    init(pages: PagedBlobs) {
        self.pages = pages
        if pages.isPreloaded {
            let table = UnsafeMutablePointer<UnsafeRawPointer?>.allocate(capacity: Self.tileCount)
            for tile in 0..<Self.tileCount { (table + tile).initialize(to: pages[tile].map(\.base)) }
            preloaded = table
        } else {
            preloaded = nil
        }
    }

    deinit { preloaded?.deallocate() }

    @inline(__always) private func tile(_ number: Int) -> UnsafeRawPointer? {
        if let preloaded { return preloaded[number] }
        return pages[number]?.base
    }

    /// The record id of the most populous place of `country` (packed, 0 for any) whose catchment
    /// contains the point; ties go to the nearer place, then the lower id.
    func largest(containing coordinate: Coordinate, query: PointIndex.Query, country: UInt16) -> UInt32? {
        let column = min(359, max(0, Int((coordinate.longitude + 180).rounded(.down))))
        let row = min(179, max(0, Int((coordinate.latitude + 90).rounded(.down))))
        guard let page = tile(row * 360 + column) else { return nil }
        let subColumn = min(9, max(0, Int(((coordinate.longitude + 180) - Double(column)) * Double(Self.subdivisions))))
        let subRow = min(9, max(0, Int(((coordinate.latitude + 90) - Double(row)) * Double(Self.subdivisions))))
        let cell = subRow * Self.subdivisions + subColumn
        let start = Int(page.load(fromByteOffset: 4 + cell * 4, as: UInt32.self))
        let end = Int(page.load(fromByteOffset: 4 + (cell + 1) * 4, as: UInt32.self))
        let entries = page + 4 + 101 * 4
        var best: (id: UInt32, population: UInt32, distance: Double)? = nil
        for e in start..<end {
            let entry = entries + e * Self.entryStride
            let population = entry.load(fromByteOffset: 16, as: UInt32.self)
            // Sorted most populous first: once past the winner's population, nothing can beat it.
            if let best, population < best.population { break }
            if country != 0, entry.load(fromByteOffset: 24, as: UInt16.self) != country { continue }
            let dx = query.x - Double(entry.load(fromByteOffset: 0, as: Float.self))
            let dy = query.y - Double(entry.load(fromByteOffset: 4, as: Float.self))
            let dz = query.z - Double(entry.load(fromByteOffset: 8, as: Float.self))
            let d = dx * dx + dy * dy + dz * dz
            let radius = Double(entry.load(fromByteOffset: 12, as: Float.self))
            guard d <= radius * radius else { continue }
            let id = entry.load(fromByteOffset: 20, as: UInt32.self)
            if let current = best, d > current.distance || (d == current.distance && id > current.id) { continue }
            best = (id, population, d)
        }
        return best?.id
    }
}

/// Builds the per-tile blobs of `CatchmentCells`.
struct CatchmentCellsBuilder {
    struct Place {
        var coordinate: Coordinate
        var id: UInt32
        var catchmentMetres: Double
        var population: UInt32
        var country: UInt16
    }

    /// Tile number → blob.
    func build(_ places: [Place]) -> [(number: Int, blob: [UInt8])] {
        let perTile = CatchmentCells.subdivisions
        var cells: [Int: [Int]] = [:]   // global cell number (row × 3600 + column) → places
        for (index, place) in places.enumerated() {
            let box = BoundingBox(around: place.coordinate, metres: place.catchmentMetres)
            let south = max(0, Int(((box.minY + 90) * Double(perTile)).rounded(.down)))
            let north = min(180 * perTile - 1, Int(((box.maxY + 90) * Double(perTile)).rounded(.down)))
            // Near the poles, or for huge discs, every column.
            let allColumns = box.maxX - box.minX >= 360
            let west = Int(((box.minX + 180) * Double(perTile)).rounded(.down))
            let east = Int(((box.maxX + 180) * Double(perTile)).rounded(.down))
            let columns = allColumns ? 0...(360 * perTile - 1) : west...max(west, east)
            guard south <= north else { continue }
            for cellRow in south...north {
                for rawColumn in columns {
                    let column = ((rawColumn % (360 * perTile)) + 360 * perTile) % (360 * perTile)
                    cells[cellRow * 360 * perTile + column, default: []].append(index)
                }
            }
        }
        var tiles: [Int: [Int]] = [:]   // tile → its cells
        for cell in cells.keys {
            let row = cell / (360 * perTile), column = cell % (360 * perTile)
            tiles[(row / perTile) * 360 + column / perTile, default: []].append(cell)
        }
        return tiles.keys.sorted().map { tile in
            var writer = ByteWriter()
            var offsets: [UInt32] = [0]
            var entries = ByteWriter()
            var count: UInt32 = 0
            let tileRow = tile / 360, tileColumn = tile % 360
            for sub in 0..<(perTile * perTile) {
                let cell = (tileRow * perTile + sub / perTile) * 360 * perTile + tileColumn * perTile + sub % perTile
                let members = (cells[cell] ?? []).sorted {
                    places[$0].population != places[$1].population ? places[$0].population > places[$1].population : places[$0].id < places[$1].id
                }
                for member in members {
                    let place = places[member]
                    let (x, y, z) = PointIndex.unitVector(latitude: place.coordinate.latitude, longitude: place.coordinate.longitude)
                    entries.append(Float(x)); entries.append(Float(y)); entries.append(Float(z))
                    // Rounded up, with the Float positions' own error of about 1e-7 allowed for.
                    entries.append((Float(PointIndex.chord(metres: place.catchmentMetres)) + 2e-7).nextUp)
                    entries.append(place.population)
                    entries.append(place.id)
                    entries.append(UInt8(place.country & 0xff)); entries.append(UInt8(place.country >> 8))
                    entries.append(UInt8(0)); entries.append(UInt8(0))
                    count += 1
                }
                offsets.append(count)
            }
            writer.append(count)
            writer.append(contentsOf: offsets)
            var blob = writer.bytes
            blob.append(contentsOf: entries.bytes)
            return (tile, blob)
        }
    }
}
