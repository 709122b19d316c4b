import Foundation
import Travel411CLI
import Travel411Core

/// `travel411-tools`, which runs every command but `where`, `import` of shapefiles and `serve`. In a SwiftPM build
/// folder (`swift run travel411 map …`) it is built first when it is missing or older than its sources, so that no
/// one needs to know it exists; an installed `travel411` expects it beside itself.
enum ToolsExecutable {
    static let name = "travel411-tools"

    /// Runs `travel411-tools ARGUMENTS` in place of this process, building it first when it needs to be.
    static func handOver(_ arguments: [String]) throws -> Never {
        let folder = ExecutableHandOver.ownFolder
        let tools = folder.appendingPathComponent(name)
        let build = SwiftPMBuild(product: name, buildFolder: folder)
        if let package = build.packageFolder.map(URL.init(fileURLWithPath:)),
            FileManager.default.fileExists(atPath: package.appendingPathComponent("Package.swift").path),
            isOutdated(tools, sources: package.appendingPathComponent("Sources"))
        {
            try run(build, in: package, for: arguments.first ?? "")
        }
        guard FileManager.default.isExecutableFile(atPath: tools.path) else {
            throw UserFacingError(
                "`travel411 \(arguments.first ?? "")` is run by \(name), which is not beside travel411 in \(folder.path): build it with `swift build -c release --product \(name)` and put it there",
                exitStatus: .unavailable)
        }
        try ExecutableHandOver.exec(tools, arguments)
    }

    /// Missing, or older than a source file it is built from: every folder of Sources/ but those of `travel411`
    /// itself and of the server, which it does not link (so that building them alone never makes it look old).
    static func isOutdated(_ tools: URL, sources: URL) -> Bool {
        guard let built = modificationDate(tools) else { return true }
        let notLinked: Set<String> = ["travel411", "travel411-serve", "Travel411Server"]
        let keys: [URLResourceKey] = [.contentModificationDateKey, .isDirectoryKey]
        guard let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: keys) else { return false }
        let sourcesPath = sources.standardizedFileURL.path
        for case let file as URL in files {
            let values = try? file.resourceValues(forKeys: Set(keys))
            if values?.isDirectory == true {
                // A folder's own time changes when a file comes or goes, which says nothing of what the tools link.
                if file.deletingLastPathComponent().standardizedFileURL.path == sourcesPath, notLinked.contains(file.lastPathComponent) {
                    files.skipDescendants()
                }
            } else if let changed = values?.contentModificationDate, changed > built {
                return true
            }
        }
        return false
    }

    private static func modificationDate(_ file: URL) -> Date? {
        (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
    }

    /// `swift build --product travel411-tools`, its output on stderr so that stdout holds only the command's own.
    private static func run(_ build: SwiftPMBuild, in package: URL, for command: String) throws {
        Diagnostics.print("travel411: `\(command)` is run by \(name); building it first: \(build.command)")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + build.arguments
        process.currentDirectoryURL = package
        process.standardOutput = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw UserFacingError("cannot run `\(build.command)` to build \(name): \(error.localizedDescription)", exitStatus: .unavailable)
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw UserFacingError(
                "`\(build.command)` failed (exit status \(process.terminationStatus)), so `travel411 \(command)` cannot run; its messages are above",
                exitStatus: .unavailable)
        }
    }
}
