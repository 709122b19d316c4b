import Foundation
import Travel411TestSupport
import XCTest

@testable import Travel411Core
@testable import Travel411Geocoder

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

    /// GeoNames has Paris's 10th to 20th arrondissements, not the 1st to 9th. Notre-Dame (4th) lies 92 m from
    /// Paris's point and 2.3 km from the 11th's, the Louvre (1st) 1.1 km and 2.4 km from the 10th's: both cores
    /// reach them, but a neighbourhood farther than the city's own point is not where the point is.
    func testACityCentreIsNoFartherNeighbourhoodsSubLocality() {
        for (lat, lon) in [(48.8530, 2.3499), (48.8606, 2.3376)] {
            let centre = placemark(lat, lon)
            XCTAssertEqual(centre.locality, "Paris")
            XCTAssertNil(centre.subLocality, "\(lat), \(lon)")
        }
        XCTAssertEqual(placemark(48.8763, 2.3590).subLocality, "Paris 10e Arrondissement", "at the 10th's own point")
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

    /// Windsor's GeoNames point (33,348 people) lies 1.88 km from the population-weighted centre of its
    /// built-up area: the mean of the 1,020 Code-Point Open unit postcodes (about 15 addresses each) that
    /// join Windsor and Eton within 300 m of one another, 51.4794 -0.6264 (in Clewer, west Windsor).
    /// Eton (3,025 people) lies nearer, 1.56 km away, and Slough (164,793), a town of its own across
    /// the Thames, 3.97 km away with a 6.1 km catchment that holds the point. The point lies deeper in
    /// Windsor's catchment (1.88 of 3.21 km) than in Slough's (3.97 of 6.09 km), and Windsor, whose
    /// point is 2.93 km from Slough's, is a town beside Slough, not a neighbourhood of it.
    func testTownCentreOffItsGeoNamesPointIsTheTownNotTheNearerVillage() {
        let windsor = placemark(51.47942, -0.62642)
        XCTAssertEqual(windsor.locality, "Windsor")
        XCTAssertNil(windsor.subLocality, "Eton's core disc (1 km) does not reach the point")
        XCTAssertEqual(windsor.nearestLocality?.name, "Eton", "the smaller place is the nearer one")
        XCTAssertEqual(windsor.nearestLocality?.distanceMetres ?? 0, 1557, accuracy: 5)
    }

    /// Mackay's GeoNames point (123,183 people) lies 2.41 km south-west of its centre: GeoNames' own
    /// "Mackay City", the central business district (3,832 people), at -21.1446 149.1868. East Mackay
    /// (3,523 people) lies nearer that centre, 1.15 km away. Mackay's catchment (5.4 km) holds it, and
    /// both suburbs are neighbourhoods of Mackay: the centre is Mackay, its subLocality the CBD's name.
    func testCityCentreOffItsGeoNamesPointIsTheCity() {
        let mackay = placemark(-21.14463, 149.18678)
        XCTAssertEqual(mackay.locality, "Mackay")
        XCTAssertEqual(mackay.subLocality, "Mackay City")
        XCTAssertNotEqual(mackay.subLocality, "East Mackay")
    }

    /// A town of its own within a far larger city's catchment is its own locality: Watford (125,707
    /// people) lies 24.8 km from London's point, inside London's 30.8 km catchment but outside Greater
    /// London. Its town centre (the population-weighted centre of its 4,321 unit postcodes linked within
    /// 200 m, 0.40 km from its point) is Watford, not London; Soho, 0.9 km from London's point, stays
    /// a neighbourhood of London.
    func testATownBesideACityIsNotTheCity() {
        XCTAssertEqual(placemark(51.65872, -0.39791).locality, "Watford")
        let soho = placemark(51.5144, -0.13535)
        XCTAssertEqual(soho.locality, "London")
        XCTAssertEqual(soho.subLocality, "Soho")
    }

    /// Jersey City (264,290 people, GeoNames admin1 New Jersey) lies 6.2 km across the Hudson from New York
    /// City's point (8.8 million, New York), inside its catchment: a city of another state is never a
    /// neighbourhood of it, and a point in New Jersey prefers New Jersey's places.
    func testACityOfAnotherStateIsNotANeighbourhood() {
        let jerseyCity = placemark(40.7178, -74.0431)
        XCTAssertEqual(jerseyCity.locality, "Jersey City")
        XCTAssertEqual(jerseyCity.administrativeArea, "New Jersey")
        XCTAssertNotEqual(jerseyCity.subLocality, "Jersey City")
        let timesSquare = placemark(40.758, -73.9855)
        XCTAssertEqual(timesSquare.locality, "New York City")
        XCTAssertEqual(timesSquare.administrativeArea, "New York")
    }

    /// Dubai International Airport lies in the Dubai emirate, 10.5 km from Sharjah's point (1.8 million)
    /// and 20 km from Dubai's (3.79 million, GeoNames' point far south of the old centre): Sharjah's
    /// catchment holds it deeper, but Sharjah is another emirate. The locality is a place of Dubai:
    /// Dayrah (Deira, 400,000), 6.7 km away, whose point Dubai's 21.4 km catchment does not reach.
    func testAirportPrefersThePlacesOfItsOwnEmirate() {
        let airport = placemark(25.2532, 55.3657)
        XCTAssertEqual(airport.administrativeArea, "Dubai")
        XCTAssertEqual(airport.locality, "Dayrah")
        XCTAssertNotEqual(airport.locality, "Sharjah")
    }

    /// Kansas City, Kansas and Kansas City, Missouri: two cities of one name on either side of the
    /// state line, each the locality of its own centre.
    func testKansasCityOnEitherSideOfTheStateLine() {
        let kansas = placemark(39.1141, -94.6275)
        XCTAssertEqual(kansas.locality, "Kansas City")
        XCTAssertEqual(kansas.administrativeArea, "Kansas")
        let missouri = placemark(39.0997, -94.5786)
        XCTAssertEqual(missouri.locality, "Kansas City")
        XCTAssertEqual(missouri.administrativeArea, "Missouri")
        let inKansas = TestPlaces.geocoder.record(for: Coordinate(latitude: 39.1141, longitude: -94.6275))
        let inMissouri = TestPlaces.geocoder.record(for: Coordinate(latitude: 39.0997, longitude: -94.5786))
        XCTAssertNotEqual(inKansas.locality, inMissouri.locality, "two places, not one")
    }

    func testOpenSeaHasNoCountry() {
        let atlantic = placemark(40, -40)
        XCTAssertNil(atlantic.country)
        XCTAssertFalse(atlantic.countryFromTerritorialWaters)
    }
}
