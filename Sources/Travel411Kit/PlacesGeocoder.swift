import Foundation
import Synchronization
import Travel411Answers
import Travel411Core
import Travel411Geocoder
import Travel411Store

/// Reverse geocodes coordinates offline, from a places database built by `travel411 import`.
///
/// One geocoder answers any number of tasks and threads at once: open it once and share it (it is
/// `Sendable`). Each call has a synchronous form and an `async` one; the
/// `async` ones run off the caller's actor, so that a lookup, which reads the database file, never holds up
/// the main actor.
///
/// ```swift
/// let geocoder = try PlacesGeocoder(databasePath: "places.gpkg")
/// let placemark = try geocoder.placemark(for: Coordinate(latitude: 51.5007, longitude: -0.1246))
/// print(placemark.locality ?? "-")  // London
/// ```
///
/// The answers are those of `travel411 where` for the same database: this type opens the same
/// `ReverseGeocoder` the command-line tool and the server use.
public final class PlacesGeocoder: Sendable {
    /// How much of the database is read when the geocoder opens (``PlacesGeocoder/init(databasePath:loading:settings:)``).
    /// `.onDemand` reads only the pages a lookup touches (a few lookups); `.everything` reads the area and
    /// locality tables up front, which makes many lookups faster.
    public typealias Loading = ReverseGeocoder.Loading

    /// The places database answering.
    public let databasePath: String
    private let geocoder: ReverseGeocoder
    /// Nominatim's answers name an answered street's municipality where the street is, not where the point is
    /// (`GeocoderSettings.addressOfTheAnswer`, as `travel411 serve` does): a second geocoder, opened on the first
    /// Nominatim answer, so that ``placemark(for:)`` stays `travel411 where`'s.
    private let nominatimGeocoder = Mutex<ReverseGeocoder?>(nil)

    /// Opens the places database at `databasePath`.
    ///
    /// - Parameters:
    ///   - databasePath: a database built by `travel411 import --db PATH` of the same version of travel411.
    ///   - loading: `.onDemand` (the default) for a few lookups, `.everything` for many.
    ///   - settings: the search radii and the detail of the answers; the defaults are `travel411 where`'s.
    /// - Throws: ``PlacesGeocoderError/databaseNotFound(path:)`` when there is no file,
    ///   ``PlacesGeocoderError/outdatedDatabase(path:lookupTablesVersion:expectedVersion:)`` when another version of
    ///   travel411 built it, ``PlacesGeocoderError/notAPlacesDatabase(path:reason:)`` for any other file.
    ///   The library does not build or rebuild databases: `travel411 import` does.
    public init(
        databasePath: String, loading: Loading = .onDemand, settings: GeocoderSettings = GeocoderSettings()
    ) throws(PlacesGeocoderError) {
        self.databasePath = databasePath
        geocoder = try Self.open(databasePath, loading: loading, settings: settings)
    }

    /// Opens the database off the caller's actor: with `.everything`, opening reads tables for a while.
    @concurrent
    public static func open(
        databasePath: String, loading: Loading = .onDemand, settings: GeocoderSettings = GeocoderSettings()
    ) async throws(PlacesGeocoderError) -> PlacesGeocoder {
        try PlacesGeocoder(databasePath: databasePath, loading: loading, settings: settings)
    }

    /// The licences of the data the database was imported from, which its answers carry.
    public var licence: DataLicence { geocoder.licence }

    // MARK: One coordinate

    /// The placemark at `coordinate`, with CLPlacemark's field names (`locality`, `thoroughfare`,
    /// `administrativeArea`, `isoCountryCode`, `timeZone` ...). At sea most fields are nil.
    ///
    /// - Throws: ``PlacesGeocoderError/invalidCoordinate(latitude:longitude:)``, or
    ///   ``PlacesGeocoderError/damagedDatabase(path:reason:)`` when the lookup met a damaged page.
    public func placemark(for coordinate: Coordinate) throws(PlacesGeocoderError) -> Placemark {
        try lookUpPlacemark(at: coordinate)
    }

    /// ``placemark(for:)`` off the caller's actor.
    @concurrent
    public func placemark(for coordinate: Coordinate) async throws(PlacesGeocoderError) -> Placemark {
        try lookUpPlacemark(at: coordinate)
    }

    // MARK: Many coordinates

    /// The placemarks of `coordinates`, in their order. For many coordinates, open the geocoder with
    /// `loading: .everything`; to use several cores, answer parts of them from several tasks.
    public func placemarks(for coordinates: some Sequence<Coordinate>) throws(PlacesGeocoderError) -> [Placemark] {
        var placemarks: [Placemark] = []
        placemarks.reserveCapacity(coordinates.underestimatedCount)
        for coordinate in coordinates { placemarks.append(try lookUpPlacemark(at: coordinate)) }
        return placemarks
    }

    /// ``placemarks(for:)`` off the caller's actor. Stops with ``PlacesGeocoderError/cancelled`` when the task is
    /// cancelled.
    @concurrent
    public func placemarks(for coordinates: some Sequence<Coordinate> & Sendable) async throws(PlacesGeocoderError) -> [Placemark] {
        var placemarks: [Placemark] = []
        placemarks.reserveCapacity(coordinates.underestimatedCount)
        for coordinate in coordinates {
            if Task.isCancelled { throw .cancelled }
            placemarks.append(try lookUpPlacemark(at: coordinate))
        }
        return placemarks
    }

    // MARK: Nominatim

    /// Nominatim's `/reverse` answer for `coordinate`: the body `travel411 serve` sends for
    /// `/reverse?lat=…&lon=…` with the same options (`format` jsonv2, json, geojson, geocodejson or xml;
    /// `zoom`; `addressdetails`; `extratags`). "Unable to geocode" far at sea is an answer, not an error.
    ///
    /// - Throws: ``PlacesGeocoderError/unsupportedNominatimOption(_:)`` for `namedetails` and polygon outlines,
    ///   which need data only the server reads; the errors of `placemark(for:)`.
    public func nominatimAnswer(
        for coordinate: Coordinate, options: NominatimOptions = NominatimOptions()
    ) throws(PlacesGeocoderError) -> String {
        try lookUpNominatimAnswer(at: coordinate, options: options)
    }

    /// ``nominatimAnswer(for:options:)`` off the caller's actor.
    @concurrent
    public func nominatimAnswer(
        for coordinate: Coordinate, options: NominatimOptions = NominatimOptions()
    ) async throws(PlacesGeocoderError) -> String {
        try lookUpNominatimAnswer(at: coordinate, options: options)
    }

    // MARK: Answering

    /// The one body of both forms of ``placemark(for:)``: named apart, so that the `async` form cannot call itself.
    private func lookUpPlacemark(at coordinate: Coordinate) throws(PlacesGeocoderError) -> Placemark {
        try Self.check(coordinate)
        let placemark = geocoder.placemark(for: coordinate)
        try checkIndex(of: geocoder)
        return placemark
    }

    private func lookUpNominatimAnswer(at coordinate: Coordinate, options: NominatimOptions) throws(PlacesGeocoderError) -> String {
        try Self.check(coordinate)
        if options.nameDetails { throw .unsupportedNominatimOption("namedetails") }
        if let outline = options.geometryOutput { throw .unsupportedNominatimOption("polygon output (\(outline))") }
        let geocoder = try nominatimAnswering()
        // As the server answers a request: the zoom's highest rank, only the fields the answer reads.
        let record = geocoder.record(
            for: coordinate, needs: PlacemarkNeeds(fields: options.fieldsRead),
            maximumRank: NominatimDetail.maximumRank(zoom: options.zoom))
        let placemark = geocoder.placemark(from: record)
        try checkIndex(of: geocoder)
        var options = options
        options.licence = geocoder.licence
        return NominatimFormatter.answer(placemark, options: options)
    }

    // MARK: Opening and checking

    private static func open(
        _ path: String, loading: Loading, settings: GeocoderSettings
    ) throws(PlacesGeocoderError) -> ReverseGeocoder {
        guard FileManager.default.fileExists(atPath: path) else { throw .databaseNotFound(path: path) }
        do {
            return try ReverseGeocoder(databasePath: path, loading: loading, settings: settings)
        } catch {
            throw PlacesGeocoderError.opening(path, failedWith: error)
        }
    }

    private func nominatimAnswering() throws(PlacesGeocoderError) -> ReverseGeocoder {
        try nominatimGeocoder.withLock { opened throws(PlacesGeocoderError) -> ReverseGeocoder in
            if let opened { return opened }
            var settings = geocoder.settings
            settings.addressOfTheAnswer = true
            // On demand whatever this geocoder's loading: answers are the same, and nothing is read twice up front.
            let nominatim = try Self.open(databasePath, loading: .onDemand, settings: settings)
            opened = nominatim
            return nominatim
        }
    }

    private static func check(_ coordinate: Coordinate) throws(PlacesGeocoderError) {
        let latitude = coordinate.latitude, longitude = coordinate.longitude
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw .invalidCoordinate(latitude: latitude, longitude: longitude)
        }
    }

    private func checkIndex(of geocoder: ReverseGeocoder) throws(PlacesGeocoderError) {
        do {
            try geocoder.checkIndex()
        } catch {
            throw .damagedDatabase(path: databasePath, reason: String(describing: error))
        }
    }
}
