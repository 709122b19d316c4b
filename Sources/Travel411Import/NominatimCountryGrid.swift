import CZlib
import Foundation
import Travel411Core
import Travel411Store

/// Nominatim's country grid: OpenStreetMap's country boundaries simplified and cut into pieces, each with its
/// ISO 3166-1 code and area (`country_osm_grid`, shipped by nominatim-db 5.3.3 as
/// `resources/country_osm_grid.sql.gz`, ODbL 1.0, data as of 2024-06-10; copied unchanged into Data/nominatim).
///
/// Nominatim gives an object the country of the country boundary holding it and, where its database has none
/// (an extract cut inside a country's border), of the smallest grid piece holding it (`get_country_code` in
/// `lib-sql/functions/utils.sql`). Its pieces follow the real borders far more closely than Natural Earth's
/// 1:10m polygons (Monaco's ends before Beausoleil, which Natural Earth's holds) and reach into the territorial
/// sea as the boundaries do.
struct NominatimCountryGrid {
    struct Piece {
        /// Upper-case ISO 3166-1 alpha-2.
        var code: String
        /// In square degrees, as the file gives it: Nominatim tries the smallest piece first.
        var area: Double
        var shape: Shape
    }

    enum ReadError: Error, CustomStringConvertible {
        case unreadable(String)
        case malformedRow(file: String, line: Int, reason: String)

        var description: String {
            switch self {
            case .unreadable(let path): return "\(path): cannot read the gzip-compressed country grid"
            case .malformedRow(let file, let line, let reason): return "\(file), line \(line): \(reason)"
            }
        }
    }

    /// The copy in the embedded data; nil where no Data/ folder is found.
    static var embeddedFile: URL? { Importer.embedded("nominatim/country_osm_grid.sql.gz") }

    /// The pieces whose boxes meet `box`, smallest first (ties in the file's order).
    static func pieces(meeting box: BoundingBox, file: URL) throws -> [Piece] {
        try pieces(meetingAny: [box], file: file)
    }

    /// The pieces whose boxes meet any of `boxes`, each once, smallest first (ties in the file's order).
    static func pieces(meetingAny boxes: [BoundingBox], file: URL) throws -> [Piece] {
        let boxes = boxes.filter { !$0.isEmpty }
        guard !boxes.isEmpty else { return [] }
        var pieces: [Piece] = []
        var inData = false
        try GzipLines(path: file.path).forEach { line, number in
            if !inData {
                inData = line.starts(with: Array("COPY ".utf8))
                return
            }
            if line == Array("\\.".utf8) {
                inData = false
                return
            }
            if let piece = try piece(line, meeting: boxes, file: file.lastPathComponent, line: number) { pieces.append(piece) }
        }
        return pieces.enumerated().sorted { $0.element.area != $1.element.area ? $0.element.area < $1.element.area : $0.offset < $1.offset }
            .map(\.element)
    }

    /// One row of the dump's `COPY … FROM stdin` block: code, area and hex EWKB, tab-separated.
    private static func piece(_ row: [UInt8], meeting boxes: [BoundingBox], file: String, line: Int) throws -> Piece? {
        let fields = row.split(separator: UInt8(ascii: "\t"), omittingEmptySubsequences: false)
        guard fields.count == 3, fields[0].count == 2, let area = Double(String(decoding: fields[1], as: UTF8.self)) else {
            throw ReadError.malformedRow(file: file, line: line, reason: "not a row of country code, area and geometry")
        }
        guard let wkb = hexBytes(fields[2]) else {
            throw ReadError.malformedRow(file: file, line: line, reason: "the geometry is not hexadecimal WKB")
        }
        let shape: Shape
        do {
            shape = try wkb.withUnsafeBytes { try GeoPackageGeometryCodec.decodeWKB($0) }
        } catch {
            throw ReadError.malformedRow(file: file, line: line, reason: "the geometry: \(error)")
        }
        guard !shape.rings.isEmpty, boxes.contains(where: shape.boundingBox.intersects) else { return nil }
        return Piece(code: String(decoding: fields[0], as: UTF8.self).uppercased(), area: area, shape: shape)
    }

    private static func hexBytes(_ hex: ArraySlice<UInt8>) -> [UInt8]? {
        guard hex.count % 2 == 0 else { return nil }
        func nibble(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var bytes = [UInt8]()
        bytes.reserveCapacity(hex.count / 2)
        var i = hex.startIndex
        while i < hex.endIndex {
            guard let high = nibble(hex[i]), let low = nibble(hex[i + 1]) else { return nil }
            bytes.append(high << 4 | low)
            i += 2
        }
        return bytes
    }
}

/// The lines of a gzip-compressed text file (zlib's gzread), without their line feeds, numbered from 1.
struct GzipLines {
    let path: String

    func forEach(_ body: ([UInt8], Int) throws -> Void) throws {
        guard let file = gzopen(path, "rb") else { throw NominatimCountryGrid.ReadError.unreadable(path) }
        defer { gzclose(file) }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var line: [UInt8] = []
        var number = 0
        while true {
            let read = chunk.withUnsafeMutableBytes { gzread(file, $0.baseAddress, UInt32($0.count)) }
            guard read >= 0 else { throw NominatimCountryGrid.ReadError.unreadable(path) }
            if read == 0 { break }
            var start = 0
            for i in 0..<Int(read) where chunk[i] == UInt8(ascii: "\n") {
                line.append(contentsOf: chunk[start..<i])
                number += 1
                try body(line, number)
                line.removeAll(keepingCapacity: true)
                start = i + 1
            }
            line.append(contentsOf: chunk[start..<Int(read)])
        }
        if !line.isEmpty {
            number += 1
            try body(line, number)
        }
    }
}
