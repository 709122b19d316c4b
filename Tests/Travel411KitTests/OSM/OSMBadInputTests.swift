import Foundation
import Testing
import Travel411Core
import Travel411Import
import Travel411OSM
import Travel411OSMReader
import Travel411Store

/// Broken extracts: each gives a clear error naming the file (exit 65, 66 for a file that is not there) or counted
/// warnings, never a crash or a hang, and the node location index is gone afterwards. The crafted PBFs are in
/// Tests/Fixtures/osm/broken (made by make-broken-pbfs.py there); the rest are made here.
@Suite struct OSMBadInputTests {
    /// Reads `path` with a private temporary folder; returns the error, and checks that the folder is left empty.
    private func readError(_ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> OSMExtractError? {
        try TemporaryFolder.with { folder in
            defer {
                #expect(folder.openFiles().isEmpty, sourceLocation: sourceLocation)
                #expect((try? folder.contents()) == [], sourceLocation: sourceLocation)
                #expect(TemporaryFolder.descriptors(openOn: path) == 0, "\(path) is still open", sourceLocation: sourceLocation)
            }
            return #expect(throws: OSMExtractError.self, sourceLocation: sourceLocation) {
                try OSMExtractReader(path: path, temporaryDirectory: folder.path).read { _ in }
            }
        }
    }

    private func readWarnings(_ xml: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> (
        [OSMFeature], OSMReadSummary
    ) {
        try TemporaryFolder.with { folder in
            let path = try folder.write("input.osm", xml)
            var features: [OSMFeature] = []
            let summary = try OSMExtractReader(path: path, temporaryDirectory: folder.path).read { features.append($0) }
            #expect(try folder.contents(except: ["input.osm"]).isEmpty, sourceLocation: sourceLocation)
            return (features, summary)
        }
    }

    @Test func aMissingFile() throws {
        let error = try readError("/nonexistent/extract.osm.pbf")
        #expect(error?.description == "/nonexistent/extract.osm.pbf: no such file")
        #expect(error?.exitStatus == .noInput)
    }

    @Test func aFolder() throws {
        let error = try readError(OSMFixtures.folder.path)
        #expect(error?.description.hasSuffix(": is a folder, not an OpenStreetMap extract") == true)
        #expect(error?.exitStatus == .noInput)
    }

    @Test func anEmptyFile() throws {
        try TemporaryFolder.with { input in
            let error = try readError(try input.write("empty.osm.pbf", [UInt8]()))
            #expect(error?.description == "\(input.path)/empty.osm.pbf: is empty, not an OpenStreetMap extract")
            #expect(error?.exitStatus == .dataError)
        }
    }

    @Test func aTruncatedPBF() throws {
        let whole = [UInt8](try Data(contentsOf: URL(fileURLWithPath: OSMFixtures.liechtenstein)))
        try TemporaryFolder.with { input in
            // Cut inside a blob, inside a blob header, and inside the 4-byte length of the first header.
            for length in [whole.count / 2, 300_001, 2] {
                let path = try input.write("cut-\(length).osm.pbf", Array(whole.prefix(length)))
                let error = try readError(path)
                #expect(error?.exitStatus == .dataError)
                #expect(error?.description.hasPrefix("\(path): ") == true, "\(length)")
                if length > 2 {
                    #expect(
                        error?.description.hasPrefix("\(path): is cut short (an interrupted download?): PBF error: unexpected EOF") == true,
                        "\(error?.description ?? "")")
                }
            }
        }
    }

    /// The compressed XML that Geofabrik and the planet publish, cut short as a download can be.
    @Test func aTruncatedCompressedXML() throws {
        try TemporaryFolder.with { input in
            for (tool, suffix) in [("gzip", "gz"), ("bzip2", "bz2")] {
                let whole = try OSMFixtures.compress(OSMFixtures.path("test_multipolygon.osm"), with: tool, into: input.url, suffix: suffix)
                let path = try input.write("cut.osm.\(suffix)", Array(whole.prefix(whole.count / 2)))
                let error = try readError(path)
                #expect(error?.exitStatus == .dataError)
                #expect(
                    error?.description.hasPrefix("\(path): is cut short (an interrupted download?): unexpected EOF: \(tool) error") == true,
                    "\(error?.description ?? "")")
            }
        }
    }

    @Test func randomBytes() throws {
        var generator = SplitMix64(seed: 411)
        try TemporaryFolder.with { input in
            for round in 0..<20 {
                let bytes = (0..<(1 + Int(generator.next() % 5000))).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
                let path = try input.write("random-\(round).osm.pbf", bytes)
                let error = try readError(path)
                #expect(error?.exitStatus == .dataError, "\(error?.description ?? "no error")")
            }
        }
    }

    @Test func aBlobHeaderClaiming2GB() throws {
        let length = try readError(OSMFixtures.path("broken/blob-header-length-2gb.osm.pbf"))
        #expect(length?.description.contains("BlobHeader size") == true, "\(length?.description ?? "")")
        let size = try readError(OSMFixtures.path("broken/blob-size-2gb.osm.pbf"))
        #expect(size?.description.contains("blob size") == true, "\(size?.description ?? "")")
        let raw = try readError(OSMFixtures.path("broken/raw-size-2gb.osm.pbf"))
        #expect(raw?.exitStatus == .dataError, "\(raw?.description ?? "")")
    }

    @Test func aZlibBomb() throws {
        // Claims 32 MB (the most a PBF blob may hold), inflates to 64 MB: refused after 32 MB, not read on.
        let error = try readError(OSMFixtures.path("broken/zlib-bomb.osm.pbf"))
        #expect(error?.exitStatus == .dataError)
        #expect(error?.description.contains("zlib") == true, "\(error?.description ?? "")")
    }

    @Test func xmlThatIsNotWellFormed() throws {
        try TemporaryFolder.with { input in
            let path = try input.write(
                "broken.osm", "<?xml version='1.0'?>\n<osm version='0.6'>\n  <node id='1' lat='1' lon='1'>\n  </way>\n</osm>\n")
            let error = try readError(path)
            #expect(error?.exitStatus == .dataError)
            #expect(error?.description.contains("line 4") == true, "\(error?.description ?? "")")
        }
    }

    @Test func anUnsortedFile() throws {
        try TemporaryFolder.with { input in
            let path = try input.write(
                "unsorted.osm",
                """
                <osm version='0.6'>
                  <node id='1' lat='1' lon='1'/><node id='2' lat='1' lon='2'/>
                  <way id='5'><nd ref='1'/><nd ref='2'/></way>
                  <way id='3'><nd ref='1'/><nd ref='2'/></way>
                </osm>
                """)
            let error = try readError(path)
            #expect(error?.description.contains("not sorted") == true, "\(error?.description ?? "")")
        }
    }

    @Test func aTemporaryFolderThatDoesNotExist() throws {
        var reader = OSMExtractReader(path: OSMFixtures.liechtenstein, temporaryDirectory: "/nonexistent-travel411")
        reader.inMemoryLocationsBelow = 0
        #expect {
            try reader.read { _ in }
        } throws: { error in
            (error as? OSMExtractError)?.exitStatus == .cannotCreate
                && "\(error)".hasSuffix(
                    // The relations' files are the first the read makes (`RelationAreaStore`), then the node store.
                    "cannot create the relations' temporary files in /nonexistent-travel411: No such file or directory "
                        + "(set TMPDIR to a folder with room for 16 bytes per node of the extract)")
        }
    }

    @Test func aWayWithNoNodes() throws {
        let (features, summary) = try readWarnings(
            """
            <osm version='0.6'>
              <node id='1' lat='47.1' lon='9.5'/><node id='2' lat='47.1' lon='9.51'/>
              <way id='1'><tag k='highway' v='residential'/><tag k='name' v='Leerweg'/></way>
              <way id='2'><nd ref='1'/><tag k='highway' v='residential'/><tag k='name' v='Punktweg'/></way>
              <way id='3'><nd ref='1'/><nd ref='2'/><tag k='highway' v='residential'/><tag k='name' v='Weg'/></way>
            </osm>
            """)
        #expect(summary.warnings == [.wayWithoutNodes: 2])
        #expect(summary.warningExamples[.wayWithoutNodes] == [OSMElementID(.way, 1), OSMElementID(.way, 2)])
        #expect(features.map(\.name) == ["Weg"])
    }

    @Test func anUnclosedBoundary() throws {
        let (features, summary) = try readWarnings(
            """
            <osm version='0.6'>
              <node id='1' lat='0' lon='0'/><node id='2' lat='0' lon='1'/><node id='3' lat='1' lon='1'/><node id='4' lat='1' lon='0'/>
              <way id='1'><nd ref='1'/><nd ref='2'/><nd ref='3'/><nd ref='4'/></way>
              <way id='2'><nd ref='1'/><nd ref='2'/><nd ref='3'/><nd ref='4'/><nd ref='2'/>
                <tag k='boundary' v='administrative'/><tag k='admin_level' v='8'/><tag k='name' v='Knoten'/></way>
              <relation id='1'><member type='way' ref='1' role='outer'/>
                <tag k='type' v='boundary'/><tag k='boundary' v='administrative'/><tag k='admin_level' v='8'/><tag k='name' v='Offen'/></relation>
            </osm>
            """)
        #expect(features.isEmpty)
        // The relation's ring does not close; the way closes on itself, crossing: no polygon from either.
        #expect(summary.warnings[.ringNotClosed] == 1)
        #expect(summary.warningExamples[.ringNotClosed] == [OSMElementID(.relation, 1)])
    }

    @Test func aRelationWithMissingMembers() throws {
        let (features, summary) = try readWarnings(
            """
            <osm version='0.6'>
              <node id='1' lat='0' lon='0'/><node id='2' lat='0' lon='1'/><node id='3' lat='1' lon='1'/>
              <way id='1'><nd ref='1'/><nd ref='2'/><nd ref='3'/></way>
              <relation id='9'><member type='way' ref='1' role='outer'/><member type='way' ref='77' role='outer'/>
                <tag k='type' v='boundary'/><tag k='boundary' v='administrative'/><tag k='admin_level' v='6'/></relation>
            </osm>
            """)
        #expect(features.isEmpty)
        #expect(summary.warnings == [.relationMembersMissing: 1])
        #expect(summary.warningExamples[.relationMembersMissing] == [OSMElementID(.relation, 9)])
    }

    @Test func aWayWithNodesMissing() throws {
        let (features, summary) = try readWarnings(
            """
            <osm version='0.6'>
              <node id='1' lat='47.1' lon='9.5'/><node id='2' lat='47.1' lon='9.51'/>
              <way id='1'><nd ref='1'/><nd ref='2'/><nd ref='3'/><tag k='highway' v='residential'/><tag k='name' v='Randweg'/></way>
            </osm>
            """)
        #expect(summary.warnings == [.wayNodesMissing: 1])
        #expect(features.first?.shape == .lineString([Point2D(x: 9.5, y: 47.1), Point2D(x: 9.51, y: 47.1)]))
    }
}
