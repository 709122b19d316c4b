import Foundation
import Testing

@testable import Travel411Import
@testable import Travel411OSM
@testable import Travel411Store

/// A tag's value as the classifier reads it: trimmed of spaces at its ends, nil when nothing is left.
struct OSMTagValueTests {
    @Test func valuesAreTrimmedAsFoundationTrims() {
        let ends = ["", " ", "\t", "\u{00A0}", "\u{3000}", "\u{2009}", "\n", "x", "é", "Ä", "1"]
        for head in ends {
            for tail in ends {
                for middle in ["", "Städtle", "a b", "\u{00A0}"] {
                    let raw = head + middle + tail
                    let trimmed = raw.trimmingCharacters(in: .whitespaces)
                    #expect(OSMFeatureClassifier.value(raw) == (trimmed.isEmpty ? nil : trimmed), "\(Array(raw.unicodeScalars))")
                }
            }
        }
        #expect(OSMFeatureClassifier.value(nil) == nil)
    }
}
