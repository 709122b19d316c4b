import Foundation
import Testing
import Travel411Core
import Travel411OSM
import Travel411OSMReader

/// The node location stores (`OSMNodeStore`): each gives the same features, the automatic choice follows the
/// ids the ways use, and a store's file, in the temporary folder or at `nodesFile`, never outlives the read.
@Suite struct OSMNodeStoreTests {
    private static let multipolygons = OSMFixtures.path("test_multipolygon.osm")

    private func read(_ path: String, store: OSMNodeStore, in folder: TemporaryFolder, nodesFile: String? = nil) throws -> (
        features: [OSMFeature], summary: OSMReadSummary, openDuringRead: [String]
    ) {
        var reader = OSMExtractReader(path: path, temporaryDirectory: folder.path)
        reader.inMemoryLocationsBelow = 0  // as for an extract of 8 MB or more
        reader.nodeStore = store
        reader.nodesFile = nodesFile
        // On the reading thread, so that the body sees the files the read holds open: on its own thread, the body of
        // a file this small runs once the read is over (the features go over in batches).
        reader.bodyOnOwnThread = false
        var features: [OSMFeature] = []
        var openDuringRead: [String]?
        let summary = try reader.read { feature in
            if openDuringRead == nil { openDuringRead = folder.openFiles() }
            features.append(feature)
        }
        return (features, summary, openDuringRead ?? [])
    }

    @Test func everyStoreGivesTheSameFeatures() throws {
        try TemporaryFolder.with { folder in
            let memory = try read(Self.multipolygons, store: .memory, in: folder)
            #expect(memory.summary.nodeStore == .memory && !memory.features.isEmpty)
            for store in [OSMNodeStore.sparseFile, .denseFile] {
                let other = try read(Self.multipolygons, store: store, in: folder)
                #expect(other.summary.nodeStore == store)
                #expect(other.features == memory.features, "\(store)")
                var summary = other.summary
                summary.nodeStore = .memory
                #expect(summary == memory.summary, "\(store)")
            }
            #expect(try folder.contents().isEmpty && folder.openFiles().isEmpty)
        }
    }

    /// test_multipolygon.osm's ways use ids 1 to 354 (495 references), the Liechtenstein fixture's (renumbered)
    /// ids up to 65,733: a dense file is the smaller. Helsinki's 24,260 nodes have ids up to 6.4 billion: a dense
    /// file would be 51 GB, the sparse one 400 KB.
    @Test func theAutomaticChoiceFollowsTheIdsTheWaysUse() throws {
        try TemporaryFolder.with { folder in
            let small = try read(Self.multipolygons, store: .automatic, in: folder)
            let renumbered = try read(OSMFixtures.liechtenstein, store: .automatic, in: folder)
            let sparseIds = try read(OSMFixtures.helsinki, store: .automatic, in: folder)
            #expect(small.summary.nodeStore == .denseFile && renumbered.summary.nodeStore == .denseFile)
            #expect(sparseIds.summary.nodeStore == .sparseFile)
        }
        // A small file keeps its locations in memory.
        #expect(try OSMFixtures.liechtensteinRead.get().summary.nodeStore == .memory)
    }

    @Test func theNodesFileIsMadeWhereAskedAndGoneAfterwards() throws {
        try TemporaryFolder.with { folder in
            let nodesFile = folder.url.appendingPathComponent("nodes.bin").path
            for store in [OSMNodeStore.sparseFile, .denseFile] {
                let read = try read(Self.multipolygons, store: store, in: folder, nodesFile: nodesFile)
                #expect(read.openDuringRead.contains(nodesFile + " (deleted)"), "\(store)")
                // The relations' files go beside it (`RelationAreaStore`), unlinked as soon as they are made too.
                #expect(
                    read.openDuringRead.allSatisfy { $0.hasPrefix(folder.path + "/") && $0.hasSuffix(" (deleted)") }
                        && read.openDuringRead.count == 4, "\(read.openDuringRead)")
                #expect(try folder.contents().isEmpty && folder.openFiles().isEmpty)
            }
        }
    }

    @Test func anExistingNodesFileIsLeftAlone() throws {
        try TemporaryFolder.with { folder in
            let existing = try folder.write("nodes.bin", "keep me")
            var reader = OSMExtractReader(path: Self.multipolygons, temporaryDirectory: folder.path)
            reader.inMemoryLocationsBelow = 0
            reader.nodesFile = existing
            #expect {
                try reader.read { _ in }
            } throws: { error in
                (error as? OSMExtractError)?.exitStatus == .cannotCreate && "\(error)".contains("it exists: give the path of a new file")
            }
            #expect(try String(contentsOfFile: existing, encoding: .utf8) == "keep me")
        }
    }
}
