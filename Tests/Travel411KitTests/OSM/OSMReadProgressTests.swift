import Testing

@testable import Travel411OSM

/// The bar over an extract's read: a tenth for the relations' pass, then the nodes' bytes at a quarter of the
/// ways', and never backwards.
struct OSMReadProgressTests {
    @Test func theFractionOnlyGrowsAndEndsAtOne() {
        let size = 1_000
        var reports = (0...size).map { OSMReadProgress(pass: 1, bytesRead: $0, fileSize: size) }
        reports += (0..<700).map { OSMReadProgress(pass: 2, bytesRead: $0, fileSize: size) }
        reports += (700...size).map { OSMReadProgress(pass: 2, bytesRead: $0, fileSize: size, nodeBytes: 700) }
        let fractions = reports.map(\.fraction)
        #expect(fractions == fractions.sorted())
        #expect(fractions.first == 0 && fractions.last == 1)
        #expect(abs(OSMReadProgress(pass: 1, bytesRead: size, fileSize: size).fraction - 0.1) < 1e-12)
        // Where the ways begin, 0.1 + 0.9 × 0.25 × 0.7: the rest of the bar is theirs.
        #expect(abs(OSMReadProgress(pass: 2, bytesRead: 700, fileSize: size, nodeBytes: 700).fraction - 0.2575) < 1e-12)
    }

    /// A small file is read ahead whole before its first way: the ways' part is then done at once.
    @Test func aFileReadAheadWholeEndsAtOne() {
        #expect(OSMReadProgress(pass: 2, bytesRead: 500, fileSize: 500, nodeBytes: 500).fraction == 1)
        #expect(OSMReadProgress(pass: 2, bytesRead: 0, fileSize: 0).fraction == 1)
    }
}
