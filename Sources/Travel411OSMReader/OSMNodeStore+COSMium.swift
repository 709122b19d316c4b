import COSMium
import Travel411OSM

/// The node stores as COSMium names them.
extension OSMNodeStore {
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
