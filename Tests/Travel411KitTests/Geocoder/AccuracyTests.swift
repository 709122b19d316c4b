import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Kit

/// Issue 12's classes of wrong answers, on real points of the default data.
final class AccuracyTests: XCTestCase {
    private func placemark(_ latitude: Double, _ longitude: Double) -> Placemark {
        TestPlaces.geocoder.placemark(for: Coordinate(latitude: latitude, longitude: longitude))
    }

    /// Cayenne is French Guiana (GF), not France; Paris stays FR.
    func testOverseasTerritoryKeepsItsOwnCode() {
        let cayenne = placemark(4.9372, -52.326)
        XCTAssertEqual(cayenne.isoCountryCode, "GF")
        XCTAssertEqual(cayenne.country, "French Guiana")
        XCTAssertEqual(cayenne.locality, "Cayenne")
        XCTAssertEqual(placemark(-20.8789, 55.4481).isoCountryCode, "RE")
        XCTAssertEqual(placemark(48.8566, 2.3522).isoCountryCode, "FR")
    }

    /// Belo Horizonte's polygon is labelled Mato Grosso do Sul; its localities say Minas Gerais.
    func testContradictedAdmin1LabelIsCorrected() {
        XCTAssertEqual(placemark(-19.9167, -43.9345).administrativeArea, "Minas Gerais")
        let tena = placemark(-0.99, -77.81)
        XCTAssertEqual(tena.administrativeArea, "Napo")
        XCTAssertEqual(tena.administrativeAreaCode, "EC-N")
    }

    func testAdministrativeAreaCode() {
        let munich = placemark(48.137, 11.575)
        XCTAssertEqual(munich.administrativeArea, "Bavaria")
        XCTAssertEqual(munich.administrativeAreaCode, "DE-BY")
        XCTAssertNil(placemark(51.47, -0.45).administrativeAreaCode, "England's code is not in the layer")
    }

    /// The Eiffel Tower is in Paris; Neuilly-sur-Seine is another commune.
    func testEiffelTowerHasNoNeighbouringTownAsSubLocality() {
        let eiffel = placemark(48.8584, 2.2945)
        XCTAssertEqual(eiffel.locality, "Paris")
        XCTAssertNotEqual(eiffel.subLocality, "Neuilly-sur-Seine")
    }

    /// Every airport in the catalogue's Maldives entries that lies outside the 1:10m coastline gets MV
    /// from the territorial waters, flagged.
    func testMaldivesAtollAirportFromTerritorialWaters() throws {
        let text = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Data/airports/airports.csv"),
            encoding: .utf8)
        var checked = 0, inferred = 0
        for line in text.split(separator: "\n") where line.contains(",\"MV\",") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 9, let lat = Double(fields[fields.count - 4]), let lon = Double(fields[fields.count - 3]) else {
                continue
            }
            let answer = placemark(lat, lon)
            XCTAssertEqual(answer.isoCountryCode, "MV", "\(line)")
            checked += 1
            if answer.countryFromTerritorialWaters { inferred += 1 }
        }
        XCTAssertGreaterThan(checked, 5)
        XCTAssertGreaterThan(inferred, 0, "some Maldives airports lie off the mapped islands")
    }

    func testOpenSeaHasNoCountry() {
        let atlantic = placemark(40, -40)
        XCTAssertNil(atlantic.country)
        XCTAssertFalse(atlantic.countryFromTerritorialWaters)
    }
}
