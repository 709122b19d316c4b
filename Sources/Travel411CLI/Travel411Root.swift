import ArgumentParser
import Foundation
import Travel411Core

/// What `travel411` and `travel411-tools` share at their root: the name, help and version every command's help and
/// usage show, and the one place where every command's errors end.
package enum Travel411Root {
    /// The root's configuration with `subcommands`: both executables' roots, so that help and usage read the same
    /// whichever of them answers.
    package static func configuration(subcommands: [any ParsableCommand.Type]) -> CommandConfiguration {
        CommandConfiguration(
            commandName: "travel411",
            abstract: "Offline reverse geocoder and travel guide.",
            discussion: """
                No network, no API key, no quota: everything is answered from a local places database built from shapefiles.

                Exit status: 0 success, 1 failure, 64 usage error, 65 bad input data, 66 missing input file, \
                69 a needed part is unavailable, 73 an output cannot be created, 74 I/O error, 75 try again \
                (the state file stayed locked).
                """,
            version: Travel411.version,
            subcommands: subcommands
        )
    }

    /// Parses the arguments with `root` and runs the command. Each `Travel411Error` says its exit status;
    /// usage errors (64), help and `--version` are left to swift-argument-parser, with our prefix.
    package static func main<Root: ParsableCommand>(_ root: Root.Type, arguments: [String]) async {
        do {
            // ArgumentParser would read a negative longitude such as "-0.1919" as an unknown option; protect
            // such arguments first so `move-city 51.5010 -0.1919` and `--from 51.47 -0.45` work.
            var command = try root.parseAsRoot(NegativeNumberArguments.protect(arguments))
            do {
                // `quakes` waits for a feed from the network; every other command runs straight through.
                if var asynchronous = command as? any AsyncParsableCommand {
                    try await asynchronous.run()
                } else {
                    try command.run()
                }
            } catch let error as ValidationError {
                // A usage error found only while running (a size that depends on --out): the same message and
                // exit 64 as from validate(), with the usage of the command that was run, not the root's.
                Diagnostics.error(error.message)
                Diagnostics.print(usageMessage(for: type(of: command), root: root))
                Foundation.exit(ExitCode.validationFailure.rawValue)
            }
        } catch let error as any Travel411Error {
            Diagnostics.error(error.description)
            Foundation.exit(error.exitStatus.rawValue)
        } catch {
            let code = root.exitCode(for: error)
            guard code != .success else { root.exit(withError: error) }  // --help, --version
            let message = root.fullMessage(for: error)
            if !message.isEmpty {
                let body = message.hasPrefix("Error: ") ? String(message.dropFirst("Error: ".count)) : message
                Diagnostics.error(body)
            }
            Foundation.exit(code.rawValue)
        }
    }

    /// "Usage: travel411 map [...]" and where to read more, as swift-argument-parser prints them after a usage error.
    package static func usageMessage<Root: ParsableCommand>(for command: any ParsableCommand.Type, root: Root.Type) -> String {
        let usage = root.usageString(for: command)
        // The command's words come first ("travel411 destination create"), then its arguments.
        let path = usage.split(separator: " ").prefix { !"[<-".contains($0.first ?? "[") }.joined(separator: " ")
        return "Usage: \(usage)\n  See '\(path) --help' for more information."
    }
}
