import Foundation
import Travel411Kit

// Prints the placemark of Westminster, London, from the places database named on the command line
// (built by `travel411 import --db PATH`).
let arguments = CommandLine.arguments.dropFirst()
guard let databasePath = arguments.first else {
    FileHandle.standardError.write(Data("usage: PlacemarkExample PLACES_DATABASE\n".utf8))
    exit(64)
}

do throws(PlacesGeocoderError) {
    let geocoder = try PlacesGeocoder(databasePath: databasePath)
    let placemark = try geocoder.placemark(for: Coordinate(latitude: 51.5007, longitude: -0.1246))
    let fields: [(String, String?)] = [
        ("name", placemark.name),
        ("thoroughfare", placemark.thoroughfare),
        ("subLocality", placemark.subLocality),
        ("locality", placemark.locality),
        ("subAdministrativeArea", placemark.subAdministrativeArea),
        ("administrativeArea", placemark.administrativeArea),
        ("postalCode", placemark.postalCode),
        ("country", placemark.country),
        ("isoCountryCode", placemark.isoCountryCode),
        ("timeZone", placemark.timeZone),
    ]
    for (name, value) in fields { print("\(name): \(value ?? "-")") }
} catch {
    FileHandle.standardError.write(Data("PlacemarkExample: \(error)\n".utf8))
    exit(1)
}
