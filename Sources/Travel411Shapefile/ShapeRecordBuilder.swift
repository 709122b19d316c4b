import CShapelib
import Travel411Core

/// Turns one shapelib object into a `ShapeRecord`: checks coordinates, splits parts, and sorts polygon rings
/// into outers and holes.
struct ShapeRecordBuilder {
    /// How far past ±180/±90 a coordinate may lie and still count as degrees: converters round, and Natural
    /// Earth's time zones reach latitude 90.0002. Projected coordinates (metres, feet) are far larger.
    static let degreeTolerance = 0.01

    let shpPath: String
    let kind: ShapefileGeometryKind

    /// - Parameters:
    ///   - number: the 1-based record number, for messages.
    ///   - warn: receives notes about records that were read with a repair.
    /// - Throws: `ShapefileError` when the object's part table is inconsistent.
    func record(from object: SHPObject, number: Int, warn: (String) -> Void) throws -> ShapeRecord {
        if object.nSHPType == ShapeTypeCode.null { return .null }
        guard let objectKind = ShapeTypeCode.kind(of: object.nSHPType) else {
            return .invalid("record \(number): unsupported shape type \(ShapeTypeCode.name(of: object.nSHPType))")
        }
        guard objectKind == kind else {
            return .invalid("record \(number): a \(ShapeTypeCode.name(of: object.nSHPType)) shape in a \(kind.rawValue) shapefile")
        }
        let vertexCount = Int(object.nVertices)
        guard vertexCount > 0, let xs = object.padfX, let ys = object.padfY else {
            return .invalid("record \(number): the shape has no vertices")
        }
        let vertices = Vertices(xs: xs, ys: ys, count: vertexCount)
        if let problem = vertices.firstProblem() { return .invalid("record \(number): \(problem)") }

        switch kind {
        case .point:
            return .shape(.point(vertices.point(0)))
        case .multiPoint:
            return .shape(.multiPoint(vertices.points(0..<vertexCount)))
        case .polyline:
            let lines = try partRanges(of: object, number: number).filter { $0.count >= 2 }.map(vertices.points)
            switch lines.count {
            case 0: return .invalid("record \(number): no line part has 2 or more points")
            case 1: return .shape(.lineString(lines[0]))
            default: return .shape(.multiLineString(lines))
            }
        case .polygon:
            let rings = try partRanges(of: object, number: number).compactMap { ClassifiedRing(vertices.points($0)) }
            let polygons = PolygonAssembly.polygons(from: rings) {
                warn("\(shpPath), record \(number): a hole lies outside every outer ring; it is read as an outer ring")
            }
            switch polygons.count {
            case 0: return .invalid("record \(number): the polygon has no ring with 4 or more points and an area")
            case 1: return .shape(.polygon(polygons[0]))
            default: return .shape(.multiPolygon(polygons))
            }
        }
    }

    /// The vertex range of each part. A record without a part table is one part.
    private func partRanges(of object: SHPObject, number: Int) throws -> [Range<Int>] {
        let vertexCount = Int(object.nVertices)
        let partCount = Int(object.nParts)
        guard partCount > 0, let starts = object.panPartStart else { return [0..<vertexCount] }
        var ranges: [Range<Int>] = []
        ranges.reserveCapacity(partCount)
        for part in 0..<partCount {
            let start = Int(starts[part])
            let end = part + 1 < partCount ? Int(starts[part + 1]) : vertexCount
            guard 0 <= start, start <= end, end <= vertexCount else {
                throw ShapefileError.at(
                    shpPath, record: number,
                    "has part \(part + 1) spanning vertices \(start)..<\(end) of \(vertexCount): the record is corrupt")
            }
            ranges.append(start..<end)
        }
        return ranges
    }
}

/// The coordinate arrays of a shapelib object, read in place.
private struct Vertices {
    let xs: UnsafeMutablePointer<Double>
    let ys: UnsafeMutablePointer<Double>
    package let count: Int

    package func point(_ index: Int) -> Point2D { Point2D(x: xs[index], y: ys[index]) }

    func points(_ range: Range<Int>) -> [Point2D] {
        Array(unsafeUninitializedCapacity: range.count) { buffer, initialized in
            for (offset, index) in range.enumerated() {
                buffer[offset] = Point2D(x: xs[index], y: ys[index])
            }
            initialized = range.count
        }
    }

    /// Why these coordinates cannot be longitude/latitude, if they cannot.
    func firstProblem() -> String? {
        let maxLongitude = 180 + ShapeRecordBuilder.degreeTolerance
        let maxLatitude = 90 + ShapeRecordBuilder.degreeTolerance
        for index in 0..<count {
            let x = xs[index], y = ys[index]
            guard x.isFinite, y.isFinite else { return "coordinate is not a number" }
            guard abs(x) <= maxLongitude, abs(y) <= maxLatitude else {
                return "coordinate (\(x), \(y)) is outside longitude -180…180, latitude -90…90"
            }
        }
        return nil
    }
}
