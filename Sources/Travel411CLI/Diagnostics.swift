import Foundation
import Travel411Core

/// Where diagnostics go: stderr, so stdout stays clean for results. Every line starts with
/// "travel411: error: " or "travel411: warning: " when it is one of those, and text from input files is
/// escaped before it gets here (`DisplayText`).
package enum Diagnostics {
    package static func print(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    package static func error(_ message: String) {
        print("travel411: error: " + DisplayText.escapingControls(message))
    }

    package static func warning(_ message: String) {
        print("travel411: warning: " + DisplayText.escapingControls(message))
    }

    package static var stderrIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
}
