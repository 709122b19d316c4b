import Foundation
import Travel411Core

/// Why a geometry blob could not be read.
public enum GeoPackageGeometryError: Error, Equatable, CustomStringConvertible, LocalizedError {
    case notAGeoPackageGeometry
    case truncated(needed: Int, available: Int)
    case unsupportedEnvelope(indicator: Int)
    case extendedGeometry
    case unsupportedGeometryType(code: UInt32)
    case invalidByteOrder(UInt8)
    case unexpectedPart(container: String, partCode: UInt32)

    public var description: String {
        switch self {
        case .notAGeoPackageGeometry: return "not a GeoPackage geometry (the blob does not start with 'GP')"
        case .truncated(let needed, let available):
            return "truncated geometry blob (needs \(needed) bytes, has \(available))"
        case .unsupportedEnvelope(let indicator): return "invalid envelope indicator \(indicator) in geometry header"
        case .extendedGeometry: return "extended (non-standard) GeoPackage geometry types are not supported"
        case .unsupportedGeometryType(let code):
            return code % 1000 == 7
                ? "geometry collections are not supported"
                : "unsupported WKB geometry type \(code)"
        case .invalidByteOrder(let byte): return "invalid WKB byte-order marker \(byte)"
        case .unexpectedPart(let container, let partCode):
            return "a \(container) contains a part of WKB type \(partCode)"
        }
    }
    public var errorDescription: String? { description }
}

/// Converts between `Shape` and GeoPackage geometry blobs: a small 'GP' header (flags, SRS id,
/// optional envelope) followed by standard WKB.
public enum GeoPackageGeometryCodec {
    /// The spatial reference written into every blob: WGS 84 longitude/latitude.
    public static let wgs84SRSID: Int32 = 4326

    /// Decodes a blob written by any GeoPackage writer: either byte order in header and WKB, envelope
    /// types 0–4, and ISO or "2.5D" WKB with Z and/or M values, which are dropped.
    public static func decode(_ blob: UnsafeRawBufferPointer) throws -> Shape {
        let header = try GeoPackageBlobHeader(blob)
        var reader = WKBReader(bytes: blob, offset: header.wkbOffset)
        return try reader.readShape()
    }

    /// Convenience for tests and small tools.
    public static func decode(_ blob: [UInt8]) throws -> Shape {
        try blob.withUnsafeBytes { try decode($0) }
    }

    /// Decodes bare WKB without the GeoPackage header, PostGIS's EWKB (an embedded SRID) included, as a
    /// PostgreSQL dump of a geometry column holds it.
    public static func decodeWKB(_ bytes: UnsafeRawBufferPointer) throws -> Shape {
        var reader = WKBReader(bytes: bytes, offset: 0)
        return try reader.readShape()
    }
}

/// The fixed part of a GeoPackage blob, before the WKB.
package struct GeoPackageBlobHeader {
    let isEmpty: Bool
    let wkbOffset: Int
    /// The XY envelope the header carries (every envelope type begins with minX, maxX, minY, maxY); nil without one.
    package let envelope: BoundingBox?

    private static let envelopeSizes = [0, 32, 48, 48, 64]  // none, xy, xyz, xym, xyzm

    package init(_ blob: UnsafeRawBufferPointer) throws {
        guard blob.count >= 8 else {
            throw blob.count >= 2 && blob[0] == 0x47 && blob[1] == 0x50
                ? GeoPackageGeometryError.truncated(needed: 8, available: blob.count)
                : GeoPackageGeometryError.notAGeoPackageGeometry
        }
        guard blob[0] == 0x47, blob[1] == 0x50 else { throw GeoPackageGeometryError.notAGeoPackageGeometry }
        let flags = blob[3]
        guard flags & 0x20 == 0 else { throw GeoPackageGeometryError.extendedGeometry }
        let indicator = Int(flags >> 1) & 0x07
        guard indicator < Self.envelopeSizes.count else {
            throw GeoPackageGeometryError.unsupportedEnvelope(indicator: indicator)
        }
        isEmpty = flags & 0x10 != 0
        wkbOffset = 8 + Self.envelopeSizes[indicator]
        guard wkbOffset <= blob.count else {
            throw GeoPackageGeometryError.truncated(needed: wkbOffset, available: blob.count)
        }
        let littleEndian = flags & 0x01 == 1
        func double(at offset: Int) -> Double {
            let bits = blob.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            return Double(bitPattern: littleEndian ? UInt64(littleEndian: bits) : UInt64(bigEndian: bits))
        }
        let minX = indicator > 0 ? double(at: 8) : 0, maxX = indicator > 0 ? double(at: 16) : 0
        let minY = indicator > 0 ? double(at: 24) : 0, maxY = indicator > 0 ? double(at: 32) : 0
        envelope = indicator > 0 && minX <= maxX && minY <= maxY ? BoundingBox(minX: minX, minY: minY, maxX: maxX, maxY: maxY) : nil
    }
}

/// Reads WKB with bounds checks; each (sub)geometry carries its own byte order.
private struct WKBReader {
    package let bytes: UnsafeRawBufferPointer
    var offset: Int

    private struct GeometryHeader {
        let bigEndian: Bool
        let baseType: UInt32  // 1…6 once validated
        let code: UInt32  // as found, for messages
        let coordinateSize: Int  // 16, 24 or 32 bytes: x, y and any Z and M that are skipped
    }

    mutating func readShape() throws -> Shape {
        let header = try readGeometryHeader()
        switch header.baseType {
        case 1: return .point(try readPoint(header))
        case 2: return .lineString(try readPointList(header))
        case 3: return .polygon(try readPolygonBody(header))
        case 4:
            return .multiPoint(
                try readParts(header) { reader, part in
                    guard part.baseType == 1 else { throw WKBReader.unexpected("MULTIPOINT", part) }
                    return try reader.readPoint(part)
                })
        case 5:
            return .multiLineString(
                try readParts(header) { reader, part in
                    guard part.baseType == 2 else { throw WKBReader.unexpected("MULTILINESTRING", part) }
                    return try reader.readPointList(part)
                })
        case 6:
            return .multiPolygon(
                try readParts(header) { reader, part in
                    guard part.baseType == 3 else { throw WKBReader.unexpected("MULTIPOLYGON", part) }
                    return try reader.readPolygonBody(part)
                })
        default:
            throw GeoPackageGeometryError.unsupportedGeometryType(code: header.code)
        }
    }

    private static func unexpected(_ container: String, _ part: GeometryHeader) -> GeoPackageGeometryError {
        .unexpectedPart(container: container, partCode: part.code)
    }

    private func require(_ count: Int) throws {
        guard count >= 0, count <= bytes.count - offset else {
            throw GeoPackageGeometryError.truncated(needed: offset + count, available: bytes.count)
        }
    }

    private mutating func readUInt32(bigEndian: Bool) throws -> UInt32 {
        try require(4)
        let raw = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        offset += 4
        return bigEndian ? UInt32(bigEndian: raw) : UInt32(littleEndian: raw)
    }

    private mutating func readGeometryHeader() throws -> GeometryHeader {
        try require(1)
        let order = bytes[offset]
        offset += 1
        guard order <= 1 else { throw GeoPackageGeometryError.invalidByteOrder(order) }
        let bigEndian = order == 0
        let code = try readUInt32(bigEndian: bigEndian)
        // ISO WKB adds 1000 (Z), 2000 (M) or 3000 (ZM); older "2.5D" and EWKB writers set high bits instead.
        var hasZ = code & 0x8000_0000 != 0
        var hasM = code & 0x4000_0000 != 0
        if code & 0x2000_0000 != 0 { _ = try readUInt32(bigEndian: bigEndian) }  // EWKB's embedded SRID
        let isoCode = code & 0x0FFF_FFFF
        switch isoCode / 1000 {
        case 0: break
        case 1: hasZ = true
        case 2: hasM = true
        case 3:
            hasZ = true
            hasM = true
        default: throw GeoPackageGeometryError.unsupportedGeometryType(code: code)
        }
        let baseType = isoCode % 1000
        guard (1...6).contains(baseType) else { throw GeoPackageGeometryError.unsupportedGeometryType(code: code) }
        return GeometryHeader(
            bigEndian: bigEndian, baseType: baseType, code: code,
            coordinateSize: 16 + (hasZ ? 8 : 0) + (hasM ? 8 : 0))
    }

    private func loadDouble(at position: Int, bigEndian: Bool) -> Double {
        let raw = bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self)
        return Double(bitPattern: bigEndian ? UInt64(bigEndian: raw) : UInt64(littleEndian: raw))
    }

    private mutating func readPoint(_ header: GeometryHeader) throws -> Point2D {
        try require(header.coordinateSize)
        let point = Point2D(
            x: loadDouble(at: offset, bigEndian: header.bigEndian),
            y: loadDouble(at: offset + 8, bigEndian: header.bigEndian))
        offset += header.coordinateSize
        return point
    }

    /// A count and that many coordinates: a linestring's body or one ring.
    private mutating func readPointList(_ header: GeometryHeader) throws -> [Point2D] {
        let count = Int(try readUInt32(bigEndian: header.bigEndian))
        // One bounds check for the whole list, which also stops a corrupt count from allocating gigabytes.
        let (length, overflow) = count.multipliedReportingOverflow(by: header.coordinateSize)
        guard !overflow else { throw GeoPackageGeometryError.truncated(needed: Int.max, available: bytes.count) }
        try require(length)
        var points: [Point2D] = []
        points.reserveCapacity(count)
        var position = offset
        for _ in 0..<count {
            points.append(
                Point2D(
                    x: loadDouble(at: position, bigEndian: header.bigEndian),
                    y: loadDouble(at: position + 8, bigEndian: header.bigEndian)))
            position += header.coordinateSize
        }
        offset = position
        return points
    }

    private mutating func readPolygonBody(_ header: GeometryHeader) throws -> Polygon {
        let ringCount = Int(try readUInt32(bigEndian: header.bigEndian))
        try require(ringCount.multipliedReportingOverflow(by: 4).overflow ? Int.max : ringCount * 4)
        guard ringCount > 0 else { return Polygon(exterior: []) }
        let exterior = try readPointList(header)
        var holes: [Ring] = []
        holes.reserveCapacity(ringCount - 1)
        for _ in 1..<ringCount { holes.append(try readPointList(header)) }
        return Polygon(exterior: exterior, holes: holes)
    }

    private mutating func readParts<Part>(
        _ header: GeometryHeader, _ readPart: (inout WKBReader, GeometryHeader) throws -> Part
    ) throws -> [Part] {
        let count = Int(try readUInt32(bigEndian: header.bigEndian))
        // Every part takes at least its 5-byte header, which bounds a corrupt count.
        try require(count.multipliedReportingOverflow(by: 5).overflow ? Int.max : count * 5)
        var parts: [Part] = []
        parts.reserveCapacity(count)
        for _ in 0..<count {
            let partHeader = try readGeometryHeader()
            parts.append(try readPart(&self, partHeader))
        }
        return parts
    }
}

extension GeoPackageGeometryError: Travel411Error {
    public var exitStatus: ExitStatus { .dataError }
}
