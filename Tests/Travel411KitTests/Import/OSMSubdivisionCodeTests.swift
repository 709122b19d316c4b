import Foundation
import Testing

@testable import Travel411Core

/// A boundary's `ISO3166-2` code in the address under its own `admin_level`, right after the boundary's line, as
/// Nominatim 5.3.3 writes it (`_write_typed_address`, nominatim_api/v1/format_json.py): not only the state's, and not
/// always level 4. The answers below are Nominatim 5.3.3's on the same extracts (session 65).
@Suite struct OSMSubdivisionCodeTests {
    /// The keys of the answer's `address`, in order, and the codes.
    private func address(_ answer: String) throws -> (keys: [String], codes: [String: String]) {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any])
        let address = try #require(object["address"] as? [String: String])
        return (try ExtractAnswer.addressKeys(of: answer), address.filter { $0.key.hasPrefix("ISO3166-2") })
    }

    /// Monaco's quarters are admin_level 10 boundaries (La Condamine, MC-CO): the suburb's code at zooms 18 and 14.
    @Test(arguments: [18, 14])
    func aQuarterOfMonaco(zoom: Int) throws {
        let path = try OSMParentStreetCountryTests.monacoImport.get().path
        let (keys, codes) = try address(try ExtractAnswer.text(in: path, 43.737391, 7.426929, zoom: zoom))
        #expect(codes == ["ISO3166-2-lvl10": "MC-CO"])
        let suburb = try #require(keys.firstIndex(of: "suburb"))
        #expect(keys[suburb + 1] == "ISO3166-2-lvl10", "\(keys)")
    }

    /// Andorra's parishes are admin_level 7 (Ordino, AD-05), keyed `municipality` at zoom 10.
    @Test func aParishOfAndorra() throws {
        let path = try OSMLocalityBeyondStreetsTests.cutImport.get().path
        let (keys, codes) = try address(try ExtractAnswer.text(in: path, 42.602286, 1.508741, zoom: 10))
        #expect(codes == ["ISO3166-2-lvl7": "AD-05"])
        #expect(Array(keys.prefix(2)) == ["municipality", "ISO3166-2-lvl7"], "\(keys)")
    }

    /// Saint-Barthélemy's boundary is admin_level 3 (FR-BL), Nominatim's state there: `lvl3`, not `lvl4`.
    @Test(arguments: [18, 10])
    func aStateOfLevelThree(zoom: Int) throws {
        let path = try OSMStatePostcodeTests.extractImport.get().path
        let (keys, codes) = try address(try ExtractAnswer.text(in: path, 17.901836, -62.846951, zoom: zoom))
        #expect(codes == ["ISO3166-2-lvl3": "FR-BL"])
        let state = try #require(keys.firstIndex(of: "state"))
        #expect(keys[state + 1] == "ISO3166-2-lvl3", "\(keys)")
    }
}
