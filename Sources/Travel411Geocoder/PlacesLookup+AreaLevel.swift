import Dispatch
import Foundation
import Travel411Core
import Travel411Store

extension PlacesLookup {
    /// A polygon level: its index, and its polygons' texts (all in memory, or read when answered).
    package final class AreaLevel: Sendable {
        let index: AreaIndex
        /// The country feature each polygon belongs to (admin polygons, time zones, an extract's municipalities and
        /// suburbs), -1 for none; read up front when everything is (a batch, the server), and for the time zones.
        let countryFeatures: [Int32]
        /// The first-level area number of each admin polygon (`FirstLevelAreas`), 0 unknown; read up front as above.
        let firstLevels: [UInt32]
        /// Both, read one polygon at a time when they were not read up front: an extract's municipalities and
        /// suburbs grow with it, and one `where` asks for a few.
        private let fetchedLinks: LazySlots<FeatureLinks>
        private let fetchLinks: (@Sendable (Int) -> FeatureLinks?)?
        /// Every polygon's texts, when all were read up front; kept for `texts`' memory.
        private let preloaded: RecordTable?
        private let texts: RecordTableView?
        /// Texts read one polygon at a time, by feature.
        private let fetched: LazySlots<RecordTable>
        private let fetch: (@Sendable (Int) -> [String?]?)?

        /// A polygon's country feature and first-level area, as `countryFeatures` and `firstLevels` hold them.
        package final class FeatureLinks: Sendable {
            let country: Int32
            let firstLevel: UInt32

            package init(country: Int32, firstLevel: UInt32) {
                self.country = country
                self.firstLevel = firstLevel
            }
        }

        package init(
            index: AreaIndex, preloaded: RecordTable?, featureCount: Int = 0, countryFeatures: [Int32] = [],
            firstLevels: [UInt32] = [], fetchLinks: (@Sendable (Int) -> FeatureLinks?)? = nil,
            fetch: (@Sendable (Int) -> [String?]?)?
        ) throws {
            self.index = index
            self.countryFeatures = countryFeatures
            self.firstLevels = firstLevels
            fetchedLinks = LazySlots(count: fetchLinks == nil ? 0 : featureCount)
            self.fetchLinks = fetchLinks
            self.preloaded = preloaded
            texts = preloaded?.view
            fetched = LazySlots(count: preloaded == nil ? featureCount : 0)
            self.fetch = fetch
        }

        /// How many polygons' texts were read up front (0 when they are read one at a time).
        var preloadedCount: Int { preloaded?.recordCount ?? 0 }

        /// The country feature of a polygon; -1 when it has none.
        @inline(__always) func countryFeature(of feature: Int32) -> Int32 {
            if feature >= 0 && Int(feature) < countryFeatures.count { return countryFeatures[Int(feature)] }
            return fetchLinks == nil ? -1 : links(of: feature)?.country ?? -1
        }

        /// The first-level area number of an admin polygon; 0 when unknown.
        @inline(__always) func firstLevel(of feature: Int32) -> UInt32 {
            if feature >= 0 && Int(feature) < firstLevels.count { return firstLevels[Int(feature)] }
            return fetchLinks == nil ? 0 : links(of: feature)?.firstLevel ?? 0
        }

        private func links(of feature: Int32) -> (country: Int32, firstLevel: UInt32)? {
            let fetchLinks = self.fetchLinks
            return fetchedLinks.withValue(at: Int(feature), orMake: { fetchLinks?(Int(feature)) }) {
                ($0.country, $0.firstLevel)
            }
        }

        /// A cache hint for a text printed soon (`RecordTableView.prefetch`); nothing when the texts are
        /// read one polygon at a time.
        @inline(__always) func prefetchText(_ feature: Int, _ text: AreaText, stage: Int) {
            if let texts, feature < preloadedCount { texts.prefetch(feature, text.rawValue, stage: stage) }
        }

        /// The text's UTF-8 bytes, valid while this level lives; empty when absent.
        @inline(__always) package func bytes(_ feature: Int, _ text: AreaText) -> UnsafeBufferPointer<UInt8> {
            if let texts { return texts.bytes(feature, text.rawValue) }
            let fetch = self.fetch
            let bytes = fetched.withValue(
                at: feature,
                orMake: {
                    fetch?(feature).flatMap { row in
                        try? RecordTable(
                            storage: BlobStorage(
                                bytes: RecordTable.build(coordinates: nil, fields: [row], fieldCount: AreaText.allCases.count)))
                    }
                }, { $0.view.bytes(0, text.rawValue) })
            return bytes ?? UnsafeBufferPointer(start: nil, count: 0)
        }

    }
}
