import Foundation
import Travel411Geocoder

/// How much of the database a batch reads before its first row.
///
/// Reading every level up front (`.everything`) makes each row cheap but costs the start-up of a large batch
/// (about 0.1 s of CPU and 100 MB on the embedded data) whatever the input's size. An input known to be small (a
/// file, or standard input redirected from one, of at most `smallInputBytes`) is answered as a single `where`
/// is: each tile read when first touched. A pipe's size is unknown, so it reads everything: the answers are the
/// same either way, only the cost differs.
public enum BatchLoading {
    /// About 2,000 rows of `lat,lon` CSV: below it the levels a batch touches cost less than reading them all.
    public static let smallInputBytes = 64 * 1024

    /// The loading for `inputPath` (nil or "-": standard input).
    public static func loading(forInputPath inputPath: String?) -> ReverseGeocoder.Loading {
        var status = stat()
        let found =
            if let inputPath, inputPath != "-" { stat(inputPath, &status) == 0 } else { fstat(STDIN_FILENO, &status) == 0 }
        guard found, (status.st_mode & S_IFMT) == S_IFREG, status.st_size <= smallInputBytes else { return .everything }
        return .onDemand
    }
}
