import Foundation
import Travel411Geocoder

/// How much of the database a batch reads before its first row.
///
/// Reading every level up front (`.everything`) makes each row cheap but costs the start-up of a large batch
/// (about 0.1 s of CPU and 100 MB on the embedded data) whatever the input's size. An input known to be small (a
/// file, or standard input redirected from one, of at most `smallInputBytes`) is answered as a single `where`
/// is: each tile read when first touched. A pipe's size is unknown until its writer closes it: `peek` reads
/// what the pipe already holds, and a pipe closed within `smallInputBytes` is small too (`echo 51.47,-0.45 |`).
/// The answers are the same either way, only the cost differs.
public enum BatchLoading {
    /// About 2,000 rows of `lat,lon` CSV: below it the levels a batch touches cost less than reading them all.
    public static let smallInputBytes = 64 * 1024

    /// How long the peek waits for a pipe's next bytes: a writer that has everything ready (`echo`, `cat` of a
    /// small file) closes the pipe far sooner; one that is slower is treated as a stream, as before the peek.
    static let peekWaitMilliseconds: Int32 = 20

    /// The loading for `inputPath` (nil or "-": standard input).
    public static func loading(forInputPath inputPath: String?) -> ReverseGeocoder.Loading {
        var status = stat()
        let found =
            if let inputPath, inputPath != "-" { stat(inputPath, &status) == 0 } else { fstat(STDIN_FILENO, &status) == 0 }
        guard found, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= smallInputBytes else { return .everything }
        return .onDemand
    }

    /// Standard input (or another descriptor) made ready for a batch: a regular file as `loading(forInputPath:)`
    /// says; a pipe, terminal or socket read while its bytes arrive without a pause, up to `smallInputBytes`. The
    /// bytes read stay in the returned source, so the batch reads them first.
    public static func peek(fd: Int32 = STDIN_FILENO, name: String = "standard input") throws -> (
        loading: ReverseGeocoder.Loading, source: any BatchByteSource
    ) {
        let descriptor = FileDescriptorSource(fd: fd, name: name)
        guard descriptor.mayWaitForAWriter else { return (loading(forInputPath: "-"), descriptor) }
        var held: [UInt8] = []
        var block = [UInt8](repeating: 0, count: 16 << 10)
        while held.count <= smallInputBytes, descriptor.hasInputWaiting(withinMilliseconds: peekWaitMilliseconds) {
            let count = try block.withUnsafeMutableBytes { try descriptor.read(into: $0) }
            if count == 0 { return (.onDemand, HeldBytesSource(held, then: descriptor)) }
            held += block[0..<count]
        }
        return (.everything, HeldBytesSource(held, then: descriptor))
    }
}

/// Bytes already read from a source, given back before the rest of it.
final class HeldBytesSource: BatchByteSource {
    private let held: MemorySource
    private var heldLeft: Int
    private let rest: any BatchByteSource

    init(_ held: [UInt8], then rest: any BatchByteSource) {
        self.held = MemorySource(held)
        heldLeft = held.count
        self.rest = rest
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        guard heldLeft > 0 else { return try rest.read(into: buffer) }
        let count = try held.read(into: buffer)
        heldLeft -= count
        return count
    }

    func hasInputWaiting() -> Bool { heldLeft > 0 || rest.hasInputWaiting() }
}
