import Foundation

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

    /// Encodes `shape` as a new little-endian blob.
    public static func encode(_ shape: Shape) -> [UInt8] {
        var blob: [UInt8] = []
        encode(shape, into: &blob)
        return blob
    }

    /// Encodes `shape` into `buffer`, replacing its contents but keeping its capacity, so a bulk
    /// import reuses one allocation for every feature. Returns the shape's exact bounding box
    /// (empty for an empty shape), which the caller needs for the spatial index anyway.
    @discardableResult
    public static func encode(_ shape: Shape, into buffer: inout [UInt8]) -> BoundingBox {
        let box = shape.boundingBox
        // Points carry no envelope (it would repeat the point); other shapes get [minx, maxx, miny, maxy].
        let envelope: BoundingBox? = box.isEmpty || isPoint(shape) ? nil : box
        let size = headerSize(hasEnvelope: envelope != nil) + wkbSize(shape)

        buffer.removeAll(keepingCapacity: true)
        buffer.append(contentsOf: repeatElement(0, count: size))
        buffer.withUnsafeMutableBytes { raw in
            guard let base = raw.baseAddress else { return }  // never: a blob has at least its 8-byte header
            var writer = LittleEndianWriter(base: base)
            writer.byte(0x47)  // 'G'
            writer.byte(0x50)  // 'P'
            writer.byte(0)  // version 1 of the blob format
            var flags: UInt8 = 0x01  // little-endian header
            if envelope != nil { flags |= 1 << 1 }  // envelope type 1: x and y ranges
            if box.isEmpty { flags |= 1 << 4 }
            writer.byte(flags)
            writer.uint32(UInt32(bitPattern: wgs84SRSID))
            if let envelope {
                writer.double(envelope.minX)
                writer.double(envelope.maxX)
                writer.double(envelope.minY)
                writer.double(envelope.maxY)
            }
            writeWKB(shape, to: &writer)
            assert(writer.offset == size)
        }
        return box
    }

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

    // MARK: Sizes

    private static let wkbHeaderSize = 1 + 4  // byte order + type code
    private static let pointSize = 16

    static func headerSize(hasEnvelope: Bool) -> Int { 8 + (hasEnvelope ? 32 : 0) }

    private static func isPoint(_ shape: Shape) -> Bool {
        if case .point = shape { return true }
        return false
    }

    private static func wkbSize(_ shape: Shape) -> Int {
        switch shape {
        case .point: return wkbHeaderSize + pointSize
        case .lineString(let points): return lineStringSize(points)
        case .multiPoint(let points): return wkbHeaderSize + 4 + points.count * (wkbHeaderSize + pointSize)
        case .multiLineString(let lines):
            return lines.reduce(wkbHeaderSize + 4) { $0 + lineStringSize($1) }
        case .polygon(let polygon): return polygonSize(polygon)
        case .multiPolygon(let polygons):
            return polygons.reduce(wkbHeaderSize + 4) { $0 + polygonSize($1) }
        }
    }

    private static func lineStringSize(_ points: [Point2D]) -> Int {
        wkbHeaderSize + 4 + points.count * pointSize
    }

    private static func polygonSize(_ polygon: Polygon) -> Int {
        polygon.holes.reduce(wkbHeaderSize + 4 + 4 + polygon.exterior.count * pointSize) {
            $0 + 4 + $1.count * pointSize
        }
    }

    // MARK: Writing

    private enum WKBType: UInt32 {
        case point = 1, lineString, polygon, multiPoint, multiLineString, multiPolygon
    }

    private static func writeWKB(_ shape: Shape, to writer: inout LittleEndianWriter) {
        switch shape {
        case .point(let point):
            writer.wkbHeader(.point)
            writer.point(point)
        case .lineString(let points):
            writeLineString(points, to: &writer)
        case .multiPoint(let points):
            writer.wkbHeader(.multiPoint)
            writer.uint32(UInt32(points.count))
            for point in points {
                writer.wkbHeader(.point)
                writer.point(point)
            }
        case .multiLineString(let lines):
            writer.wkbHeader(.multiLineString)
            writer.uint32(UInt32(lines.count))
            for line in lines { writeLineString(line, to: &writer) }
        case .polygon(let polygon):
            writePolygon(polygon, to: &writer)
        case .multiPolygon(let polygons):
            writer.wkbHeader(.multiPolygon)
            writer.uint32(UInt32(polygons.count))
            for polygon in polygons { writePolygon(polygon, to: &writer) }
        }
    }

    private static func writeLineString(_ points: [Point2D], to writer: inout LittleEndianWriter) {
        writer.wkbHeader(.lineString)
        writer.points(points)
    }

    private static func writePolygon(_ polygon: Polygon, to writer: inout LittleEndianWriter) {
        writer.wkbHeader(.polygon)
        writer.uint32(UInt32(1 + polygon.holes.count))
        writer.points(polygon.exterior)
        for hole in polygon.holes { writer.points(hole) }
    }

    /// Writes into memory already sized for the whole blob; unaligned stores are fine on every platform Swift runs on.
    private struct LittleEndianWriter {
        let base: UnsafeMutableRawPointer
        var offset = 0

        mutating func byte(_ value: UInt8) {
            base.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }
        mutating func uint32(_ value: UInt32) {
            base.storeBytes(of: value.littleEndian, toByteOffset: offset, as: UInt32.self)
            offset += 4
        }
        mutating func double(_ value: Double) {
            base.storeBytes(of: value.bitPattern.littleEndian, toByteOffset: offset, as: UInt64.self)
            offset += 8
        }
        mutating func wkbHeader(_ type: WKBType) {
            byte(1)  // little-endian WKB
            uint32(type.rawValue)
        }
        mutating func point(_ point: Point2D) {
            double(point.x)
            double(point.y)
        }
        /// A count followed by the coordinates, as linestrings and rings store them.
        mutating func points(_ points: [Point2D]) {
            uint32(UInt32(points.count))
            for point in points { self.point(point) }
        }
    }
}

/// The fixed part of a GeoPackage blob, before the WKB.
struct GeoPackageBlobHeader {
    let isEmpty: Bool
    let wkbOffset: Int
    /// The XY envelope the header carries (every envelope type begins with minX, maxX, minY, maxY); nil without one.
    let envelope: BoundingBox?

    private static let envelopeSizes = [0, 32, 48, 48, 64]  // none, xy, xyz, xym, xyzm

    init(_ blob: UnsafeRawBufferPointer) throws {
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
    let bytes: UnsafeRawBufferPointer
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
