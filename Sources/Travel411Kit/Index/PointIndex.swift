import Foundation

/// Nearest-point and catchment lookups over places on the sphere (localities, postcodes, addresses).
///
/// Points live on the unit sphere as (x, y, z), so straight-line (chord) distance orders exactly like
/// great-circle distance, and nothing special happens at the antimeridian or the poles. The tree is an
/// implicit, balanced k-d tree: the median of each range is its node, so it needs no pointers and is
/// stored and loaded as one blob.
public final class PointIndex: @unchecked Sendable {
    public let count: Int
    private let storage: BlobStorage
    private let coordinates: UnsafePointer<Double>   // x, y, z per point, in tree order
    private let ids: UnsafePointer<UInt32>           // caller's record number per point
    private let splitAxes: UnsafePointer<UInt8>
    private let catchment: Catchment?

    /// Per-point catchment data, present for localities only.
    struct Catchment {
        let radius: UnsafePointer<Float>          // chord length of the catchment radius
        let subtreeMaxRadius: UnsafePointer<Float>
        let population: UnsafePointer<UInt32>
        let subtreeMaxPopulation: UnsafePointer<UInt32>
        let country: UnsafePointer<UInt16>        // ISO alpha-2 packed as two bytes, 0 when unknown
    }

    init(storage: BlobStorage) throws {
        guard storage.count >= 8 else { throw IndexFormatError.malformed("point index header") }
        let count = Int(storage.u32(at: 0))
        let hasCatchment = storage.u32(at: 4) & 1 != 0
        var offset = 8
        let coordinateOffset = offset; offset += count * 24
        let idOffset = offset; offset += count * 4
        let axisOffset = offset; offset += count; offset = (offset + 3) & ~3
        var catchment: Catchment? = nil
        if hasCatchment {
            let radius = offset; offset += count * 4
            let subtreeRadius = offset; offset += count * 4
            let population = offset; offset += count * 4
            let subtreePopulation = offset; offset += count * 4
            let country = offset; offset += count * 2
            offset = (offset + 3) & ~3
            guard offset <= storage.count else { throw IndexFormatError.malformed("point index size") }
            catchment = Catchment(
                radius: storage.pointer(at: radius, as: Float.self),
                subtreeMaxRadius: storage.pointer(at: subtreeRadius, as: Float.self),
                population: storage.pointer(at: population, as: UInt32.self),
                subtreeMaxPopulation: storage.pointer(at: subtreePopulation, as: UInt32.self),
                country: storage.pointer(at: country, as: UInt16.self))
        }
        guard offset == storage.count else { throw IndexFormatError.malformed("point index size") }
        self.count = count
        self.storage = storage
        coordinates = storage.pointer(at: coordinateOffset, as: Double.self)
        ids = storage.pointer(at: idOffset, as: UInt32.self)
        splitAxes = storage.pointer(at: axisOffset, as: UInt8.self)
        self.catchment = catchment
    }

    /// A point converted once per query.
    public struct Query {
        let x: Double, y: Double, z: Double
        public init(_ coordinate: Coordinate) {
            (x, y, z) = PointIndex.unitVector(latitude: coordinate.latitude, longitude: coordinate.longitude)
        }
        @inline(__always) subscript(axis: Int) -> Double { axis == 0 ? x : (axis == 1 ? y : z) }
    }

    @inline(__always) static func unitVector(latitude: Double, longitude: Double) -> (Double, Double, Double) {
        let φ = latitude * .pi / 180, λ = longitude * .pi / 180
        let c = cos(φ)
        return (c * cos(λ), c * sin(λ), sin(φ))
    }

    /// Chord length on the unit sphere for a great-circle distance in metres.
    public static func chord(metres: Double) -> Double {
        2 * sin(min(metres, .pi * GreatCircle.earthRadiusMetres) / (2 * GreatCircle.earthRadiusMetres))
    }

    @inline(__always) private func squaredChord(_ q: Query, _ i: Int) -> Double {
        let p = coordinates + i * 3
        let dx = q.x - p[0], dy = q.y - p[1], dz = q.z - p[2]
        return dx * dx + dy * dy + dz * dz
    }

    @inline(__always) private func axisValue(_ i: Int, _ axis: Int) -> Double { coordinates[i * 3 + axis] }

    /// The record id of the nearest point within `maxChord`, or nil. Equal distances go to the lower id,
    /// so the answer never depends on the tree's layout.
    public func nearest(to q: Query, maxChord: Double = 2.0001) -> UInt32? {
        nearest(to: q, maxChord: maxChord) { _ in true }
    }

    /// The nearest point within `maxChord` whose record id passes `accept`.
    public func nearest(to q: Query, maxChord: Double, where accept: (UInt32) -> Bool) -> UInt32? {
        guard count > 0 else { return nil }
        var best = -1
        var bestDistance = maxChord * maxChord
        nearest(q, 0, count, accept, &best, &bestDistance)
        return best < 0 ? nil : ids[best]
    }

    private func nearest(_ q: Query, _ lo: Int, _ hi: Int, _ accept: (UInt32) -> Bool, _ best: inout Int, _ bestDistance: inout Double) {
        if hi <= lo { return }
        let mid = (lo + hi) >> 1
        let d = squaredChord(q, mid)
        if d < bestDistance || (d == bestDistance && best >= 0 && ids[mid] < ids[best]), accept(ids[mid]) {
            bestDistance = d; best = mid
        }
        if hi - lo == 1 { return }
        let axis = Int(splitAxes[mid])
        let diff = q[axis] - axisValue(mid, axis)
        if diff < 0 {
            nearest(q, lo, mid, accept, &best, &bestDistance)
            if diff * diff <= bestDistance { nearest(q, mid + 1, hi, accept, &best, &bestDistance) }
        } else {
            nearest(q, mid + 1, hi, accept, &best, &bestDistance)
            if diff * diff <= bestDistance { nearest(q, lo, mid, accept, &best, &bestDistance) }
        }
    }

    /// The most populous place whose catchment disc contains the point, among places of `country`
    /// (two ASCII letters packed by `packCountry`, or 0 for any). Ties go to the nearer place.
    public func largestCatchment(containing q: Query, country: UInt16) -> UInt32? {
        guard let catchment, count > 0 else { return nil }
        var best = -1
        var bestPopulation: UInt32 = 0
        var bestDistance = Double.infinity
        largestCatchment(q, country, catchment, 0, count, &best, &bestPopulation, &bestDistance)
        return best < 0 ? nil : ids[best]
    }

    private func largestCatchment(
        _ q: Query, _ country: UInt16, _ c: Catchment, _ lo: Int, _ hi: Int,
        _ best: inout Int, _ bestPopulation: inout UInt32, _ bestDistance: inout Double
    ) {
        if hi <= lo { return }
        let mid = (lo + hi) >> 1
        // Nothing below can beat the best found so far.
        if best >= 0 && c.subtreeMaxPopulation[mid] < bestPopulation { return }
        let d = squaredChord(q, mid)
        let radius = Double(c.radius[mid])
        if d <= radius * radius, country == 0 || c.country[mid] == country {
            let population = c.population[mid]
            if best < 0 || population > bestPopulation || (population == bestPopulation && d < bestDistance) {
                best = mid; bestPopulation = population; bestDistance = d
            }
        }
        if hi - lo == 1 { return }
        let axis = Int(splitAxes[mid])
        let diff = q[axis] - axisValue(mid, axis)
        let (near, far) = diff < 0 ? ((lo, mid), (mid + 1, hi)) : ((mid + 1, hi), (lo, mid))
        largestCatchment(q, country, c, near.0, near.1, &best, &bestPopulation, &bestDistance)
        if far.1 > far.0 {
            let farRoot = (far.0 + far.1) >> 1
            let reach = Double(c.subtreeMaxRadius[farRoot])
            if diff * diff <= reach * reach {
                largestCatchment(q, country, c, far.0, far.1, &best, &bestPopulation, &bestDistance)
            }
        }
    }

    /// Two ASCII letters as one number, for cheap country comparisons.
    public static func packCountry(_ code: String?) -> UInt16 {
        guard let code else { return 0 }
        let bytes = Array(code.utf8)
        guard bytes.count == 2 else { return 0 }
        return UInt16(bytes[0]) << 8 | UInt16(bytes[1])
    }
}

/// Builds a `PointIndex` blob.
public struct PointIndexBuilder {
    public struct Place {
        public var coordinate: Coordinate
        public var id: UInt32
        /// Catchment radius in metres, population and ISO country, for localities.
        public var catchmentMetres: Double = 0
        public var population: UInt32 = 0
        public var country: String? = nil
        public init(coordinate: Coordinate, id: UInt32) { self.coordinate = coordinate; self.id = id }
    }

    public init() {}

    public func build(_ places: [Place], withCatchment: Bool) -> [UInt8] {
        let n = places.count
        var xyz = places.map { PointIndex.unitVector(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
        var order = Array(0..<n)
        var axes = [UInt8](repeating: 0, count: n)
        // Sort ranges in place around their medians, widest axis first.
        func arrange(_ lo: Int, _ hi: Int) {
            if hi - lo <= 1 { return }
            var minimum = [Double](repeating: .infinity, count: 3), maximum = [Double](repeating: -.infinity, count: 3)
            for i in lo..<hi {
                let p = xyz[i]
                for (axis, value) in [p.0, p.1, p.2].enumerated() {
                    minimum[axis] = min(minimum[axis], value); maximum[axis] = max(maximum[axis], value)
                }
            }
            let spreads = (0..<3).map { maximum[$0] - minimum[$0] }
            let axis = spreads.firstIndex(of: spreads.max() ?? 0) ?? 0
            func value(_ i: Int) -> Double { axis == 0 ? xyz[i].0 : (axis == 1 ? xyz[i].1 : xyz[i].2) }
            let sorted = (lo..<hi).sorted { value($0) < value($1) || (value($0) == value($1) && order[$0] < order[$1]) }
            let newXYZ = sorted.map { xyz[$0] }, newOrder = sorted.map { order[$0] }
            for (k, i) in (lo..<hi).enumerated() { xyz[i] = newXYZ[k]; order[i] = newOrder[k] }
            let mid = (lo + hi) >> 1
            axes[mid] = UInt8(axis)
            arrange(lo, mid)
            arrange(mid + 1, hi)
        }
        arrange(0, n)

        var writer = ByteWriter(capacity: 8 + n * 48)
        writer.append(UInt32(n))
        writer.append(UInt32(withCatchment ? 1 : 0))
        for p in xyz { writer.append(p.0); writer.append(p.1); writer.append(p.2) }
        for i in order { writer.append(places[i].id) }
        for axis in axes { writer.append(axis) }
        writer.align(to: 4)
        if withCatchment {
            let radius = order.map { Float(PointIndex.chord(metres: places[$0].catchmentMetres)).nextUp }
            let population = order.map { places[$0].population }
            var subtreeRadius = radius, subtreePopulation = population
            func aggregate(_ lo: Int, _ hi: Int) -> (Float, UInt32) {
                if hi <= lo { return (0, 0) }
                let mid = (lo + hi) >> 1
                let left = aggregate(lo, mid), right = aggregate(mid + 1, hi)
                subtreeRadius[mid] = max(radius[mid], left.0, right.0)
                subtreePopulation[mid] = max(population[mid], left.1, right.1)
                return (subtreeRadius[mid], subtreePopulation[mid])
            }
            _ = aggregate(0, n)
            for value in radius { writer.append(value) }
            for value in subtreeRadius { writer.append(value) }
            for value in population { writer.append(value) }
            for value in subtreePopulation { writer.append(value) }
            for i in order {
                let packed = PointIndex.packCountry(places[i].country)
                writer.append(UInt8(packed & 0xff)); writer.append(UInt8(packed >> 8))
            }
            writer.align(to: 4)
        }
        return writer.bytes
    }
}
