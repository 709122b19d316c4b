/// Numbered blobs that a lookup reads either all up front (a batch: every page at start-up) or each when
/// first touched (a single `where`: only the pages near the point are ever read). Either way any number
/// of threads may read them: pages read late are stored in `LazySlots`, once.
package final class PagedBlobs: Sendable {
    private let slots: LazySlots<BlobStorage>
    private let loader: (@Sendable (Int) -> BlobStorage?)?

    /// All pages in memory; `pages[n]` is nil where there is no page n.
    package init(preloaded pages: [BlobStorage?]) {
        slots = LazySlots(count: pages.count)
        for (number, page) in pages.enumerated() { slots.fill(number, with: page ?? BlobStorage.absent) }
        loader = nil
    }

    /// Pages read on first use; `loader` gives nil for a page that does not exist.
    package init(count: Int, loader: @escaping @Sendable (Int) -> BlobStorage?) {
        slots = LazySlots(count: count)
        self.loader = loader
    }

    package var count: Int { slots.count }
    /// True when every page was read up front.
    var isPreloaded: Bool { loader == nil }

    package subscript(number: Int) -> BlobStorage? {
        let page = slots.withValue(at: number, orMake: { loader.map { $0(number) ?? BlobStorage.absent } }) { $0 }
        return page === BlobStorage.absent ? nil : page
    }
}
