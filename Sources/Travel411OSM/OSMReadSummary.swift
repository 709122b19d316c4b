import Foundation
import Travel411Core

/// A fault in an extract that the reader counts and goes past: each one costs at most the feature it concerns.
public enum OSMReadWarning: String, CaseIterable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// A multipolygon or boundary relation with members missing from the extract: normal at an extract's edge,
    /// where boundaries are cut. It is assembled from the member ways there are, as osm2pgsql does: a polygon where
    /// they close their rings (a building's outer way), none where the cut leaves them open.
    case relationMembersMissing
    /// An area whose rings do not close: no polygon.
    case ringNotClosed
    /// An area whose rings cross or overlap so that libosmium cannot assemble them: no polygon.
    case invalidArea
    /// A way with fewer than two nodes.
    case wayWithoutNodes
    /// A street, address or POI way some of whose nodes are missing from the extract: it keeps the nodes there are.
    case wayNodesMissing

    public var description: String {
        switch self {
        case .relationMembersMissing: return "relations with members missing from the extract"
        case .ringNotClosed: return "areas whose rings do not close"
        case .invalidArea: return "areas whose rings cross or overlap"
        case .wayWithoutNodes: return "ways with fewer than two nodes"
        case .wayNodesMissing: return "ways with nodes missing from the extract"
        }
    }

    public static func < (lhs: OSMReadWarning, rhs: OSMReadWarning) -> Bool {
        (allCases.firstIndex(of: lhs) ?? 0) < (allCases.firstIndex(of: rhs) ?? 0)
    }
}

/// What one read found: the features by kind, the warnings by reason (with the first few elements of each, so
/// that a user can look them up), and the elements read.
public struct OSMReadSummary: Hashable, Sendable {
    public var features: [OSMFeatureKind: Int] = [:]
    public var warnings: [OSMReadWarning: Int] = [:]
    /// Up to `exampleLimit` elements for each warning, in the order they were met.
    public var warningExamples: [OSMReadWarning: [OSMElementID]] = [:]
    public var nodes = 0
    /// Where node locations were kept (nil when the read stopped before its nodes).
    public var nodeStore: OSMNodeStore?
    public var ways = 0
    public var relations = 0
    /// When the data was current: the newest element's timestamp (osm2pgsql's `current_timestamp`, which
    /// Nominatim's /status gives as `data_updated`); nil when the elements carry none.
    public var dataTimestamp: Date?
    /// Each file's extent of node locations, in the order of the paths read (nil for a file without any).
    public var fileExtents: [BoundingBox?] = []

    public static let exampleLimit = 5

    public init() {}

    public func count(_ kind: OSMFeatureKind) -> Int { features[kind, default: 0] }
    public func count(_ warning: OSMReadWarning) -> Int { warnings[warning, default: 0] }
    public var featureCount: Int { features.values.reduce(0, +) }
    public var warningCount: Int { warnings.values.reduce(0, +) }

    package mutating func add(_ warning: OSMReadWarning, _ element: OSMElementID) {
        warnings[warning, default: 0] += 1
        if warningExamples[warning, default: []].count < Self.exampleLimit {
            warningExamples[warning, default: []].append(element)
        }
    }
}

/// How far a read has come: the file is read twice, the multipolygon and boundary relations first (pass 1),
/// then everything (pass 2, where the features come).
public struct OSMReadProgress: Hashable, Sendable {
    public var pass: Int
    public var bytesRead: Int
    public var fileSize: Int
    /// In pass 2, the bytes read when the ways and relations began; nil while the nodes go by.
    public var nodeBytes: Int?

    public init(pass: Int, bytesRead: Int, fileSize: Int, nodeBytes: Int? = nil) {
        self.pass = pass
        self.bytesRead = bytesRead
        self.fileSize = fileSize
        self.nodeBytes = nodeBytes
    }

    /// 0 to 1 over both passes. The first counts as a tenth: it skips the nodes and hands over no feature, and
    /// takes about a tenth of a large extract's read; on a file of a few hundred kilobytes it takes half the
    /// read, which is over in a fraction of a second either way. In the second the nodes' bytes count a
    /// quarter as much as the ways' and relations': on a large extract they are 70 % of the file but under a
    /// fifth of the pass's time. From where the ways begin, the rest of the bar follows their bytes.
    public var fraction: Double {
        guard fileSize > 0 else { return 1 }
        let done = min(1, Double(bytesRead) / Double(fileSize))
        guard pass >= 2 else { return done * 0.1 }
        let nodesWeight = 0.25
        guard let nodeBytes else { return 0.1 + 0.9 * nodesWeight * done }
        let start = 0.1 + 0.9 * nodesWeight * min(1, Double(nodeBytes) / Double(fileSize))
        let remaining = fileSize - nodeBytes
        let ways = remaining > 0 ? min(1, Double(max(0, bytesRead - nodeBytes)) / Double(remaining)) : 1
        return start + (1 - start) * ways
    }
}
