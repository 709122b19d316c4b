import Foundation
import Testing
import Travel411OSMReader

@testable import Travel411Core
@testable import Travel411Import
@testable import Travel411OSM

/// The name keys the parent streets are matched by, computed on the bytes (`NameKey.of`), are those of their
/// definition (`NameKey.reference`: lower case, `ß` as `ss`, letters, marks and digits) for every name.
@Suite struct NameKeyTests {
    @Test func everyScalarOfTheBasicPlaneAloneAndBesideASharpS() {
        let differing = Self.namesOfEveryScalar(differingBetween: NameKey.of, and: NameKey.reference) { scalar in
            [String(scalar), "Weg \(scalar)", "ß\(scalar)", "\(scalar)ß", "ẞ\(scalar)x"]
        }
        #expect(differing.isEmpty, "\(differing)")
    }

    /// The first ten names made of a scalar of the basic plane whose two keys differ, as the scalars' hexadecimal values.
    static func namesOfEveryScalar(
        differingBetween key: (String) -> [UInt8], and reference: (String) -> [UInt8], names: (Unicode.Scalar) -> [String]
    ) -> [[String]] {
        var differing: [String] = []
        for value in 0..<0x1_0000 {
            guard let scalar = Unicode.Scalar(UInt32(value)) else { continue }
            differing += names(scalar).filter { key($0) != reference($0) }
        }
        return differing.prefix(10).map { $0.unicodeScalars.map { String($0.value, radix: 16) } }
    }

    @Test(arguments: [
        "Bendererstrasse", "Benderer Straße", "STRASSE", "Äulestrasse", "ẞ", "ß\u{301}weg", "İstanbul", "Ǆ", "ΟΔΟΣ",
        "ﬀ", "e\u{301}", "Straße Улица", "Rue de l’Église", "St. Gallen-Str. 12", "", " - ", "東京", "Ⅻ", "²",
        "\u{600}ß", "ß\u{200D}", "a\r\nß",
    ])
    func namesOfMixedScripts(name: String) {
        #expect(NameKey.of(name) == NameKey.reference(name))
    }

    /// Every name, street name and place name of the committed extracts.
    @Test(arguments: [OSMExtractImportTests.liechtenstein, OSMExtractImportTests.helsinki, OSMExtractImportTests.kouvola])
    func everyNameOfAnExtract(extract: URL) throws {
        var names = Set<String>()
        try OSMExtractReader(path: extract.path).read { feature in
            for name in [feature.name, feature.address?.street, feature.address?.place].compactMap({ $0 }) { names.insert(name) }
            for name in feature.names.map(\.value) { names.insert(name) }
        }
        #expect(names.count > 100)
        #expect(names.filter { NameKey.of($0) != NameKey.reference($0) }.isEmpty)
    }

    /// The words' key (`NameKey.words`) is its definition's (`referenceWords`) for every scalar of the basic plane
    /// between words and alone, and keeps the words apart as Nominatim's normalisation does.
    @Test func wordsKeyEveryScalarOfTheBasicPlaneAsTheirDefinition() {
        let differing = Self.namesOfEveryScalar(differingBetween: NameKey.words, and: NameKey.referenceWords) { scalar in
            [String(scalar), "Weg \(scalar)", "ß\(scalar)x", "Road\(scalar)135", " \(scalar) "]
        }
        #expect(differing.isEmpty, "\(differing)")
        #expect(NameKey.words("Road135") == Array("road135".utf8))
        #expect(NameKey.words(" Road  135 ") == Array("road 135".utf8))
        #expect(NameKey.words("Bir Uttam A. K. Khandakar Road") == Array("bir uttam a k khandakar road".utf8))
        #expect(NameKey.words("Benderer Straße") == Array("benderer strasse".utf8))
        #expect(NameKey.words("Rue de l’Église") == NameKey.referenceWords("Rue de l’Église"))
        #expect(NameKey.words(" - ").isEmpty)
    }

    @Test func streetsOfOneNameWhateverTheSpellingShareAKey() {
        #expect(NameKey.of("Bendererstrasse") == NameKey.of("Benderer Straße"))
        #expect(NameKey.of("Bendererstrasse") == Array("bendererstrasse".utf8))
        #expect(NameKey.of("Äulestrasse") == Array("äulestrasse".utf8))
        #expect(NameKey.of(" - ").isEmpty)
    }

    /// The parent streets compare names by `NameKeyHash`: the same on every run (FNV-1a's published values), and
    /// different for every two distinct keys of the committed extracts' names and their abbreviation variants.
    @Test func keysHashAsFNV1aAndApartForEveryNameOfTheExtracts() throws {
        #expect(NameKeyHash.of([]) == 0xcbf2_9ce4_8422_2325)
        #expect(NameKeyHash.of(Array("a".utf8)) == 0xaf63_dc4c_8601_ec8c)
        #expect(NameKeyHash.of(Array("foobar".utf8)) == 0x8594_4171_f739_67e8)
        var keys = Set<[UInt8]>()
        for extract in [OSMExtractImportTests.liechtenstein, OSMExtractImportTests.helsinki, OSMExtractImportTests.kouvola] {
            try OSMExtractReader(path: extract.path).read { feature in
                for name in [feature.name, feature.address?.street, feature.address?.place].compactMap({ $0 }) {
                    for spelling in NominatimNameVariants.embedded?.variants(of: name) ?? [name] {
                        keys.insert(OSMParentStreets.matchKey(spelling))
                    }
                }
            }
        }
        #expect(keys.count > 1_000)
        #expect(Set(keys.map(NameKeyHash.of)).count == keys.count)
    }
}
