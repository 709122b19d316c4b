import Foundation
import Testing

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// An `addr:street` names a street by one of the street name's abbreviation variants, as Nominatim 5.3's ICU
/// tokenizer matches them (`settings/icu-rules/variants-*.yaml`, in Data/nominatim/icu-rules/).
@Suite struct OSMStreetVariantsTests {
    static let variants = Result {
        try NominatimNameVariants(
            folder: try EmbeddedData.locate().appendingPathComponent("nominatim/icu-rules", isDirectory: true))
    }

    /// `Quattro -> IV, 4` and `Via -> V` (variants-it.yaml) make every combination; `~strasse -> str`
    /// (variants-de.yaml) a word's end; a name no rule matches is only itself; the variants belong to the street's
    /// name, not to the address's: `Via IV Novembre` does not become `Via Quattro Novembre`.
    @Test func variantsOfNames() throws {
        let variants = try Self.variants.get()
        let quattro = variants.variants(of: "Via Quattro Novembre")
        #expect(quattro.first == "via quattro novembre")
        #expect(quattro.contains("via iv novembre"))
        #expect(quattro.contains("via 4 novembre"))
        #expect(quattro.contains("v iv novembre"))
        #expect(!variants.variants(of: "Via IV Novembre").contains("via quattro novembre"))
        #expect(variants.variants(of: "Zollstrasse").contains("zollstr"))
        #expect(variants.variants(of: "Sheares Avenue").contains("sheares ave"))
        #expect(variants.variants(of: "Xyzzy") == ["xyzzy"])
        #expect(NominatimNameVariants.normalised("Via di Sant'Eufemia") == "via di sant eufemia")
    }

    /// A `~` term without `|` is decomposed (config_variants.py's `_create_variants`): `~strasse -> str` makes a word's
    /// end a word and a word the end of the one before; `~berg |-> bg` keeps the term where it was.
    @Test func wordEndsJoinAndPartAsTheRulesSay() throws {
        let variants = try Self.variants.get()
        let apart = variants.variants(of: "Benderer Strasse")
        #expect(apart.contains("bendererstrasse"))
        #expect(apart.contains("bendererstr"))
        #expect(apart.contains("benderer str"))
        let joined = variants.variants(of: "Bendererstrasse")
        #expect(joined.contains("benderer strasse"))
        #expect(joined.contains("benderer str"))
        let berg = variants.variants(of: "Schlossberg")
        #expect(berg.contains("schlossbg"))
        #expect(!berg.contains("schloss berg"))
        #expect(!berg.contains("schloss bg"))
        #expect(!variants.variants(of: "Road 135").contains("road135"))
    }

    /// A hotel in Vaduz (node 22117, `osm/merge/vaduz-west.osm.pbf`) gives its street as `Zollstr.`, the street is
    /// `Zollstrasse`: the street named is its parent (before, the address named no street, and its street was only the
    /// nearest), and it is among the street's house numbers.
    @Test func abbreviatedStreetNamesItsStreet() throws {
        let fixture = OSMShapefileImportTests.fixtures.appendingPathComponent("merge/vaduz-west.osm.pbf")
        let path = try OSMExtractImportTests.importExtract(fixture, as: "vaduz-west-variants.gpkg").path
        let geocoder = try ReverseGeocoder(databasePath: path)
        let record = geocoder.record(for: Coordinate(latitude: 47.132815, longitude: 9.52073))
        #expect(record.object >= 0)
        let parent = geocoder.withObjects { objects in
            objects.names.bytes(Int(record.object), PlacesSchema.ObjectField.parent.rawValue).map { String(decoding: $0, as: UTF8.self) }
        }
        let street = try #require(parent.flatMap { $0 }.flatMap { UInt32($0) })
        let placemark = geocoder.placemark(from: record)
        #expect(placemark.thoroughfare == "Zollstrasse")
        #expect(placemark.subThoroughfare == "16")
        let addresses = geocoder.withStreetAddresses { $0.bytes(Int(street), 0).map { StreetAddresses($0) } ?? nil }
        var numbers: [UInt32] = []
        addresses.flatMap { $0 }?.forEach(nearLongitude: 9.52073, reach: 0.001) { numbers.append($0.object) }
        #expect(numbers.contains(UInt32(record.object)))
    }
}
