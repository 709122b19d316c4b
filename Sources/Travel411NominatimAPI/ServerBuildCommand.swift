import Foundation
import Travel411Core
import Travel411Store

/// The command that builds `travel411-serve` for the configuration and package a given build folder belongs to.
/// Both executables name it: `travel411 serve` when the server is missing, and the server's own stub when it was
/// built without the Server trait (which leaves SwiftNIO and Hummingbird out of the core tool's build).
public struct ServerBuildCommand: Equatable, Sendable {
    public static let executableName = "travel411-serve"

    /// `swift build …`, with `-c release` and `--scratch-path` when the folder says so.
    public let command: String
    /// The package folder to run it in, when the build folder is inside one.
    public let packageFolder: String?

    /// `folder` is where the executables are, e.g. `<package>/.build/x86_64-unknown-linux-gnu/release`.
    public init(buildFolder folder: URL) {
        let build = SwiftPMBuild(product: Self.executableName, traits: ["Server"], buildFolder: folder)
        command = build.command
        packageFolder = build.packageFolder
    }

    /// "run `swift build …` in /path/to/package".
    public var instruction: String {
        "run `\(command)`" + (packageFolder.map { " in \($0)" } ?? "")
    }
}
