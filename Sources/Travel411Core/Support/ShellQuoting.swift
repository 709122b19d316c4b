import Foundation

/// Quotes words for a POSIX shell, so that a command shown in a message can be pasted as it is.
package enum ShellQuoting {
    /// The word as it is when the shell would not change it, else in single quotes.
    package static func quoted(_ word: String) -> String {
        if !word.isEmpty, word.unicodeScalars.allSatisfy(isPlain) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    private static func isPlain(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "_", "@", "%", "+", "=", ":", ",", ".", "/", "-": return true
        default: return false
        }
    }
}
