import Foundation
import Travel411Core
import Travel411Import
import Travel411OSM
import Travel411Store
import Travel411StoreWriters
import XCTest

final class GeoPackageGeometryCodecTests: XCTestCase {
    private func p(_ x: Double, _ y: Double) -> Point2D { Point2D(x: x, y: y) }

    private var square: Ring { [p(0, 0), p(10, 0), p(10, 10), p(0, 10), p(0, 0)] }
    private var hole: Ring { [p(2, 2), p(2, 4), p(4, 4), p(4, 2), p(2, 2)] }

    private var everyShape: [Shape] {
        [
            .point(p(8.5417, 47.3769)),
            .multiPoint([p(-1, -2), p(3.25, 4.5), p(179.999, -89.5)]),
            .lineString([p(0, 0), p(1, 1), p(2, 0.5)]),
            .multiLineString([[p(0, 0), p(1, 1)], [p(5, 5), p(6, 7), p(8, 9)]]),
            .polygon(Polygon(exterior: square, holes: [hole])),
            .polygon(Polygon(exterior: square, holes: [hole, [p(6, 6), p(6, 8), p(8, 8), p(6, 6)]])),
            .multiPolygon([
                Polygon(exterior: square, holes: [hole]),
                Polygon(exterior: [p(20, 20), p(30, 20), p(30, 30), p(20, 20)]),
            ]),
        ]
    }

    func testEveryShapeRoundTrips() throws {
        for shape in everyShape {
            XCTAssertEqual(try GeoPackageGeometryCodec.decode(GeoPackageGeometryCodec.encode(shape)), shape)
        }
    }

    func testEmptyShapesRoundTripAndAreFlaggedEmpty() throws {
        for shape in [Shape.multiPolygon([]), .lineString([]), .multiPoint([])] {
            let blob = GeoPackageGeometryCodec.encode(shape)
            XCTAssertEqual(blob[3] & 0x10, 0x10, "empty flag for \(shape)")
            XCTAssertEqual(blob[3] & 0x0E, 0, "no envelope for \(shape)")
            XCTAssertEqual(try GeoPackageGeometryCodec.decode(blob), shape)
        }
    }

    func testPolygonHeaderCarriesSRSAndEnvelope() {
        let blob = GeoPackageGeometryCodec.encode(.polygon(Polygon(exterior: [p(-3, 1), p(5, 1), p(5, 9), p(-3, 1)])))
        XCTAssertEqual(Array(blob[0..<4]), [0x47, 0x50, 0x00, 0x03])  // 'GP', version 0, little-endian + xy envelope
        XCTAssertEqual(readLittleEndianUInt32(blob, at: 4), 4326)
        XCTAssertEqual((0..<4).map { readLittleEndianDouble(blob, at: 8 + 8 * $0) }, [-3, 5, 1, 9])  // minx maxx miny maxy
        XCTAssertEqual(blob[40], 1)  // WKB little-endian
        XCTAssertEqual(readLittleEndianUInt32(blob, at: 41), 3)  // WKB polygon
    }

    func testPointsCarryNoEnvelope() {
        let blob = GeoPackageGeometryCodec.encode(.point(p(1.5, -2.5)))
        XCTAssertEqual(blob.count, 8 + 21)
        XCTAssertEqual(blob[3], 0x01)
        XCTAssertEqual(readLittleEndianDouble(blob, at: 13), 1.5)
        XCTAssertEqual(readLittleEndianDouble(blob, at: 21), -2.5)
    }

    func testEncodingIntoAReusedBufferMatchesAFreshEncoding() throws {
        var buffer: [UInt8] = []
        let big = Shape.multiPolygon([Polygon(exterior: square, holes: [hole])])
        let small = Shape.point(p(1, 2))
        let bigBox = GeoPackageGeometryCodec.encode(big, into: &buffer)
        XCTAssertEqual(bigBox, BoundingBox(minX: 0, minY: 0, maxX: 10, maxY: 10))
        GeoPackageGeometryCodec.encode(small, into: &buffer)
        XCTAssertEqual(buffer, GeoPackageGeometryCodec.encode(small))
    }

    func testDecodesBigEndianHeaderAndWKB() throws {
        var blob = BigEndianBlob()
        blob.bytes += [0x47, 0x50, 0x00, 0x02]  // big-endian header, xy envelope
        blob.uint32(4326)
        for value in [0.0, 10, 0, 10] { blob.double(value) }
        blob.bytes.append(0)  // WKB big-endian
        blob.uint32(3)  // polygon
        blob.uint32(2)  // rings
        blob.uint32(5)
        for point in square {
            blob.double(point.x)
            blob.double(point.y)
        }
        blob.uint32(5)
        for point in hole {
            blob.double(point.x)
            blob.double(point.y)
        }
        XCTAssertEqual(try GeoPackageGeometryCodec.decode(blob.bytes), .polygon(Polygon(exterior: square, holes: [hole])))
    }

    func testDecodesBigEndianPartsInsideALittleEndianMultiPoint() throws {
        var blob = BigEndianBlob()
        blob.bytes += [0x47, 0x50, 0x00, 0x01, 0xE6, 0x10, 0x00, 0x00]  // little-endian header, SRS 4326, no envelope
        blob.bytes += [0x01, 0x04, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00]  // LE multipoint of 1 part
        blob.bytes.append(0)
        blob.uint32(1)
        blob.double(7.25)
        blob.double(-3.5)
        XCTAssertEqual(try GeoPackageGeometryCodec.decode(blob.bytes), .multiPoint([p(7.25, -3.5)]))
    }

    func testReadsZAndMCoordinatesAsTwoDimensional() throws {
        // ISO codes: 1002 = LineString Z, 2001 = Point M, 3006 = MultiPolygon ZM; 0x80000001 = "2.5D" Point.
        var lineZ = BigEndianBlob.header(envelopeIndicator: 2, envelopeValues: 6)
        lineZ.bytes.append(0)
        lineZ.uint32(1002)
        lineZ.uint32(2)
        for value in [1.0, 2, 100, 3, 4, 200] { lineZ.double(value) }
        XCTAssertEqual(try GeoPackageGeometryCodec.decode(lineZ.bytes), .lineString([p(1, 2), p(3, 4)]))

        var pointM = BigEndianBlob.header(envelopeIndicator: 3, envelopeValues: 6)
        pointM.bytes.append(0)
        pointM.uint32(2001)
        for value in [5.0, 6, 99] { pointM.double(value) }
        XCTAssertEqual(try GeoPackageGeometryCodec.decode(pointM.bytes), .point(p(5, 6)))

        var multiPolygonZM = BigEndianBlob.header(envelopeIndicator: 4, envelopeValues: 8)
        multiPolygonZM.bytes.append(0)
        multiPolygonZM.uint32(3006)
        multiPolygonZM.uint32(1)
        multiPolygonZM.bytes.append(0)
        multiPolygonZM.uint32(3003)
        multiPolygonZM.uint32(1)
        multiPolygonZM.uint32(4)
        let ring = [p(0, 0), p(1, 0), p(0, 1), p(0, 0)]
        for point in ring { for value in [point.x, point.y, 7, 8] { multiPolygonZM.double(value) } }
        XCTAssertEqual(try GeoPackageGeometryCodec.decode(multiPolygonZM.bytes), .multiPolygon([Polygon(exterior: ring)]))

        var point25D = BigEndianBlob.header(envelopeIndicator: 0, envelopeValues: 0)
        point25D.bytes.append(0)
        point25D.uint32(0x8000_0001)
        for value in [9.0, 10, 11] { point25D.double(value) }
        XCTAssertEqual(try GeoPackageGeometryCodec.decode(point25D.bytes), .point(p(9, 10)))
    }

    func testRejectsMalformedBlobs() {
        let valid = GeoPackageGeometryCodec.encode(.lineString([p(0, 0), p(1, 1)]))
        XCTAssertThrowsError(try GeoPackageGeometryCodec.decode(Array(valid.dropLast(3)))) { error in
            guard case .truncated = error as? GeoPackageGeometryError else { return XCTFail("\(error)") }
        }
        XCTAssertThrowsError(try GeoPackageGeometryCodec.decode([0x01, 0x02, 0x00, 0x01, 0, 0, 0, 0, 1])) { error in
            XCTAssertEqual(error as? GeoPackageGeometryError, .notAGeoPackageGeometry)
        }
        var envelopeSeven = valid
        envelopeSeven[3] = 0x01 | (7 << 1)
        XCTAssertThrowsError(try GeoPackageGeometryCodec.decode(envelopeSeven)) { error in
            XCTAssertEqual(error as? GeoPackageGeometryError, .unsupportedEnvelope(indicator: 7))
        }
        var collection = BigEndianBlob.header(envelopeIndicator: 0, envelopeValues: 0)
        collection.bytes.append(0)
        collection.uint32(7)
        collection.uint32(0)
        XCTAssertThrowsError(try GeoPackageGeometryCodec.decode(collection.bytes)) { error in
            XCTAssertEqual((error as? any LocalizedError)?.errorDescription, "geometry collections are not supported")
        }
        // A corrupt point count must fail cleanly, not try to allocate it.
        var hugeCount = BigEndianBlob.header(envelopeIndicator: 0, envelopeValues: 0)
        hugeCount.bytes.append(0)
        hugeCount.uint32(2)
        hugeCount.uint32(0xFFFF_FFFF)
        XCTAssertThrowsError(try GeoPackageGeometryCodec.decode(hugeCount.bytes))
    }

    // MARK: Helpers

    private func readLittleEndianUInt32(_ bytes: [UInt8], at offset: Int) -> UInt32 {
        (0..<4).reduce(0) { $0 | UInt32(bytes[offset + $1]) << (8 * $1) }
    }

    private func readLittleEndianDouble(_ bytes: [UInt8], at offset: Int) -> Double {
        Double(bitPattern: (0..<8).reduce(0) { $0 | UInt64(bytes[offset + $1]) << (8 * $1) })
    }
}

/// Builds hand-made blobs in big-endian order, as some other writers produce them.
private struct BigEndianBlob {
    var bytes: [UInt8] = []

    mutating func uint32(_ value: UInt32) { bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
    mutating func double(_ value: Double) { bytes += withUnsafeBytes(of: value.bitPattern.bigEndian) { Array($0) } }

    /// A big-endian 'GP' header with the given envelope indicator and that many (zero) envelope doubles.
    static func header(envelopeIndicator: UInt8, envelopeValues: Int) -> BigEndianBlob {
        var blob = BigEndianBlob()
        blob.bytes += [0x47, 0x50, 0x00, envelopeIndicator << 1]
        blob.uint32(4326)
        for _ in 0..<envelopeValues { blob.double(0) }
        return blob
    }
}
