import Foundation
import Travel411Core
import Travel411Store

/// Checks on an import's inputs as a whole, before anything is read: per-file options that name no input,
/// and inputs that duplicate one another.
enum ImportInputCheck {
    /// `--level FILE=LEVEL` and `--name-field FILE=FIELD` must each name an input, and a shapefile: a typo, or an
    /// extract, would otherwise leave the option silently unused.
    static func checkFileOptions(_ options: ImportOptions, against inputs: [URL]) throws {
        let files = options.fileLevels.map { ("--level", $0.file) } + options.fileNameFields.map { ("--name-field", $0.file) }
        for (option, file) in files {
            let probe = FileOption(file: file, value: 0)
            guard let input = inputs.first(where: probe.names) else {
                throw ImportError(
                    "\(option) \(file)=…: no input file is called \(file) (inputs: \(inputs.map(\.lastPathComponent).joined(separator: ", ")))"
                )
            }
            // An extract's layers are told by their tags: a level for it would be silently ignored.
            if OSMExtractImport.isExtract(input) {
                throw ImportError(
                    "\(option) \(file)=…: \(file) is an OpenStreetMap extract, whose layers are told by their tags; --level and --name-field map shapefiles"
                )
            }
        }
    }

    /// `--level LEVEL` (for every file) maps only files of no known layout; when every input was recognised, or is
    /// an extract, it mapped nothing, which the user should hear rather than believe it applied.
    static func unusedLevel(_ options: ImportOptions, plans: [LayerPlan]) -> [String] {
        guard let level = options.level else { return [] }
        let known = Set(LayerProfile.known.map(\.layout))
        guard plans.allSatisfy({ known.contains($0.profile.layout) }) else { return [] }
        return ["--level \(level.rawValue) mapped no file: every input's layout is a known one, or an OpenStreetMap extract's"]
    }

    /// Inputs whose bytes are those of an earlier input (the same extract twice, a copy of a Data/ layer):
    /// importing both would double every feature, so the later one is skipped, with a warning.
    static func duplicates(in inputs: [URL], checksums: [URL: String]) -> (skipped: Set<URL>, warnings: [String]) {
        var first: [String: URL] = [:]
        var skipped = Set<URL>()
        var warnings: [String] = []
        for url in inputs {
            guard let sum = checksums[url] else { continue }
            if let earlier = first[sum] {
                skipped.insert(url)
                warnings.append("\(url.path) has the same content as \(earlier.path): imported once")
            } else {
                first[sum] = url
            }
        }
        return (skipped, warnings)
    }

    /// Layers of the same layout and file name (two downloads of one Geofabrik region, say) that differ in
    /// content: both are imported, but they probably hold the same features twice.
    static func sameLayouts(_ plans: [LayerPlan]) -> [String] {
        var seen: [String: LayerPlan] = [:]
        var warnings: [String] = []
        for plan in plans {
            let key = plan.profile.layout + "\u{0}" + plan.url.lastPathComponent.lowercased()
            if let earlier = seen[key] {
                warnings.append(
                    "\(plan.url.path) (\(plan.profile.layout)) may duplicate \(earlier.url.path), a layer of the same layout and name: both are imported"
                )
            } else {
                seen[key] = plan
            }
        }
        return warnings
    }
}
