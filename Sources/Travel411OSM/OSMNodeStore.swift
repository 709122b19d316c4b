import COSMium

/// Where the reader keeps node locations while it reads the ways (Sources/COSMium/NodeLocationStore.hpp).
/// `automatic` keeps a small file's in memory, and otherwise chooses from the ids the ways use: a dense file
/// (8 bytes for every id up to the largest) when it is no larger than a sparse one (16 bytes a node), as for
/// the planet; a sparse file otherwise, as for a country's extract.
public enum OSMNodeStore: String, CaseIterable, Sendable {
    case automatic
    case memory
    case sparseFile = "sparse-file"
    case denseFile = "dense-file"

    var cValue: cosm_node_store {
        switch self {
        case .automatic: return COSM_NODE_STORE_AUTOMATIC
        case .memory: return COSM_NODE_STORE_MEMORY
        case .sparseFile: return COSM_NODE_STORE_SPARSE_FILE
        case .denseFile: return COSM_NODE_STORE_DENSE_FILE
        }
    }

    init?(_ value: cosm_node_store) {
        switch value {
        case COSM_NODE_STORE_MEMORY: self = .memory
        case COSM_NODE_STORE_SPARSE_FILE: self = .sparseFile
        case COSM_NODE_STORE_DENSE_FILE: self = .denseFile
        default: return nil
        }
    }
}
