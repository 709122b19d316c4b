import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder
@testable import Travel411Import
@testable import Travel411Store

/// The admin-1 naming rule on its own: polygons as Natural Earth labels them, real GeoNames
/// localities (name, admin1) voting inside them. At least 3 votes and a two-thirds share decide.
final class AdministrativeAreaNamingTests: XCTestCase {
    private typealias Feature = LookupCollector.AreaFeature
    private typealias Locality = LookupCollector.Locality

    private func feature(_ fid: Int64, _ name: String, _ code: String?, _ country: String) -> Feature {
        Feature(layer: "ne_10m_admin1", fid: fid, name: name, code: code, countryCode: country)
    }

    private func locality(_ name: String, _ admin1: String, _ country: String, _ population: Double = 10_000) -> Locality {
        Locality(
            name: name, admin1: admin1, admin2: nil, countryCode: country, population: population,
            coordinate: Coordinate(latitude: 0, longitude: 0))
    }

    /// Each polygon with the localities lying in it; every locality votes.
    private func naming(_ polygons: [(Feature, [Locality])]) -> AdministrativeAreaNaming {
        var localities: [Locality] = [], admins: [Int?] = []
        for (f, polygon) in polygons.enumerated() {
            localities += polygon.1
            admins += Array(repeating: f, count: polygon.1.count)
        }
        return AdministrativeAreaNaming(
            features: polygons.map(\.0), localities: localities, localityAdmin: admins,
            localityCounts: Array(repeating: true, count: localities.count))
    }

    private let minasGerais = [("Belo Horizonte", 2_373_224.0), ("Uberlândia", 604_013), ("Contagem", 627_123), ("Juiz de Fora", 540_756)]

    /// The polygon of Minas Gerais labelled Mato Grosso do Sul: its localities rename it, the summary
    /// reports it, and it has no code (no polygon is labelled Minas Gerais to take one from).
    func testContradictedLabelIsRenamedAndReported() {
        let result = naming([
            (feature(0, "Mato Grosso do Sul", "BR-MS", "BR"), minasGerais.map { locality($0.0, "Minas Gerais", "BR", $0.1) }),
            (feature(1, "Goiás", "BR-GO", "BR"), ["Goiânia", "Anápolis", "Aparecida de Goiânia"].map { locality($0, "Goiás", "BR") }),
            (
                feature(2, "Mato Grosso do Sul", "BR-MS", "BR"),
                ["Campo Grande", "Dourados", "Três Lagoas"].map { locality($0, "Mato Grosso do Sul", "BR") }
            ),
        ])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Minas Gerais", subArea: nil, code: nil))
        XCTAssertEqual(result.decisions[1], AdministrativeAreaNaming.Decision(area: "Goiás", subArea: nil, code: "BR-GO"))
        XCTAssertEqual(result.decisions[2], AdministrativeAreaNaming.Decision(area: "Mato Grosso do Sul", subArea: nil, code: "BR-MS"))
        XCTAssertEqual(result.contradictions, ["BR: the polygon labelled Mato Grosso do Sul (BR-MS) holds 4 localities of Minas Gerais"])
    }

    /// Ecuador's Napo and Tungurahua carry each other's names: each takes the code of the polygon
    /// labelled with its right name, and both are reported (sorted).
    func testSwappedLabelsTakeEachOthersCodes() {
        let result = naming([
            (feature(0, "Tungurahua", "EC-T", "EC"), ["Tena", "Archidona", "El Chaco"].map { locality($0, "Napo", "EC") }),
            (feature(1, "Napo", "EC-N", "EC"), ["Ambato", "Baños", "Pelileo", "Píllaro"].map { locality($0, "Tungurahua", "EC") }),
        ])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Napo", subArea: nil, code: "EC-N"))
        XCTAssertEqual(result.decisions[1], AdministrativeAreaNaming.Decision(area: "Tungurahua", subArea: nil, code: "EC-T"))
        XCTAssertEqual(
            result.contradictions,
            [
                "EC: the polygon labelled Napo (EC-N) holds 4 localities of Tungurahua",
                "EC: the polygon labelled Tungurahua (EC-T) holds 3 localities of Napo",
            ])
    }

    /// Two localities are too few to overrule a label, however much they agree.
    func testTooFewLocalitiesLeaveTheLabel() {
        let result = naming([
            (feature(0, "Mato Grosso do Sul", "BR-MS", "BR"), minasGerais.prefix(2).map { locality($0.0, "Minas Gerais", "BR", $0.1) }),
            (feature(1, "Minas Gerais", "BR-MG", "BR"), minasGerais.suffix(2).map { locality($0.0, "Minas Gerais", "BR", $0.1) }),
        ])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Mato Grosso do Sul", subArea: nil, code: "BR-MS"))
        XCTAssertTrue(result.contradictions.isEmpty)
    }

    /// Two thirds exactly is enough (2 of 3 after a third locality of another area); 3 of 5 is not.
    func testTwoThirdsIsTheThreshold() {
        let twoOfThree = naming([
            (
                feature(0, "Mato Grosso do Sul", "BR-MS", "BR"),
                [
                    locality("Belo Horizonte", "Minas Gerais", "BR"), locality("Contagem", "Minas Gerais", "BR"),
                    locality("Campo Grande", "Mato Grosso do Sul", "BR"),
                ]
            )
        ])
        XCTAssertEqual(twoOfThree.decisions[0].area, "Minas Gerais")
        XCTAssertEqual(twoOfThree.contradictions.count, 1)

        let threeOfFive = naming([
            (
                feature(0, "Mato Grosso do Sul", "BR-MS", "BR"),
                minasGerais.prefix(3).map { locality($0.0, "Minas Gerais", "BR", $0.1) }
                    + [locality("Campo Grande", "Mato Grosso do Sul", "BR"), locality("Dourados", "Mato Grosso do Sul", "BR")]
            )
        ])
        XCTAssertEqual(threeOfFive.decisions[0], AdministrativeAreaNaming.Decision(area: "Mato Grosso do Sul", subArea: nil, code: "BR-MS"))
        XCTAssertTrue(threeOfFive.contradictions.isEmpty)
    }

    /// A tie is no clear majority: the label stands, and nothing is reported.
    func testATieLeavesTheLabel() {
        let result = naming([
            (
                feature(0, "Mato Grosso do Sul", "BR-MS", "BR"),
                minasGerais.prefix(3).map { locality($0.0, "Minas Gerais", "BR", $0.1) }
                    + ["Campo Grande", "Dourados", "Três Lagoas"].map { locality($0, "Mato Grosso do Sul", "BR") }
            )
        ])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Mato Grosso do Sul", subArea: nil, code: "BR-MS"))
        XCTAssertTrue(result.contradictions.isEmpty)
    }

    /// Only localities of the country they lie in vote: three Paraguayan towns of Amambay that the
    /// simplified border puts inside Mato Grosso do Sul do not rename it.
    func testLocalitiesThatMayNotVoteAreNotCounted() {
        let localities =
            [locality("Ponta Porã", "Mato Grosso do Sul", "BR")]
            + ["Pedro Juan Caballero", "Capitán Bado", "Bella Vista Norte"].map { locality($0, "Amambay", "PY") }
        let mayVote = [true, false, false, false]
        let result = AdministrativeAreaNaming(
            features: [feature(0, "Mato Grosso do Sul", "BR-MS", "BR")], localities: localities,
            localityAdmin: Array(repeating: 0, count: localities.count), localityCounts: mayVote)
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Mato Grosso do Sul", subArea: nil, code: "BR-MS"))
        XCTAssertTrue(result.contradictions.isEmpty)
        // Had they voted, Paraguay's area would have named a Brazilian polygon.
        let counted = AdministrativeAreaNaming(
            features: [feature(0, "Mato Grosso do Sul", "BR-MS", "BR")], localities: localities,
            localityAdmin: Array(repeating: 0, count: localities.count), localityCounts: [true, true, true, true])
        XCTAssertEqual(counted.decisions[0].area, "Amambay")
    }

    /// Bayern is Bavaria in another language, not another Land: renamed, kept its code, not reported.
    func testALabelInAnotherLanguageIsNoContradiction() {
        let result = naming([
            (feature(0, "Bayern", "DE-BY", "DE"), ["Munich", "Nuremberg", "Augsburg"].map { locality($0, "Bavaria", "DE") }),
            (feature(1, "Hessen", "DE-HE", "DE"), ["Frankfurt am Main", "Wiesbaden", "Kassel"].map { locality($0, "Hesse", "DE") }),
        ])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Bavaria", subArea: nil, code: "DE-BY"))
        XCTAssertEqual(result.decisions[1], AdministrativeAreaNaming.Decision(area: "Hesse", subArea: nil, code: "DE-HE"))
        XCTAssertTrue(result.contradictions.isEmpty)
    }

    /// London boroughs are finer units of England: several polygons agree on the one name, which
    /// becomes the area with the borough as subArea and no code (the layer has no GB-ENG).
    func testFinerUnitsSharingAFirstLevelName() {
        let result = naming([
            (feature(0, "Westminster", "GB-WSM", "GB"), ["Soho", "Mayfair", "Marylebone"].map { locality($0, "England", "GB") }),
            (feature(1, "Camden", "GB-CMD", "GB"), ["Camden Town", "Hampstead", "Kentish Town"].map { locality($0, "England", "GB") }),
        ])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "England", subArea: "Westminster", code: nil))
        XCTAssertEqual(result.decisions[1], AdministrativeAreaNaming.Decision(area: "England", subArea: "Camden", code: nil))
        XCTAssertTrue(result.contradictions.isEmpty)
    }

    /// A polygon with no localities keeps its label and code.
    func testAnEmptyPolygonKeepsItsLabel() {
        let result = naming([(feature(0, "Fernando de Noronha", "BR-PE", "BR"), [])])
        XCTAssertEqual(result.decisions[0], AdministrativeAreaNaming.Decision(area: "Fernando de Noronha", subArea: nil, code: "BR-PE"))
    }

    func testFoldedNamesAndValidCodes() {
        XCTAssertEqual(AdministrativeAreaName.folded("Provincia de Tungurahua"), "tungurahua")
        XCTAssertEqual(AdministrativeAreaName.folded("Goiás"), "goias")
        XCTAssertEqual(AdministrativeAreaNaming.validCode("US-CA"), "US-CA")
        XCTAssertEqual(AdministrativeAreaNaming.validCode("EC-N"), "EC-N")
        XCTAssertNil(AdministrativeAreaNaming.validCode("SY-X01~"))
        XCTAssertNil(AdministrativeAreaNaming.validCode("GB-X01"), "Natural Earth's numbered placeholders")
        XCTAssertNil(AdministrativeAreaNaming.validCode("-99"))
        XCTAssertNil(AdministrativeAreaNaming.validCode(nil))
    }
}
