import Foundation
import Travel411Core
import Travel411Store

/// Area tiles built on one thread while another holds the database's connection (`SideBySide`), kept in a
/// temporary file and stored afterwards through the connection, in the order they were built: SQLite takes writes
/// from one thread at a time, and the builds are what takes the time.
///
/// As `OSMSpillFile`'s, the file is unlinked as soon as it is created.
final class DeferredAreaTiles {
    private let file: OSMSpillFile

    /// `path`: where the file is created (beside the database being built, so that it uses that disk).
    init(path: String) throws {
        file = try OSMSpillFile(path: path)
    }

    /// Keeps one tile of `level` as `AreaIndexBuilder.build` hands it over.
    func add(_ level: PlacesSchema.AreaLevel, tile: Int, reference: UInt32, blob: [UInt8]?) throws {
        guard let tileNumber = UInt32(exactly: tile) else { throw ImportError("area tile \(tile) outside the grid") }
        try file.append { record in
            record.write(level.rawValue)
            record.write(tileNumber)
            record.write(reference)
            record.write(blob: blob)
        }
    }

    /// Every tile kept, in the order added; then the file is removed.
    func drain(_ store: (_ level: PlacesSchema.AreaLevel, _ tile: Int, _ reference: UInt32, _ blob: [UInt8]?) throws -> Void) throws {
        try file.drain { record in
            let name = try record.presentText()
            guard let level = PlacesSchema.AreaLevel(rawValue: name) else { throw ImportError("area level \(name) unknown") }
            let tile = Int(try record.uint32())
            let reference = try record.uint32()
            try store(level, tile, reference, try record.blob())
        }
    }
}
