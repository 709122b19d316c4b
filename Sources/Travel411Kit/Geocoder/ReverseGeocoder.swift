import Foundation

/// How far the nearby-feature rules reach (README "How each field is decided").
public struct GeocoderSettings: Sendable {
    /// A thoroughfare is the nearest named line within this distance.
    public var thoroughfareRadiusMetres = 100.0
    /// A house number comes from the nearest address point within this distance.
    public var addressRadiusMetres = 50.0
    /// A postcode is the nearest postcode centroid within this distance (unit postcodes are small).
    public var postcodeRadiusMetres = 200.0
    /// The nearest locality becomes the subLocality within this distance.
    public var subLocalityRadiusMetres = 5000.0
    /// With no catchment containing the point, the nearest locality in the same country within this
    /// distance is the locality.
    public var nearestLocalityFallbackMetres = 10_000.0
    /// A point outside every country polygon but this close to a locality takes that locality's
    /// country: the 1:10m coastline is simplified, and harbours, reclaimed land and islets fall outside it.
    public var coastalSnapMetres = 5000.0

    public init() {}
}

/// Answers coordinates from a places database. Open it `.everything` to share one instance across
/// threads (batches); `.onDemand` (the default, for single lookups) must stay on one thread.
public final class ReverseGeocoder: @unchecked Sendable {
    public typealias Loading = PlacesLookupLoading

    public let databasePath: String
    public let settings: GeocoderSettings
    private let lookup: PlacesLookup

    public init(databasePath: String, loading: Loading = .onDemand, settings: GeocoderSettings = GeocoderSettings()) throws {
        self.databasePath = databasePath
        self.settings = settings
        lookup = try PlacesLookup(path: databasePath, loading: loading == .everything ? .everything : .onDemand)
    }

    public func placemark(for coordinate: Coordinate) -> Placemark {
        var placemark = Placemark(location: coordinate)
        let x = coordinate.longitude, y = coordinate.latitude

        let country = area(.country, x, y)
        placemark.country = country?.name
        placemark.isoCountryCode = country?.code
        let adminFeature = lookup.area(.admin)?.index.featureIndex(longitude: x, latitude: y)
        if let admin = adminFeature.flatMap({ lookup.area(.admin)?.attributes($0) }) {
            placemark.administrativeArea = admin.administrativeArea
            placemark.subAdministrativeArea = admin.subAdministrativeArea
        }
        if let district = area(.district, x, y) {
            placemark.subAdministrativeArea = district.name
        }
        placemark.timeZone = area(.timezone, x, y)?.name
        placemark.ocean = area(.ocean, x, y)?.name
        placemark.inlandWater = area(.inlandWater, x, y)?.name

        fillLocalities(&placemark, adminFeature: adminFeature)
        fillStreetAddress(&placemark)
        placemark.name = Self.name(for: placemark)
        return placemark
    }

    @inline(__always)
    private func area(_ level: PlacesSchema.AreaLevel, _ x: Double, _ y: Double) -> PlacesLookup.AreaAttributes? {
        guard let areas = lookup.area(level), let feature = areas.index.featureIndex(longitude: x, latitude: y) else { return nil }
        return areas.attributes(feature)
    }

    /// Locality: the most populous place of the point's country whose catchment contains the point;
    /// else the nearest place of that country within the fallback distance. subLocality: the nearest
    /// place in the same admin polygon, when it is another name within reach. At sea there is no
    /// locality, only the nearest one, unless the coast is close enough to snap to (see settings).
    private func fillLocalities(_ placemark: inout Placemark, adminFeature: Int?) {
        guard let level = lookup.pointLevel(.locality) else { return }
        let records = level.records
        let query = PointIndex.Query(placemark.location)
        var nearestGroup: UInt32 = 0
        // `accept` runs for each candidate that beats the best so far, so the last call is the winner's.
        guard let nearest = level.index.nearest(to: query, maxChord: 2.0001, where: { _, group in nearestGroup = group; return true }) else { return }
        let nearestPlace = nearbyPlace(Int(nearest), records, from: placemark.location)
        placemark.nearestLocality = nearestPlace
        let countryField = PlacesSchema.LocalityField.countryCode.rawValue
        var adminGroup = adminFeature.map { UInt32($0 + 1) }

        if placemark.isoCountryCode == nil, nearestPlace.distanceMetres <= settings.coastalSnapMetres,
           let code = records.string(Int(nearest), countryField), let country = lookup.country(code: code) {
            placemark.country = country.name
            placemark.isoCountryCode = country.code
            if placemark.administrativeArea == nil, nearestGroup > 0, let admin = lookup.area(.admin)?.attributes(Int(nearestGroup) - 1) {
                placemark.administrativeArea = admin.administrativeArea
                placemark.subAdministrativeArea = admin.subAdministrativeArea
                adminGroup = nearestGroup
            }
        }
        guard let countryCode = placemark.isoCountryCode else { return }

        let sameCountry = records.field(Int(nearest), countryField, equals: countryCode)
        var locality = level.index.largestCatchment(containing: query, country: PointIndex.packCountry(countryCode)).map(Int.init)
        if locality == nil, sameCountry, nearestPlace.distanceMetres <= settings.nearestLocalityFallbackMetres {
            locality = Int(nearest)
        }
        guard let locality else { return }
        let localityName = records.string(locality, PlacesSchema.LocalityField.name.rawValue)
        placemark.locality = localityName
        if placemark.subAdministrativeArea == nil, let area = placemark.administrativeArea,
           records.field(locality, PlacesSchema.LocalityField.admin1.rawValue, equals: area) {
            placemark.subAdministrativeArea = records.string(locality, PlacesSchema.LocalityField.admin2.rawValue)
        }
        // The nearest place in the point's own admin polygon: a village over the county line is not where you are.
        let chord = PointIndex.chord(metres: settings.subLocalityRadiusMetres)
        let nameField = PlacesSchema.LocalityField.name.rawValue
        let sub = level.index.nearest(to: query, maxChord: chord) { id, group in
            (adminGroup == nil || group == adminGroup) && records.field(Int(id), countryField, equals: countryCode)
                && !(localityName.map { records.field(Int(id), nameField, equals: $0) } ?? false)
        }
        if let sub { placemark.subLocality = records.string(Int(sub), nameField) }
    }

    private func nearbyPlace(_ record: Int, _ records: PagedRecords, from point: Coordinate) -> NearbyPlace {
        let place = records.coordinate(record) ?? point
        return NearbyPlace(
            name: records.string(record, PlacesSchema.LocalityField.name.rawValue) ?? "",
            coordinate: place,
            distanceMetres: GreatCircle.distance(from: place, to: point),
            bearingDegrees: GreatCircle.initialBearing(from: place, to: point))
    }

    /// Thoroughfare from the nearest named line; house number from the nearest address point on that
    /// street (or, with no line near, the nearest address point at all, which then names the street);
    /// postcode from that address, else from the nearest postcode centroid.
    private func fillStreetAddress(_ placemark: inout Placemark) {
        let point = placemark.location
        if let streets = lookup.streetLevel(),
           let street = streets.index.nearest(to: point, radiusMetres: settings.thoroughfareRadiusMetres) {
            placemark.thoroughfare = streets.names.string(Int(street.id), 0)
        }
        let query = PointIndex.Query(point)
        if let addresses = lookup.pointLevel(.address, near: point, within: settings.addressRadiusMetres) {
            let chord = PointIndex.chord(metres: settings.addressRadiusMetres)
            let streetField = PlacesSchema.AddressField.street.rawValue
            let found: UInt32?
            if let thoroughfare = placemark.thoroughfare {
                found = addresses.index.nearest(to: query, maxChord: chord) { id, _ in addresses.records.field(Int(id), streetField, equals: thoroughfare) }
            } else {
                found = addresses.index.nearest(to: query, maxChord: chord)
            }
            if let found = found.map(Int.init) {
                placemark.subThoroughfare = addresses.records.string(found, PlacesSchema.AddressField.houseNumber.rawValue)
                placemark.thoroughfare = placemark.thoroughfare ?? addresses.records.string(found, streetField)
                placemark.postalCode = addresses.records.string(found, PlacesSchema.AddressField.postcode.rawValue)
            }
        }
        if placemark.postalCode == nil,
           let postcodes = lookup.pointLevel(.postcode, near: point, within: settings.postcodeRadiusMetres),
           let found = postcodes.index.nearest(to: query, maxChord: PointIndex.chord(metres: settings.postcodeRadiusMetres)) {
            placemark.postalCode = postcodes.records.string(Int(found), 0)
        }
    }

    /// CLPlacemark's `name`: the most specific thing there is to call the spot.
    static func name(for p: Placemark) -> String? {
        if let street = p.thoroughfare {
            return p.subThoroughfare.map { "\($0) \(street)" } ?? street
        }
        return p.subLocality ?? p.locality ?? p.inlandWater ?? p.ocean ?? p.administrativeArea ?? p.country
    }
}

public enum PlacesLookupLoading: Sendable { case onDemand, everything }
