import Travel411Core
import Travel411Store

/// Shapes into GeoPackage geometry blobs (`GeoPackageGeometryCodec` reads them back): here, beside the other
/// writers, because the import that calls it for every feature is always optimised.
extension GeoPackageGeometryCodec {
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

    // MARK: Sizes

    private static let wkbHeaderSize = 1 + 4  // byte order + type code
    private static let pointSize = 16

    package static func headerSize(hasEnvelope: Bool) -> Int { 8 + (hasEnvelope ? 32 : 0) }

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
        package mutating func point(_ point: Point2D) {
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
