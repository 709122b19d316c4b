/// Numbered blobs that a lookup reads either all up front (batches: many threads, no locks) or one by
/// one when first touched (a single `where`: only the pages near the point are ever read).
// @unchecked Sendable: preloaded (`isPreloaded`, what batches use) nothing is written after init; the
// on-demand cache is filled by the one thread a single lookup runs on.
final class PagedBlobs: @unchecked Sendable {
    private var pages: [BlobStorage?]
    private let loader: ((Int) throws -> BlobStorage?)?

    /// All pages in memory; `pages[n]` is nil where there is no page n.
    init(preloaded pages: [BlobStorage?]) {
        self.pages = pages
        loader = nil
    }

    /// Pages fetched on first use. Not thread-safe: the cache fills in as pages are touched.
    init(count: Int, loader: @escaping (Int) throws -> BlobStorage?) {
        pages = [BlobStorage?](repeating: nil, count: count)
        self.loader = loader
    }

    var count: Int { pages.count }
    /// True when every page was read up front, so nothing is ever written after creation.
    var isPreloaded: Bool { loader == nil }

    @inline(__always)
    subscript(number: Int) -> BlobStorage? {
        guard number >= 0, number < pages.count else { return nil }
        if let page = pages[number] { return page }
        guard let loader, let page = try? loader(number) else { return nil }
        pages[number] = page
        return page
    }
}
