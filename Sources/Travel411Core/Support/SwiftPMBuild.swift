import Foundation

/// The `swift build` that builds one of this package's products for the build folder a running executable is in,
/// e.g. `<package>/.build/x86_64-unknown-linux-gnu/release` gives `swift build -c release --product NAME`.
public struct SwiftPMBuild: Equatable, Sendable {
    /// `swift`'s arguments: `build`, then `-c release` and `--scratch-path` when the folder says so.
    public let arguments: [String]
    /// The package folder to run it in, when the build folder is inside one.
    public let packageFolder: String?

    public init(product: String, traits: [String] = [], buildFolder folder: URL) {
        let components = folder.standardizedFileURL.pathComponents
        var arguments = ["build"]
        if folder.lastPathComponent == "release" || components.dropLast().last == "release" {
            arguments += ["-c", "release"]
        }
        arguments += ["--product", product]
        if !traits.isEmpty { arguments += ["--traits", traits.joined(separator: ",")] }
        var packageFolder: String?
        if let build = components.lastIndex(where: { $0.hasPrefix(".build") }), build > 1 {
            packageFolder = NSString.path(withComponents: Array(components[..<build]))
            if components[build] != ".build" { arguments += ["--scratch-path", components[build]] }
        }
        self.arguments = arguments
        self.packageFolder = packageFolder
    }

    /// `swift build …` as one would type it.
    public var command: String { (["swift"] + arguments).joined(separator: " ") }

    /// "run `swift build …` in /path/to/package".
    public var instruction: String {
        "run `\(command)`" + (packageFolder.map { " in \($0)" } ?? "")
    }
}
