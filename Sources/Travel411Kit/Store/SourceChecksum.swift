import Crypto
import Foundation

/// Fingerprints source files so an import can tell whether they changed since the last build.
public enum SourceChecksum {
    public struct ReadError: Error, CustomStringConvertible, LocalizedError {
        public let path: String
        public let reason: String
        public var description: String { "\(path): cannot read for its checksum: \(reason)" }
        public var errorDescription: String? { description }
    }

    private static let chunkSize = 1 << 20

    /// SHA-256 in lowercase hex of the files' contents, one after the other in the given order (so for a
    /// single file it equals `sha256sum`). Files are read in 1 MiB chunks, never whole.
    public static func sha256Hex(ofFiles files: [URL]) throws -> String {
        var hasher = SHA256()
        for file in files {
            let handle: FileHandle
            do {
                handle = try FileHandle(forReadingFrom: file)
            } catch {
                throw ReadError(path: file.path, reason: reasonText(error))
            }
            defer { try? handle.close() }
            do {
                while let chunk = try handle.read(upToCount: chunkSize), !chunk.isEmpty {
                    hasher.update(data: chunk)
                }
            } catch {
                throw ReadError(path: file.path, reason: reasonText(error))
            }
        }
        return hasher.finalize().map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Foundation's POSIX errors carry the plain strerror text; prefer it over the long generic wording.
    private static func reasonText(_ error: Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return error.localizedDescription
    }
}
