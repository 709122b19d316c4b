/// Where the reader keeps node locations while it reads the ways (Sources/COSMium/NodeLocationStore.hpp).
/// `automatic` keeps a small file's in memory, and otherwise chooses from the ids the ways use: a dense file
/// (8 bytes for every id up to the largest) when it is no larger than a sparse one (16 bytes a node), as for
/// the planet; a sparse file otherwise, as for a country's extract.
public enum OSMNodeStore: String, CaseIterable, Sendable {
    case automatic
    case memory
    case sparseFile = "sparse-file"
    case denseFile = "dense-file"
}
