import Foundation
import Travel411Core

/// Outlines kept on disk while an extract is read, each read back whenever it is needed: the boundaries and
/// place areas that wait for the whole extract (`OSMLevelMapping`'s municipalities and suburbs, whose level is
/// decided at the end) would otherwise hold every point until then, 16 bytes each (53 MB at 600 copies of
/// Liechtenstein, growing with the extract). Memory is a write buffer of about a megabyte.
///
/// As `OSMSpillFile`, the file is unlinked as soon as it is created: however the import ends (an error,
/// Ctrl-C, kill -9), the kernel frees its space and no file is left behind.
final class OSMShapeFile {
    private let file: UnlinkedAppendFile
    /// Shapes not yet written, after the bytes already in the file.
    private var pending = OSMSpillWriter()
    private let blockBytes: Int
    /// The first failure to read a shape back (a getter cannot throw); `checkReads` throws it.
    private var failure: (any Error)?

    /// `path`: where the file is created (beside the database being built, so that it uses that disk).
    init(path: String, blockBytes: Int = 1 << 20) throws {
        file = try UnlinkedAppendFile(path: path)
        self.blockBytes = blockBytes
    }

    /// Writes the shape (through the buffer); the outline it returns reads it back.
    func store(_ shape: Shape) throws -> OSMStoredShape {
        let start = file.size + Int64(pending.bytes.count)
        pending.write(shape)
        let length = Int(file.size + Int64(pending.bytes.count) - start)
        if pending.bytes.count >= blockBytes { try flush() }
        return OSMStoredShape(file: self, offset: start, length: length)
    }

    private func flush() throws {
        guard !pending.bytes.isEmpty else { return }
        try pending.bytes.withUnsafeBytes { try file.append($0) }
        pending = OSMSpillWriter()
    }

    /// The shape stored at `offset`; an empty one, with the failure kept for `checkReads`, when it cannot be read.
    fileprivate func shape(offset: Int64, length: Int) -> Shape {
        do {
            if offset + Int64(length) > file.size { try flush() }
            var bytes = [UInt8](repeating: 0, count: length)
            try bytes.withUnsafeMutableBytes { try file.read(into: $0.baseAddress, count: length, at: offset) }
            return try bytes.withUnsafeBytes { raw in
                var reader = OSMSpillReader(bytes: raw, path: file.path)
                return try reader.shape()
            }
        } catch {
            if failure == nil { failure = error }
            return .multiPolygon([])
        }
    }

    /// Throws the first failure to read a shape back.
    func checkReads() throws {
        if let failure { throw failure }
    }
}

/// A shape in an `OSMShapeFile`, read back each time `shape` is asked for.
struct OSMStoredShape {
    fileprivate let file: OSMShapeFile
    fileprivate let offset: Int64
    fileprivate let length: Int

    var shape: Shape { file.shape(offset: offset, length: length) }
}

extension OSMSpillWriter {
    /// Where a stored outline is in its file (`OSMSpillReader.storedShape(in:)` reads it back).
    mutating func write(_ stored: OSMStoredShape) {
        write(stored.offset)
        write(Int64(stored.length))
    }
}

extension OSMSpillReader {
    mutating func storedShape(in file: OSMShapeFile) throws -> OSMStoredShape {
        OSMStoredShape(file: file, offset: try int64(), length: Int(try int64()))
    }
}

extension OSMSpillWriter {
    /// A shape: its case, then its points (`write(_ rings:)` for each run of points).
    mutating func write(_ shape: Shape) {
        switch shape {
        case .point(let point):
            write(UInt32(0))
            write([[point]])
        case .multiPoint(let points):
            write(UInt32(1))
            write([points])
        case .lineString(let points):
            write(UInt32(2))
            write([points])
        case .multiLineString(let lines):
            write(UInt32(3))
            write(lines)
        case .polygon(let polygon):
            write(UInt32(4))
            write([polygon.exterior] + polygon.holes)
        case .multiPolygon(let polygons):
            write(UInt32(5))
            write(UInt32(polygons.count))
            for polygon in polygons { write([polygon.exterior] + polygon.holes) }
        }
    }
}

extension OSMSpillReader {
    mutating func shape() throws -> Shape {
        func polygon(_ rings: [[Point2D]]) -> Polygon { Polygon(exterior: rings.first ?? [], holes: Array(rings.dropFirst())) }
        switch try uint32() {
        case 0: return .point(try rings().first?.first ?? Point2D(x: 0, y: 0))
        case 1: return .multiPoint(try rings().first ?? [])
        case 2: return .lineString(try rings().first ?? [])
        case 3: return .multiLineString(try rings())
        case 4: return .polygon(polygon(try rings()))
        default: return .multiPolygon(try (0..<Int(try uint32())).map { _ in polygon(try rings()) })
        }
    }
}
