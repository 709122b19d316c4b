import CZlib
import Foundation
import Testing

@testable import Travel411Store

/// The stored form of the lookup pages (`PageCompression`): every page comes back byte for byte, and a damaged
/// blob is refused with an `IndexFormatError`, never read past its end or allocated from a wild size.
struct PageCompressionTests {
    /// Real bytes of every kind: the time zones' shapes (doubles), index (integers) and attributes (text).
    static let samples: [[UInt8]] = ["shp", "shx", "dbf"].compactMap { ext in
        let url = PointTilesTests.dataFolder.appendingPathComponent("timezones/iana_time_zones.\(ext)")
        return (try? Data(contentsOf: url)).map { Array($0.prefix(256 << 10)) }
    }

    static func inflated(_ blob: [UInt8]) throws -> [UInt8] {
        let page = try blob.withUnsafeBytes { try PageCompression.page($0) }
        return Array(UnsafeRawBufferPointer(start: page.base, count: page.count))
    }

    @Test func everyPageComesBackAsItWas() throws {
        #expect(Self.samples.count == 3)
        for sample in Self.samples {
            for size in [1, 100, 4096, sample.count] {
                let page = Array(sample.prefix(size))
                let stored = PageCompression.compressed(page)
                #expect(try Self.inflated(stored) == page)
                #expect(try stored.withUnsafeBytes { try PageCompression.pageSize($0) } == page.count)
            }
            #expect(PageCompression.compressed(sample).count < sample.count)
        }
        #expect(try Self.inflated(PageCompression.compressed([])) == [])
    }

    /// Bytes deflate cannot shrink are stored as they are, five bytes more. (A deflated page is not such bytes:
    /// libdeflate's level 4 shrinks its own output of the time zones' shapes by a few hundred bytes.)
    @Test func incompressiblePagesAreStoredAsTheyAre() throws {
        // xorshift64's bytes: no repeats for deflate to find, and the same bytes on every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let noise = (0..<(64 << 10)).map { _ -> UInt8 in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state >> 24)
        }
        let stored = PageCompression.compressed(noise)
        #expect(stored.count == noise.count + PageCompression.headerSize)
        #expect(stored[0] == 0)
        #expect(try Self.inflated(stored) == noise)
    }

    /// Databases written before session 54 hold pages deflated by zlib's `compress2` (level 1): they read as before.
    @Test func pagesDeflatedByZlibStillRead() throws {
        for sample in Self.samples {
            var size = compressBound(uLong(sample.count))
            var stream = [UInt8](repeating: 0, count: Int(size))
            #expect(compress2(&stream, &size, sample, uLong(sample.count), 1) == Z_OK)
            let count = UInt32(sample.count)
            let header: [UInt8] = [1] + (0..<4).map { UInt8(truncatingIfNeeded: count >> (8 * $0)) }
            #expect(try Self.inflated(header + stream.prefix(Int(size))) == sample)
        }
    }

    @Test func damagedBlobsAreRefused() throws {
        let stored = PageCompression.compressed(Self.samples[2])
        var wrongMethod = stored
        wrongMethod[0] = 7
        var wildSize = stored
        wildSize.replaceSubrange(1..<5, with: [0xff, 0xff, 0xff, 0xff])
        var smallerSize = stored
        smallerSize[1] &-= 1
        var flipped = stored
        flipped[stored.count / 2] ^= 0xff
        let damaged: [[UInt8]] = [
            [], [1, 0, 0], wrongMethod, wildSize, smallerSize, Array(stored.prefix(stored.count / 2)), flipped,
            [0, 9, 0, 0, 0, 1, 2],
        ]
        for blob in damaged {
            #expect(throws: IndexFormatError.self) { try Self.inflated(blob) }
        }
    }
}
