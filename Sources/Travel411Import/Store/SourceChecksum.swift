import CCrypto
import Foundation
import Travel411Core

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
        guard let context = EVP_MD_CTX_new() else {
            throw ReadError(path: files.first?.path ?? "", reason: "OpenSSL could not allocate a digest context")
        }
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
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
                    chunk.withUnsafeBytes { bytes in _ = EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) }
                }
            } catch {
                throw ReadError(path: file.path, reason: reasonText(error))
            }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        return digest.prefix(Int(length)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }

    /// Foundation's POSIX errors carry the plain strerror text; prefer it over the long generic wording.
    private static func reasonText(_ error: any Error) -> String {
        let nsError = error as NSError
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return String(cString: strerror(Int32(underlying.code)))
        }
        if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
        return error.localizedDescription
    }
}

extension SourceChecksum.ReadError: Travel411Error {
    public var exitStatus: ExitStatus { .noInput }
}
