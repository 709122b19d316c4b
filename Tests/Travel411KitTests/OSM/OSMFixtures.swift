import Foundation
import Travel411Core
import Travel411OSM
import Travel411OSMReader

/// The OpenStreetMap fixtures (Tests/Fixtures/osm, provenance in Tests/Fixtures/SOURCES.md) and what the tests
/// share: a private temporary folder for each read, so that a test can see that the reader left nothing in it.
enum OSMFixtures {
    static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/osm")

    static func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    static let liechtenstein = path("liechtenstein-2013-08-03.osm.pbf")
    static let helsinki = path("helsinki.osm.pbf")

    /// The two extracts read once per test process: several tests look at the same features.
    static let liechtensteinRead = Result { try readAll(liechtenstein) }
    static let helsinkiRead = Result { try readAll(helsinki) }

    /// Every feature of an extract and the summary, read with a private temporary folder.
    static func readAll(_ path: String) throws -> (features: [OSMFeature], summary: OSMReadSummary) {
        try TemporaryFolder.with { folder in
            var features: [OSMFeature] = []
            let summary = try OSMExtractReader(path: path, temporaryDirectory: folder.path).read { features.append($0) }
            return (features, summary)
        }
    }

    /// `source` compressed by the system's `tool` (gzip, bzip2) into `folder` as the source's name plus `.suffix`,
    /// as Geofabrik and the planet publish XML extracts; returns the compressed bytes.
    static func compress(_ source: String, with tool: String, into folder: URL, suffix: String) throws -> [UInt8] {
        let compressed = folder.appendingPathComponent(URL(fileURLWithPath: source).lastPathComponent + "." + suffix)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "\(tool) -c \"$1\" > \"$2\"", "sh", source, compressed.path]
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: ["tool": tool]) }
        return [UInt8](try Data(contentsOf: compressed))
    }
}

/// A folder of its own for one test, removed afterwards.
struct TemporaryFolder {
    let url: URL
    var path: String { url.path }

    static func with<Result>(_ body: (TemporaryFolder) throws -> Result) throws -> Result {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("travel411-osm-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: url) }
        return try body(TemporaryFolder(url: url))
    }

    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    func write(_ name: String, _ bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    /// The names in the folder, leaving out `except`.
    func contents(except: Set<String> = []) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: path).filter { !except.contains($0) }.sorted()
    }

    /// Descriptors this process holds open on `path` (libosmium's PBF parser once leaked one for each broken file).
    static func descriptors(openOn path: String) -> Int {
        let target = URL(fileURLWithPath: path).resolvingSymlinksInPath().path
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.filter { (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)")) == target }.count
    }

    /// Files this process holds open in the folder, deleted ones included (the node location index is unlinked
    /// as soon as it is made, so only /proc/self/fd still shows it).
    func openFiles() -> [String] {
        let descriptors = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return descriptors.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\($0)") }
            .filter { $0.hasPrefix(path + "/") }
    }
}
