import Foundation
import Travel411Batch

/// USGS's two summary formats.
public enum QuakeFeedFormat: String, CaseIterable, Sendable {
    case csv, geojson
}

/// What a feed held: the events that read, and the records that did not.
public struct QuakeFeed: Sendable {
    public var format: QuakeFeedFormat
    public var quakes: [Quake]
    public var skipped: [SkippedQuakeRecord]
    /// Rows or features seen, skipped ones included.
    public var recordCount: Int

    public init(format: QuakeFeedFormat, quakes: [Quake], skipped: [SkippedQuakeRecord], recordCount: Int) {
        self.format = format
        self.quakes = quakes
        self.skipped = skipped
        self.recordCount = recordCount
    }

    /// Reads a feed of either format. The format is told by the content, not the name: a URL's
    /// path or a pipe says nothing reliable, and USGS serves both from similar addresses. JSON
    /// starts with `{` or `[`; anything else must be CSV with USGS's header.
    ///
    /// `source` names the input in messages ("2.5_month.csv", "standard input", a URL).
    public static func read(_ data: Data, source: String) throws -> QuakeFeed {
        // A UTF-8 byte-order mark (Windows editors write one) is no content of either format.
        let data = data.starts(with: [0xEF, 0xBB, 0xBF]) ? Data(data.dropFirst(3)) : data
        guard let first = data.first(where: { !JSONScanner.isWhitespace($0) }) else {
            throw QuakeFeedError.empty(source: source)
        }
        if looksBinary(data) {
            throw QuakeFeedError.notAFeed(source: source, reason: "it holds binary data, not CSV or JSON text")
        }
        switch first {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
            return try USGSGeoJSONFeedReader.read(data, source: source)
        default:
            return try USGSCSVFeedReader.read(data, source: source)
        }
    }

    /// NUL bytes or invalid UTF-8 in the first few kilobytes: an image, an archive, a database.
    static func looksBinary(_ data: Data) -> Bool {
        let head = data.prefix(4096)
        if head.contains(0) { return true }
        // The cut at 4 KiB may split one character: then up to three bytes at the end may go.
        let droppable = head.count < data.count ? min(3, head.count) : 0
        return !(0...droppable).contains { String(data: head.dropLast($0), encoding: .utf8) != nil }
    }
}
