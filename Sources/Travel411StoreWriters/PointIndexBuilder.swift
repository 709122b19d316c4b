import Foundation
import Travel411Core
import Travel411Store

/// Builds a `PointIndex`: the top blob and its pages.
public struct PointIndexBuilder {
    public struct Place {
        public var coordinate: Coordinate
        public var id: UInt32
        /// For localities: catchment radius in metres and population (for `LocalityCellsBuilder`), and
        /// the ISO country and group that searches filter on.
        public var catchmentMetres: Double = 0
        public var population: UInt32 = 0
        public var country: String? = nil
        /// A grouping lookups can filter on (localities: their admin polygon + 1), 0 for none.
        public var group: UInt32 = 0
        public init(coordinate: Coordinate, id: UInt32) {
            self.coordinate = coordinate
            self.id = id
        }
    }

    public struct Output {
        public var top: [UInt8]
        /// Page blobs by heap number.
        public var pages: [(number: Int, blob: [UInt8])]
    }

    /// Points per page: small enough that a lookup reads a few kilobytes, large enough that the top
    /// blob stays tiny.
    public var pageSize = 256

    public init() {}

    public func build(_ places: [Place], withGroups: Bool) -> Output {
        var tree = PointIndexTree(places, withGroups: withGroups, pageSize: pageSize)
        tree.arrange(0, places.count)
        tree.walk(0, places.count, 0)
        return Output(top: tree.topBlob(), pages: tree.pages)
    }
}

/// The points of a `PointIndex` as its k-d tree, arranged and cut into the top blob's slots and the pages.
private struct PointIndexTree {
    let places: [PointIndexBuilder.Place]
    let withGroups: Bool
    let pageSize: Int
    /// The points' unit vectors, in the tree's order; `order` maps each back to its place.
    var xyz: [(Double, Double, Double)]
    var order: [Int]
    /// Each node's splitting axis.
    var axes: [UInt8]
    var topNodes: [Int: Int] = [:]  // heap number → global index of the node (or page root)
    var topRanges: [Int: Range<Int>] = [:]  // heap number → the index range of its subtree
    var kinds: [Int: PointIndex.SlotKind] = [:]
    var pages: [(number: Int, blob: [UInt8])] = []

    init(_ places: [PointIndexBuilder.Place], withGroups: Bool, pageSize: Int) {
        self.places = places
        self.withGroups = withGroups
        self.pageSize = pageSize
        xyz = places.map { PointIndex.unitVector(latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }
        order = Array(0..<places.count)
        axes = [UInt8](repeating: 0, count: places.count)
    }

    /// Sorts each range around its median along its widest axis, the way lookups will walk it.
    mutating func arrange(_ lo: Int, _ hi: Int) {
        if hi - lo <= 1 { return }
        var minimum = (Double.infinity, Double.infinity, Double.infinity),
            maximum = (-Double.infinity, -Double.infinity, -Double.infinity)
        for i in lo..<hi {
            let p = xyz[i]
            minimum = (min(minimum.0, p.0), min(minimum.1, p.1), min(minimum.2, p.2))
            maximum = (max(maximum.0, p.0), max(maximum.1, p.1), max(maximum.2, p.2))
        }
        let spreads = [maximum.0 - minimum.0, maximum.1 - minimum.1, maximum.2 - minimum.2]
        let axis = spreads.firstIndex(of: spreads.max() ?? 0) ?? 0
        func value(_ i: Int) -> Double { axis == 0 ? xyz[i].0 : (axis == 1 ? xyz[i].1 : xyz[i].2) }
        let sorted = (lo..<hi).sorted { value($0) < value($1) || (value($0) == value($1) && order[$0] < order[$1]) }
        let newXYZ = sorted.map { xyz[$0] }, newOrder = sorted.map { order[$0] }
        for (k, i) in (lo..<hi).enumerated() {
            xyz[i] = newXYZ[k]
            order[i] = newOrder[k]
        }
        let mid = (lo + hi) >> 1
        axes[mid] = UInt8(axis)
        arrange(lo, mid)
        arrange(mid + 1, hi)
    }

    /// Walks the tree as lookups will: top nodes get heap numbers, small subtrees become pages.
    mutating func walk(_ lo: Int, _ hi: Int, _ t: Int) {
        if hi <= lo { return }
        let mid = (lo + hi) >> 1
        topNodes[t] = mid
        topRanges[t] = lo..<hi
        if hi - lo <= pageSize {
            kinds[t] = .page
            pages.append((t, nodeBlob(Array(lo..<hi), header: nil)))
            return
        }
        kinds[t] = .node
        walk(lo, mid, 2 * t + 1)
        walk(mid + 1, hi, 2 * t + 2)
    }

    func nodeBlob(_ nodes: [Int?], header: [UInt8]?) -> [UInt8] {
        var writer = ByteWriter(capacity: 16 + nodes.count * 48)
        writer.append(UInt32(nodes.count))
        writer.append(UInt32(withGroups ? 1 : 0))
        if let header { for byte in header.dropFirst(8) { writer.append(byte) } }
        writer.align(to: 8)
        for node in nodes {
            let p = node.map { xyz[$0] } ?? (0, 0, 0)
            writer.append(p.0)
            writer.append(p.1)
            writer.append(p.2)
        }
        for node in nodes { writer.append(node.map { places[order[$0]].id } ?? 0) }
        for node in nodes { writer.append(node.map { axes[$0] } ?? 0) }
        if withGroups {
            writer.align(to: 4)
            for node in nodes {
                let packed = node.map { PointIndex.packCountry(places[order[$0]].country) } ?? 0
                writer.append(UInt8(packed & 0xff))
                writer.append(UInt8(packed >> 8))
            }
            writer.align(to: 4)
            for node in nodes { writer.append(node.map { places[order[$0]].group } ?? 0) }
        }
        return writer.bytes
    }

    /// The top blob, once walked: a header, the top slots' nodes, then each slot's subtree box.
    func topBlob() -> [UInt8] {
        let slotCount = (topNodes.keys.max() ?? -1) + 1
        // Header: slot count, catchment flag, point count, padding, then the kinds.
        var header = ByteWriter()
        header.append(UInt32(slotCount))
        header.append(UInt32(withGroups ? 1 : 0))
        header.append(UInt32(places.count))
        header.append(UInt32(0))
        for t in 0..<slotCount { header.append(kinds[t]?.rawValue ?? 0) }
        var top = nodeBlob((0..<slotCount).map { topNodes[$0] }, header: header.bytes)
        // After the node arrays: each top slot's subtree bounding box (min x, y, z, max x, y, z), so a
        // lookup can skip a whole subtree, or a page it would otherwise read, that is too far away.
        var boxes = ByteWriter()
        for t in 0..<slotCount {
            var low = (Double.infinity, Double.infinity, Double.infinity), high = (-Double.infinity, -Double.infinity, -Double.infinity)
            for i in topRanges[t] ?? 0..<0 {
                let p = xyz[i]
                low = (min(low.0, p.0), min(low.1, p.1), min(low.2, p.2))
                high = (max(high.0, p.0), max(high.1, p.1), max(high.2, p.2))
            }
            for value in [low.0, low.1, low.2, high.0, high.1, high.2] { boxes.append(value) }
        }
        while top.count % 8 != 0 { top.append(0) }
        top.append(contentsOf: boxes.bytes)
        return top
    }
}

extension PointIndex {
    /// An index straight from a builder's output: pages in memory, or served one by one when
    /// `onDemand` (as a single lookup reads them from the database).
    package convenience init(built: PointIndexBuilder.Output, onDemand: Bool = false) throws {
        let slotLimit = built.pages.map(\.number).max().map { $0 + 1 } ?? 0
        var blobs = [BlobStorage?](repeating: nil, count: slotLimit)
        for page in built.pages { blobs[page.number] = BlobStorage(bytes: page.blob) }
        let loaded = blobs
        let pages = onDemand ? PagedBlobs(count: slotLimit) { loaded[$0] } : PagedBlobs(preloaded: loaded)
        try self.init(topBlob: BlobStorage(bytes: built.top), pages: pages)
    }
}
