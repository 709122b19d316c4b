import Foundation
import Travel411Core

/// `where --output FILE`: the batch writes into a temporary file beside FILE that is renamed over it only
/// when the whole run has been written, so an interrupted or killed run never leaves a partial FILE (an
/// older FILE stays as it was). Output may name the input: the input is read to the end before the rename.
public enum BatchOutputFile {
    /// Opens the temporary file, hands its descriptor to `write`, and moves it into place when `write`
    /// returns. Rows that carry errors are still a complete output; only a thrown error discards it.
    public static func write<Result>(to path: String, _ write: (Int32) throws -> Result) throws -> Result {
        var result: Result?
        try AtomicFileReplacement.replace(URL(fileURLWithPath: path)) { temporary in
            let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
            guard descriptor >= 0 else {
                throw AtomicFileReplacementError.system("cannot create \(temporary.lastPathComponent)", path: path)
            }
            defer { close(descriptor) }
            result = try write(descriptor)
        }
        guard let result else { throw AtomicFileReplacementError(path: path, message: "nothing was written") }
        return result
    }
}
