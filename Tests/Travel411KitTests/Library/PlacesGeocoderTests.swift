import Foundation
import Testing
import Travel411Answers
import Travel411Core
import Travel411Geocoder
import Travel411Kit
import Travel411Store
import Travel411TestSupport

/// The library product as a program sees it: `PlacesGeocoder` over the database imported from Data/.
@Suite struct PlacesGeocoderTests {
    static let westminster = Coordinate(latitude: 51.5007, longitude: -0.1246)
    static let heathrow = Coordinate(latitude: 51.47, longitude: -0.45)

    /// The CLI's expected output, read from the source tree (Tests/Travel411CLITests/Golden).
    static func golden(_ name: String) throws -> String {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Travel411CLITests/Golden")
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    /// Runs `body` as synchronous code: in an `async` test a call would pick the `async` overload.
    static func synchronously<T>(_ body: () throws -> T) rethrows -> T { try body() }

    @Test func londonHasCLPlacemarkFields() throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        let placemark = try geocoder.placemark(for: Self.westminster)
        #expect(placemark.locality == "London")
        #expect(placemark.isoCountryCode == "GB")
        #expect(placemark.country == "United Kingdom")
        #expect(placemark.timeZone == "Europe/London")
    }

    @Test func answersAsWhereDoes() throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        let placemark = try geocoder.placemark(for: Self.heathrow)
        #expect(PlacemarkFormatter.format(placemark, as: .json) == (try Self.golden("where-heathrow-json.stdout")))
    }

    @Test func nominatimAnswerIsWhereFormatNominatims() async throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        let heathrow = try Self.synchronously { try geocoder.nominatimAnswer(for: Self.heathrow) }
        #expect(heathrow == (try Self.golden("where-heathrow-nominatim.stdout")))
        let atSea = try await geocoder.nominatimAnswer(for: Coordinate(latitude: 0, longitude: 0))
        #expect(atSea == (try Self.golden("where-null-island-nominatim.stdout")))
    }

    @Test func nominatimFormatsAndZoom() throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        let xml = try geocoder.nominatimAnswer(for: Self.westminster, options: NominatimOptions(format: .xml))
        #expect(xml.hasPrefix("<?xml"))
        let country = try geocoder.nominatimAnswer(for: Self.westminster, options: NominatimOptions(format: .jsonv2, zoom: 3))
        #expect(country.contains("\"addresstype\":\"country\""))
        #expect(throws: PlacesGeocoderError.unsupportedNominatimOption("namedetails")) {
            try geocoder.nominatimAnswer(for: Self.westminster, options: NominatimOptions(nameDetails: true))
        }
    }

    @Test func asyncCallAnswersAsTheSynchronousOne() async throws {
        let geocoder = try await PlacesGeocoder.open(databasePath: TestPlaces.databasePath)
        let awaited = try await geocoder.placemark(for: Self.westminster)
        #expect(awaited == (try Self.synchronously { try geocoder.placemark(for: Self.westminster) }))
    }

    @Test func sequenceAnswersInOrder() async throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath, loading: .everything)
        let points = [Self.westminster, Self.heathrow, Coordinate(latitude: 0, longitude: 0)]
        let placemarks = try Self.synchronously { try geocoder.placemarks(for: points) }
        #expect(placemarks.map(\.location) == points)
        #expect(placemarks[2].country == nil)
        #expect(try await geocoder.placemarks(for: points) == placemarks)
    }

    /// One geocoder shared by many tasks gives each the answer it gives alone.
    @Test func sharedAcrossATaskGroup() async throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        let points = (0..<64).map { Coordinate(latitude: 50 + Double($0 % 8) * 0.25, longitude: -3 + Double($0 / 8) * 0.5) }
        let alone = try Self.synchronously { try geocoder.placemarks(for: points) }
        let together = try await withThrowingTaskGroup(of: (Int, Placemark).self) { group in
            for (index, point) in points.enumerated() {
                group.addTask { (index, try await geocoder.placemark(for: point)) }
            }
            var answers = [Placemark?](repeating: nil, count: points.count)
            for try await (index, placemark) in group { answers[index] = placemark }
            return answers
        }
        #expect(together == alone.map { Optional($0) })
    }

    @Test func cancelledSequenceStops() async throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await geocoder.placemarks(for: [Self.westminster])
        }
        await #expect(throws: PlacesGeocoderError.cancelled) { try await task.value }
    }

    @Test func invalidCoordinateIsRefused() throws {
        let geocoder = try PlacesGeocoder(databasePath: TestPlaces.databasePath)
        #expect(throws: PlacesGeocoderError.invalidCoordinate(latitude: 91, longitude: 0)) {
            try geocoder.placemark(for: Coordinate(latitude: 91, longitude: 0))
        }
    }
}
